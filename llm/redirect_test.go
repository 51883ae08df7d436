package llm_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/llm/anthropic"
	"github.com/discover-db/discover/llm/llmtest"
	"github.com/discover-db/discover/llm/ollama"
	"github.com/discover-db/discover/llm/openai"
)

// redirectKey is the secret every provider is configured with; for Ollama,
// which sends no key, it is the password of the base URL's user info (Go
// sends it as Basic authorization).
const redirectKey = "sk-redirect-canary-0d9c4b1e"

// redirectProviders builds each supported provider against base.
var redirectProviders = map[string]func(base string) (llm.Provider, error){
	"openai": func(base string) (llm.Provider, error) {
		return openai.New(llm.Config{Provider: "openai", Model: "m", BaseURL: base + "/v1", Key: redirectKey})
	},
	"anthropic": func(base string) (llm.Provider, error) {
		return anthropic.New(llm.Config{Provider: "anthropic", Model: "m", BaseURL: base, Key: redirectKey})
	},
	"ollama": func(base string) (llm.Provider, error) {
		return ollama.New(llm.Config{Provider: "ollama", Model: "m", BaseURL: strings.Replace(base, "http://", "http://me:"+redirectKey+"@", 1)})
	},
}

// recorder is a server that keeps the headers of every request it gets.
type recorder struct {
	*httptest.Server
	mu      sync.Mutex
	headers []http.Header
}

func newRecorder() *recorder {
	r := &recorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.headers = append(r.headers, req.Header.Clone())
		r.mu.Unlock()
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	return r
}

func (r *recorder) received() []http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]http.Header(nil), r.headers...)
}

// A redirect to another origin — here the same host on another port, where
// Go's client would keep Authorization, and keeps custom headers such as
// x-api-key on any redirect — is refused by every provider's client: the
// second server receives no request at all, so no key can reach it, and
// the error says why.
func TestNoKeyOnCrossOriginRedirect(t *testing.T) {
	for name, build := range redirectProviders {
		for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
			t.Run(name+"/"+strconv.Itoa(code), func(t *testing.T) {
				target := newRecorder()
				defer target.Close()
				front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, target.URL+r.URL.Path, code)
				}))
				defer front.Close()
				p, err := build(front.URL)
				if err != nil {
					t.Fatal(err)
				}
				_, err = p.Complete(context.Background(), llm.Request{Tool: llm.HypothesesTool,
					Messages: []llm.Message{{Role: llm.RoleUser, Text: "Propose hypotheses."}}})
				if err == nil {
					t.Fatal("a redirect to another origin was followed to an answer")
				}
				if !strings.Contains(err.Error(), "redirect to another origin") {
					t.Errorf("error does not say the redirect was refused: %v", err)
				}
				if strings.Contains(err.Error(), redirectKey) {
					t.Errorf("error shows the key: %v", err)
				}
				got := target.received()
				for _, h := range got {
					for k, vs := range h {
						for _, v := range vs {
							if strings.Contains(v, redirectKey) || (k == "Authorization" && v != "") {
								t.Errorf("the other origin received %s: %s", k, v)
							}
						}
					}
				}
				if len(got) != 0 {
					t.Errorf("the other origin received %d requests, want none", len(got))
				}
			})
		}
	}
}

// A redirect within the configured origin (a proxy moving a path) is still
// followed, with the key, to the answer.
func TestSameOriginRedirectFollowed(t *testing.T) {
	srv := llmtest.New(func(n int, req llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Tool: "propose_hypotheses", Args: goodHypotheses}
	})
	defer srv.Close()
	// The front answers as srv does, but moves /old/… to /… on itself.
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, "/old"); ok {
			http.Redirect(w, r, rest, http.StatusPermanentRedirect)
			return
		}
		srv.Config.Handler.ServeHTTP(w, r)
	}))
	defer front.Close()
	p, err := openai.New(llm.Config{Provider: "openai", Model: "m", BaseURL: front.URL + "/old/v1", Key: redirectKey})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.Complete(context.Background(), llm.Request{Tool: llm.HypothesesTool,
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "Propose hypotheses."}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.ToolName != "propose_hypotheses" {
		t.Errorf("answer %+v", resp)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Authorization != "Bearer "+redirectKey {
		t.Errorf("requests %+v", reqs)
	}
}
