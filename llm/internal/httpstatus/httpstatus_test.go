package httpstatus

import (
	"context"
	"errors"
	"net/http"
	"testing"
)

// An origin is scheme, host and port: a default port written out is the
// same origin, host case does not matter, and any other difference —
// another port on the same host included — is another origin, refused and
// recorded for a watched call.
func TestSameOrigin(t *testing.T) {
	cases := []struct {
		from, to string
		same     bool
	}{
		{"http://127.0.0.1:8080/v1/chat", "http://127.0.0.1:8080/v2/chat", true},
		{"http://api.example.com/v1", "http://API.example.com:80/v1", true},
		{"https://api.example.com/v1", "https://api.example.com:443/x?y=1", true},
		{"http://127.0.0.1:8080/v1", "http://127.0.0.1:8081/v1", false},
		{"https://api.example.com/v1", "http://api.example.com/v1", false},
		{"https://api.example.com/v1", "https://evil.example.com/v1", false},
		{"http://localhost:11434/api", "http://127.0.0.1:11434/api", false},
	}
	for _, c := range cases {
		ctx, seen := Watch(context.Background())
		from, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.from, nil)
		to, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.to, nil)
		err := SameOrigin(to, []*http.Request{from})
		var re *RedirectError
		if c.same != (err == nil) || (!c.same && (!errors.As(err, &re) || seen.Redirect != re)) {
			t.Errorf("%s -> %s: err %v, seen %v", c.from, c.to, err, seen.Redirect)
		}
	}
}

// Same-origin redirects stop at net/http's own limit.
func TestRedirectLimit(t *testing.T) {
	r, _ := http.NewRequest(http.MethodGet, "http://h/", nil)
	via := make([]*http.Request, maxRedirects)
	for i := range via {
		via[i] = r
	}
	if SameOrigin(r, via) == nil || SameOrigin(r, via[:maxRedirects-1]) != nil {
		t.Error("limit not at", maxRedirects)
	}
}
