// Package httpstatus lets a provider adapter learn the HTTP status of the
// request langchaingo made for it: langchaingo reports a failed request
// only as text, and the retry policy needs the number.
package httpstatus

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

type key struct{}

// Seen is what the client saw of one watched call.
type Seen struct {
	Status   int            // the last response's status; 0: no answer
	Redirect *RedirectError // a refused redirect, if any
}

// Watch returns a context under which Transport records the status of the
// request made with it, and SameOrigin a refused redirect, into *Seen.
func Watch(ctx context.Context) (context.Context, *Seen) {
	seen := new(Seen)
	return context.WithValue(ctx, key{}, seen), seen
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
		if p, ok := r.Context().Value(key{}).(*Seen); ok {
			p.Status = resp.StatusCode
		}
	}
	return resp, err
}

// Client is an HTTP client whose statuses can be watched, over
// http.DefaultTransport. See ClientOver.
func Client() *http.Client { return ClientOver(nil) }

// ClientOver is an HTTP client whose statuses can be watched, over base
// (nil: http.DefaultTransport). It sets no overall timeout: each call's
// context carries the per-call deadline. It follows no redirect to
// another origin (see SameOrigin): every provider's request carries the
// API key.
func ClientOver(base http.RoundTripper) *http.Client {
	return &http.Client{Transport: Transport{Base: base}, CheckRedirect: SameOrigin}
}

// maxRedirects is net/http's own limit, kept for same-origin redirects.
const maxRedirects = 10

// SameOrigin is a CheckRedirect that refuses a redirect to any origin
// (scheme, host, port) other than the first request's. Go's client drops
// Authorization only when the host's domain changes (not on another port
// of the same host) and forwards custom headers such as x-api-key or
// api-key on every redirect, so a redirecting server, or whoever controls
// the Location it sends, would receive the key. Refusing outright is
// simpler and safer than stripping headers: which header carries the key
// is the SDK's business, and no provider API redirects elsewhere.
func SameOrigin(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	from := via[0].URL
	if origin(req.URL) != origin(from) {
		e := &RedirectError{From: origin(from), To: origin(req.URL)}
		// Recorded because some SDKs (langchaingo's OpenAI client) replace
		// the client's error with their own text.
		if p, ok := req.Context().Value(key{}).(*Seen); ok {
			p.Redirect = e
		}
		return e
	}
	return nil
}

// RedirectError is a refused redirect to another origin.
type RedirectError struct{ From, To string }

func (e *RedirectError) Error() string {
	return fmt.Sprintf("refused a redirect to another origin (%s, from %s): the API key is sent only to the configured base URL; set the base URL to the server that answers", e.To, e.From)
}

// origin is scheme://host:port, lower case, with the scheme's default port
// made explicit, so that http://h and http://h:80 are one origin.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + strings.ToLower(u.Hostname()) + ":" + port
}
