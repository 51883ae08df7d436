package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// A line beyond maxMessage is answered with a parse error and skipped; the
// session goes on with the next message, and memory stays bounded by it.
func TestOversizedMessageIsSkipped(t *testing.T) {
	huge := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", maxMessage+10) + `"}}`
	in := huge + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n"
	var out bytes.Buffer
	if err := (&Server{}).Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d responses, want 2: %q", len(lines), out.String())
	}
	var first, second map[string]any
	if json.Unmarshal([]byte(lines[0]), &first) != nil || json.Unmarshal([]byte(lines[1]), &second) != nil {
		t.Fatalf("responses: %q", out.String())
	}
	if e, ok := first["error"].(map[string]any); !ok || e["code"] != float64(codeParse) {
		t.Errorf("oversized message: %v", first)
	}
	if second["id"] != float64(2) || second["result"] == nil {
		t.Errorf("the session did not go on: %v", second)
	}
}

// A last message without a newline is still answered; a request that is
// not JSON-RPC 2.0 gets "invalid request".
func TestEdgesOfTheStream(t *testing.T) {
	var out bytes.Buffer
	in := `{"id":7,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":"x","method":"ping"}`
	if err := (&Server{}).Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.Contains(got, `"id":7,"error":{"code":-32600`) || !strings.Contains(got, `"id":"x","result":{}`) {
		t.Errorf("responses: %s", got)
	}
}
