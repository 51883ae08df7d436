// Package httpstatus lets a provider adapter learn the HTTP status of the
// request langchaingo made for it: langchaingo reports a failed request
// only as text, and the retry policy needs the number.
package httpstatus

import (
	"context"
	"net/http"
)

type key struct{}

// Watch returns a context under which Transport records the status of the
// request made with it into *status.
func Watch(ctx context.Context) (context.Context, *int) {
	status := new(int)
	return context.WithValue(ctx, key{}, status), status
}

// Transport records response statuses for requests made under Watch.
type Transport struct {
	Base http.RoundTripper // nil: http.DefaultTransport
}

// RoundTrip implements http.RoundTripper.
func (t Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(r)
	if err == nil {
		if p, ok := r.Context().Value(key{}).(*int); ok {
			*p = resp.StatusCode
		}
	}
	return resp, err
}

// Client is an HTTP client whose statuses can be watched. It sets no
// overall timeout: each call's context carries the per-call deadline.
func Client() *http.Client { return &http.Client{Transport: Transport{}} }
