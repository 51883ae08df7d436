package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// mcpSession feeds lines to `discover mcp` as a client would and returns
// the response lines, decoded, by id.
func mcpSession(t *testing.T, args []string, lines ...string) (map[string]map[string]any, result) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(append([]string{"mcp"}, args...), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, &errb)
	res := result{code, out.String(), errb.String()}
	byID := map[string]map[string]any{}
	for _, l := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("stdout line is not JSON (stdout must carry the protocol only): %q", l)
		}
		if m["jsonrpc"] != "2.0" {
			t.Fatalf("not a JSON-RPC 2.0 response: %q", l)
		}
		id, _ := json.Marshal(m["id"])
		byID[string(id)] = m
	}
	return byID, res
}

func call(id int, tool string, args any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	return string(b)
}

// toolText returns a tools/call result's text and whether it is an error.
func toolText(t *testing.T, m map[string]any) (string, bool) {
	t.Helper()
	r, ok := m["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result: %v", m)
	}
	content := r["content"].([]any)
	return content[0].(map[string]any)["text"].(string), r["isError"] == true
}

// A client's whole session against a discovered database: the handshake,
// the tools, catalog findings, guarded queries that run and writes that
// are refused, and protocol errors that do not end the session.
func TestMCPSession(t *testing.T) {
	db := llmShop(t)
	before := sha(t, db)
	out := t.TempDir()
	if res := run(t, "--db", db, "--out", out, "--progress", "none", "--format", "json"); res.code != 0 {
		t.Fatalf("discovery: exit %d\n%s", res.code, res.stderr)
	}
	cat := filepath.Join(out, "catalog.db")
	catBefore := sha(t, cat)
	resp, res := mcpSession(t, []string{"--db", db, "--catalog", cat},
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		call(3, "list_tables", map[string]any{}),
		call(4, "describe_table", map[string]any{"table": "orders"}),
		call(5, "search_catalog", map[string]any{"text": "customer_id"}),
		call(6, "run_query", map[string]any{"sql": "SELECT status, COUNT(*) AS n FROM orders GROUP BY status ORDER BY status"}),
		call(7, "run_query", map[string]any{"sql": "DROP TABLE orders"}),
		call(8, "run_query", map[string]any{"sql": "SELECT COUNT(*) FROM orders; DELETE FROM orders"}),
		call(9, "run_query", map[string]any{"sql": "SELECT nosuch FROM orders"}),
		call(10, "run_query", map[string]any{"sql": "SELECT * FROM orders", "max_rows": 5}),
		`{"jsonrpc":"2.0","id":11,"method":"resources/list"}`,
		`this is not json`,
		call(12, "no_such_tool", map[string]any{}),
		call(13, "describe_table", map[string]any{"table": "orders", "extra": 1}),
		`{"jsonrpc":"2.0","id":14,"method":"ping"}`,
	)
	if res.code != 0 {
		t.Fatalf("mcp: exit %d\n%s", res.code, res.stderr)
	}
	// 14 requests and one unparsable line answered; the notification not.
	if n := strings.Count(strings.TrimSpace(res.stdout), "\n") + 1; n != 15 {
		t.Errorf("%d response lines, want 15:\n%s", n, res.stdout)
	}
	init := resp["1"]["result"].(map[string]any)
	if init["protocolVersion"] != "2025-06-18" || init["capabilities"].(map[string]any)["tools"] == nil {
		t.Errorf("initialize: %v", init)
	}
	var names []string
	for _, tl := range resp["2"]["result"].(map[string]any)["tools"].([]any) {
		m := tl.(map[string]any)
		names = append(names, m["name"].(string))
		if m["inputSchema"].(map[string]any)["type"] != "object" {
			t.Errorf("tool %v: inputSchema is not an object schema", m["name"])
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"describe_table", "get_entry", "list_tables", "run_query", "search_catalog"}) {
		t.Errorf("tools: %v", names)
	}

	text, isErr := toolText(t, resp["3"])
	var tables []struct {
		Name string `json:"name"`
		Rows *int64 `json:"rows"`
	}
	if err := json.Unmarshal([]byte(text), &tables); err != nil || isErr {
		t.Fatalf("list_tables: %v %s", err, text)
	}
	if len(tables) != 2 || tables[1].Name != "orders" || tables[1].Rows == nil || *tables[1].Rows != 200 {
		t.Errorf("list_tables: %s", text)
	}
	text, isErr = toolText(t, resp["4"])
	if isErr || !strings.Contains(text, `"relationship"`) || !strings.Contains(text, `"profile"`) || !strings.Contains(text, "customers") {
		t.Errorf("describe_table orders lacks its profiles or its relationship to customers:\n%.600s", text)
	}
	text, isErr = toolText(t, resp["5"])
	if isErr || !strings.Contains(text, "customer_id") {
		t.Errorf("search_catalog: %.400s", text)
	}
	text, isErr = toolText(t, resp["6"])
	var q struct {
		Columns []string `json:"columns"`
		Rows    [][]any  `json:"rows"`
	}
	if err := json.Unmarshal([]byte(text), &q); err != nil || isErr || len(q.Rows) != 3 {
		t.Fatalf("run_query: %v %s", err, text)
	}
	total := 0.0
	for _, r := range q.Rows {
		total += r[1].(float64)
	}
	if total != 200 {
		t.Errorf("run_query counts %v, want 200 orders in all", q.Rows)
	}
	for id, want := range map[string]string{"7": "refused (guard)", "8": "refused (guard)", "9": "refused (grounding)"} {
		if text, isErr := toolText(t, resp[id]); !isErr || !strings.Contains(text, want) {
			t.Errorf("call %s: %q (error %v), want %q", id, text, isErr, want)
		}
	}
	text, _ = toolText(t, resp["10"])
	if err := json.Unmarshal([]byte(text), &q); err != nil || len(q.Rows) != 5 || !strings.Contains(text, `"truncated":true`) {
		t.Errorf("max_rows 5: %s", text)
	}
	if e := resp["11"]["error"].(map[string]any); e["code"] != float64(-32601) {
		t.Errorf("unknown method: %v", e)
	}
	if e := resp["null"]["error"].(map[string]any); e["code"] != float64(-32700) {
		t.Errorf("parse error: %v", e)
	}
	if e, ok := resp["12"]["error"].(map[string]any); !ok || e["code"] != float64(-32602) {
		t.Errorf("unknown tool: %v", resp["12"])
	}
	if text, isErr := toolText(t, resp["13"]); !isErr || !strings.Contains(text, "unknown field") {
		t.Errorf("unknown argument: %q", text)
	}
	if _, ok := resp["14"]["result"]; !ok {
		t.Errorf("ping: %v", resp["14"])
	}
	if sha(t, db) != before {
		t.Errorf("the database changed")
	}
	if sha(t, cat) != catBefore {
		t.Errorf("the catalog changed")
	}
}

// Without a discovery the catalog tools say so; the query tool still works.
func TestMCPWithoutCatalog(t *testing.T) {
	db := llmShop(t)
	resp, res := mcpSession(t, []string{"--db", db, "--catalog", ""},
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}`,
		call(2, "search_catalog", map[string]any{"text": "orders"}),
		call(3, "run_query", map[string]any{"sql": "SELECT COUNT(*) AS n FROM customers"}),
	)
	if res.code != 0 {
		t.Fatalf("mcp: exit %d\n%s", res.code, res.stderr)
	}
	if v := resp["1"]["result"].(map[string]any)["protocolVersion"]; v != "2025-11-25" {
		t.Errorf("an unknown revision gets the newest; got %v", v)
	}
	if text, isErr := toolText(t, resp["2"]); !isErr || !strings.Contains(text, "no discovery catalog") {
		t.Errorf("search_catalog without a catalog: %q", text)
	}
	if text, isErr := toolText(t, resp["3"]); isErr || !strings.Contains(text, "40") {
		t.Errorf("run_query: %q", text)
	}
	if !strings.Contains(res.stderr, "no discovery") {
		t.Errorf("stderr does not say there is no discovery: %q", res.stderr)
	}
}
