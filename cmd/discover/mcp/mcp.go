// Package mcp serves a database's discovery to an agent over the Model
// Context Protocol: JSON-RPC 2.0, one message per line on stdin and
// stdout (the stdio transport). It offers tools only: the catalog's
// findings (search, get, a table's description) and a query tool that puts
// every statement through the read-only guard, grounding, a timeout and a
// row cap, the same gate the model's own SQL passes in a discovery.
//
// Errors never end the session: a failing tool answers with isError and
// the reason; a malformed message gets a JSON-RPC error.
package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/privacy"
	"github.com/discover-db/discover/redact"
	"github.com/discover-db/discover/warehouse"
)

// Protocol revisions this server speaks, newest first. A client asking for
// one of them gets it; any other gets the newest, as the protocol says.
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// JSON-RPC error codes.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
)

// maxMessage bounds one incoming line; a larger one is answered with a
// parse error and skipped, not buffered without end.
const maxMessage = 4 << 20

// Server answers one client. Catalog and Run may be empty: then the
// catalog tools say there is no discovery to read.
type Server struct {
	Source       warehouse.Source
	Catalog      *catalog.Catalog
	Run          string // the discovery the catalog tools read
	Version      string
	QueryTimeout time.Duration
	MaxRows      int // row cap of run_query; a caller may ask for fewer
	// AllowPrivileged lets run_query run on a connection whose role could
	// do more than read (--allow-privileged); without it such a connection
	// answers run_query with the refusal, and the catalog tools still work.
	AllowPrivileged bool
	// ShowPII returns run_query's values of personal-data columns as they
	// are (--show-pii); by default they are masked (privacy.MaskRows).
	ShowPII bool

	once   sync.Once
	tables []warehouse.Table
	tErr   error

	piiOnce sync.Once
	pii     map[string]string // the discovery's personal-data columns (redact.Columns)
	piiErr  error

	objOnce sync.Once
	objects warehouse.Objects // the database's enumerated types and routines, where the source lists them
	objErr  error
}

type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// Serve reads messages from in until it ends (or ctx is done) and writes
// one response line to out for each request; notifications get none.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 64<<10)
	enc := json.NewEncoder(out)
	for ctx.Err() == nil {
		line, tooLong, err := readLine(r)
		if len(strings.TrimSpace(string(line))) > 0 || tooLong {
			var resp *response
			if tooLong {
				resp = &response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{codeParse, fmt.Sprintf("message longer than %d bytes", maxMessage)}}
			} else {
				resp = s.handle(ctx, line)
			}
			if resp != nil {
				if err := enc.Encode(resp); err != nil {
					return fmt.Errorf("mcp: write: %w", err)
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("mcp: read: %w", err)
		}
	}
	return ctx.Err()
}

// readLine reads one line, dropping what goes past maxMessage.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, err := r.ReadLine()
		if len(line)+len(chunk) > maxMessage {
			tooLong = true
		} else {
			line = append(line, chunk...)
		}
		if err != nil || !isPrefix {
			if tooLong {
				line = nil
			}
			return line, tooLong, err
		}
	}
}

func (s *Server) handle(ctx context.Context, line []byte) *response {
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		return &response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{codeParse, "parse error: " + err.Error()}}
	}
	if len(m.ID) == 0 || string(m.ID) == "null" {
		return nil // a notification (notifications/initialized, cancelled): never answered
	}
	resp := &response{JSONRPC: "2.0", ID: m.ID}
	if m.JSONRPC != "2.0" || m.Method == "" {
		resp.Error = &rpcError{codeInvalidRequest, `not a JSON-RPC 2.0 request (want "jsonrpc":"2.0" and a method)`}
		return resp
	}
	switch m.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(m.Params, &p) // absent params: the newest revision
		v := protocolVersions[0]
		if slices.Contains(protocolVersions, p.ProtocolVersion) {
			v = p.ProtocolVersion
		}
		resp.Result = map[string]any{
			"protocolVersion": v,
			"capabilities":    map[string]any{"tools": map[string]any{"listChanged": false}},
			"serverInfo":      map[string]any{"name": "discover", "version": s.Version},
			"instructions": "Tools over one database, opened read-only, and its discovery catalog. " +
				"Start with list_tables and describe_table; run_query runs one read-only SELECT after the guard and grounding checks.",
		}
	case "ping":
		resp.Result = map[string]any{}
	case "tools/list":
		resp.Result = map[string]any{"tools": toolList}
	case "tools/call":
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil || p.Name == "" {
			resp.Error = &rpcError{codeInvalidParams, "tools/call needs params {name, arguments}"}
			return resp
		}
		t, ok := tools[p.Name]
		if !ok {
			resp.Error = &rpcError{codeInvalidParams, fmt.Sprintf("unknown tool %q", p.Name)}
			return resp
		}
		resp.Result = s.call(ctx, t, p.Arguments)
	default:
		resp.Error = &rpcError{codeMethodNotFound, fmt.Sprintf("method %q not found", m.Method)}
	}
	return resp
}

// call runs a tool. Its failures are results with isError, so the agent
// sees the reason and the session goes on.
func (s *Server) call(ctx context.Context, t tool, raw json.RawMessage) map[string]any {
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	out, err := t.run(ctx, s, raw)
	if err != nil {
		return map[string]any{"content": []map[string]any{{"type": "text", "text": err.Error()}}, "isError": true}
	}
	b, err := json.Marshal(out) // compact: an agent pays for every token
	if err != nil {
		return map[string]any{"content": []map[string]any{{"type": "text", "text": "encode result: " + err.Error()}}, "isError": true}
	}
	return map[string]any{"content": []map[string]any{{"type": "text", "text": string(b)}}, "isError": false}
}

// AdmitQueries reports whether run_query will run statements on this
// connection (nil), or the refusal it will answer each call with.
func (s *Server) AdmitQueries(ctx context.Context) error { return s.untrusted().Admit(ctx) }

// untrusted is the door every agent's statement goes through.
func (s *Server) untrusted() *warehouse.Door {
	return &warehouse.Door{Source: s.Source, AllowPrivileged: s.AllowPrivileged}
}

func (s *Server) listTables(ctx context.Context) ([]warehouse.Table, error) {
	s.once.Do(func() { s.tables, s.tErr = s.Source.Tables(ctx) })
	return s.tables, s.tErr
}

// listObjects is the database's enumerated types and routines, read once;
// none from a source that does not list them.
func (s *Server) listObjects(ctx context.Context) (warehouse.Objects, error) {
	s.objOnce.Do(func() {
		if l, ok := s.Source.(warehouse.ObjectLister); ok {
			s.objects, s.objErr = l.Objects(ctx)
		}
	})
	return s.objects, s.objErr
}

// personalColumns are the discovery's personal-data columns by name, read
// once: the catalog does not change while the server runs.
func (s *Server) personalColumns(ctx context.Context) (map[string]string, error) {
	s.piiOnce.Do(func() {
		s.pii = map[string]string{}
		if s.Catalog != nil && s.Run != "" {
			s.pii, s.piiErr = redact.Columns(ctx, s.Catalog, s.Run)
		}
	})
	return s.pii, s.piiErr
}

type tool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"inputSchema"`
	run         func(ctx context.Context, s *Server, args json.RawMessage) (any, error)
}

func schema(props map[string]any, required ...string) map[string]any {
	if required == nil {
		required = []string{}
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

var (
	tools    = map[string]tool{}
	toolList []tool
)

func init() {
	for _, t := range []tool{
		{Name: "list_tables", Description: "The database's tables and views: kind, rows (from the discovery when there is one), columns and declared keys.",
			InputSchema: schema(map[string]any{}), run: listTables},
		{Name: "describe_table", Description: "One table as the discovery saw it: columns with types, null fractions, distinct counts, frequent values and semantic types; its entity; relationships declared, inferred and confirmed against the data.",
			InputSchema: schema(map[string]any{"table": map[string]any{"type": "string", "description": "table name as list_tables gives it"}}, "table"), run: describeTable},
		{Name: "search_catalog", Description: "Full-text search over the discovery's findings (profiles, relationships, hypotheses with verdicts, insights); best matches first.",
			InputSchema: schema(map[string]any{"text": map[string]any{"type": "string"}, "limit": map[string]any{"type": "integer", "minimum": 1, "maximum": 100}}, "text"),
			run:         searchCatalog},
		{Name: "get_entry", Description: "The discovery's entries under one key (e.g. a key search_catalog returned), with confidence and evidence.",
			InputSchema: schema(map[string]any{"key": map[string]any{"type": "string"}}, "key"), run: getEntry},
		{Name: "run_query", Description: "Run one read-only SELECT (or WITH … SELECT, EXPLAIN of one). The guard parses it with the engine's own grammar and allows only side-effect-free functions and this database's tables and views; grounding checks every table and column exists and joins carry a condition. It runs with a timeout, a row cap and a byte bound per value and per result, and not at all when the connection's role could do more than read, unless discover was started with --allow-privileged.",
			InputSchema: schema(map[string]any{"sql": map[string]any{"type": "string"}, "max_rows": map[string]any{"type": "integer", "minimum": 1}}, "sql"),
			run:         runQuery},
	} {
		tools[t.Name] = t
		toolList = append(toolList, t)
	}
}

// decodeArgs reads a tool's arguments strictly: an unknown or mistyped
// argument is an error the agent can correct.
func decodeArgs(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("arguments: %w", err)
	}
	return nil
}

func (s *Server) needCatalog() error {
	if s.Catalog == nil || s.Run == "" {
		return errors.New("no discovery catalog for this database: run `discover --db …` first, or start the server with --catalog")
	}
	return nil
}

type tableInfo struct {
	Name       string   `json:"name"`
	Kind       string   `json:"kind"`
	Rows       *int64   `json:"rows,omitempty"`
	Columns    []string `json:"columns"`
	PrimaryKey []string `json:"primary_key,omitempty"`
}

func listTables(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	if err := decodeArgs(raw, &struct{}{}); err != nil {
		return nil, err
	}
	ts, err := s.listTables(ctx)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	rows := map[string]int64{}
	if s.needCatalog() == nil {
		es, err := s.Catalog.List(ctx, catalog.Filter{Kind: catalog.KindTableStats, RunID: s.Run})
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			var d catalog.TableStatsDoc
			if e.Decode(&d) == nil {
				rows[d.Table] = d.Rows
			}
		}
	}
	out := make([]tableInfo, 0, len(ts))
	for _, t := range ts {
		ti := tableInfo{Name: t.Name.String(), Kind: t.Kind, PrimaryKey: t.PrimaryKey, Columns: []string{}}
		if n, ok := rows[ti.Name]; ok {
			ti.Rows = &n
		}
		for _, c := range t.Columns {
			ti.Columns = append(ti.Columns, c.Name)
		}
		out = append(out, ti)
	}
	return out, nil
}

type finding struct {
	Kind       string          `json:"kind"`
	Key        string          `json:"key"`
	Expert     string          `json:"expert"`
	Confidence float64         `json:"confidence"`
	Evidence   []string        `json:"evidence,omitempty"`
	Document   json.RawMessage `json:"document"`
}

func findingOf(e catalog.Entry) finding {
	return finding{Kind: e.Kind, Key: e.Key, Expert: e.Expert, Confidence: e.Confidence, Evidence: e.Evidence, Document: e.Document}
}

func describeTable(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var a struct {
		Table string `json:"table"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	ts, err := s.listTables(ctx)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	// "Users" and users may be two tables: another case only when it can
	// mean one.
	tbl, ok := naming.NewTableIndex(ts).Find(a.Table)
	if !ok {
		return nil, fmt.Errorf("no table %q (list_tables names them)", a.Table)
	}
	t := &tbl
	out := map[string]any{"name": t.Name.String(), "kind": t.Kind, "columns": t.Columns, "primary_key": t.PrimaryKey,
		"foreign_keys": t.ForeignKeys, "indexes": t.Indexes}
	// The declared structure beyond keys, where the engine declares it.
	for k, v := range map[string]any{"comment": t.Comment, "definition": t.Definition, "primary_key_name": t.PrimaryKeyName} {
		if v != "" {
			out[k] = v
		}
	}
	if len(t.Reads) > 0 {
		out["reads"] = t.Reads
	}
	if len(t.Checks) > 0 {
		out["checks"] = t.Checks
	}
	if len(t.Triggers) > 0 {
		out["triggers"] = t.Triggers
	}
	if len(t.ConstraintComments) > 0 {
		out["constraint_comments"] = t.ConstraintComments
	}
	// The labels of the enumerated types its columns hold, which the
	// columns name only.
	used := map[string]bool{}
	for _, c := range t.Columns {
		if c.Enum != "" {
			used[c.Enum] = true
		}
	}
	if len(used) > 0 {
		objs, err := s.listObjects(ctx)
		if err != nil {
			return nil, fmt.Errorf("list enumerated types: %w", err)
		}
		// Named as the columns name them.
		var enums []map[string]any
		for _, e := range objs.Enums {
			if used[e.Name.String()] {
				enum := map[string]any{"name": e.Name.String(), "labels": e.Labels}
				if e.Comment != "" {
					enum["comment"] = e.Comment
				}
				enums = append(enums, enum)
			}
		}
		if len(enums) > 0 {
			out["enums"] = enums
		}
	}
	if s.needCatalog() != nil {
		out["discovery"] = "none: only the declared structure is known"
		return out, nil
	}
	name := t.Name.String()
	var found []finding
	// The table's own entry holds what the team wrote of it and its
	// columns (discover.yaml comments:), beside the database's.
	tables, err := s.Catalog.List(ctx, catalog.Filter{Kind: catalog.KindTable, RunID: s.Run})
	if err != nil {
		return nil, err
	}
	for _, e := range tables {
		if e.Key == name {
			found = append(found, findingOf(e))
		}
	}
	for _, kind := range []string{catalog.KindEntity, catalog.KindTableStats, catalog.KindProfile, catalog.KindSemantic, catalog.KindRelationship} {
		es, err := s.Catalog.List(ctx, catalog.Filter{Kind: kind, RunID: s.Run})
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			if about(e, name) {
				found = append(found, findingOf(e))
			}
		}
	}
	out["discovery"] = s.Run
	out["findings"] = found
	return out, nil
}

// about reports whether an entry's document concerns the table: its
// table field, or either end of a relationship.
func about(e catalog.Entry, table string) bool {
	var d struct {
		Table     string `json:"table"`
		FromTable string `json:"from_table"`
		ToTable   string `json:"to_table"`
	}
	if e.Decode(&d) != nil {
		return false
	}
	return d.Table == table || d.FromTable == table || d.ToTable == table
}

func searchCatalog(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var a struct {
		Text  string `json:"text"`
		Limit int    `json:"limit"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if err := s.needCatalog(); err != nil {
		return nil, err
	}
	limit := a.Limit
	if limit <= 0 || limit > 100 {
		limit = 20
	}
	// Search spans every run in the catalog; only this discovery's count.
	es, err := s.Catalog.Search(ctx, a.Text, 0)
	if err != nil {
		return nil, err
	}
	out := []finding{}
	for _, e := range es {
		if e.RunID == s.Run && len(out) < limit {
			out = append(out, findingOf(e))
		}
	}
	return out, nil
}

func getEntry(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var a struct {
		Key string `json:"key"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if err := s.needCatalog(); err != nil {
		return nil, err
	}
	es, err := s.Catalog.Lookup(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	out := []finding{}
	for _, e := range es {
		if e.RunID == s.Run {
			out = append(out, findingOf(e))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no entry with key %q in discovery %s", a.Key, s.Run)
	}
	return out, nil
}

type queryResult struct {
	Columns   []string `json:"columns"`
	Rows      [][]any  `json:"rows"`
	Truncated bool     `json:"truncated"`
	Warning   string   `json:"warning,omitempty"` // what the controller's result checks noticed
	// Masked names the columns whose values hold personal data and are
	// masked (the server runs without --show-pii).
	Masked []string `json:"masked_columns,omitempty"`
}

func runQuery(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var a struct {
		SQL     string `json:"sql"`
		MaxRows int    `json:"max_rows"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	ts, err := s.listTables(ctx)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	if strings.TrimSpace(a.SQL) == "" {
		return nil, errors.New("refused (guard): empty statement")
	}
	door := s.untrusted()
	if err := door.Admit(ctx); err != nil {
		return nil, fmt.Errorf("refused (connection): %w", err)
	}
	if err := door.Guard(ctx, a.SQL); err != nil {
		return nil, fmt.Errorf("refused (guard): %w", warehouse.SanitizeError(err))
	}
	ctl := llm.Controller{Dialect: s.Source.Dialect(), Tables: ts}
	if err := ctl.Ground(a.SQL); err != nil {
		return nil, fmt.Errorf("refused (grounding): %w", err)
	}
	rows := s.MaxRows
	if a.MaxRows > 0 && a.MaxRows < rows {
		rows = a.MaxRows
	}
	res, err := door.Query(ctx, a.SQL, warehouse.QueryOptions{Timeout: s.QueryTimeout, MaxRows: rows})
	switch {
	case errors.Is(err, warehouse.ErrDatabaseRefused):
		return nil, fmt.Errorf("refused (database): %w", err)
	case errors.Is(err, warehouse.ErrRejected):
		return nil, fmt.Errorf("refused (guard): %w", err)
	case err != nil:
		return nil, fmt.Errorf("query failed: %w", err)
	}
	out := queryResult{Columns: res.Columns, Rows: res.Rows, Truncated: res.Truncated}
	if out.Rows == nil {
		out.Rows = [][]any{}
	}
	if !s.ShowPII {
		known, err := s.personalColumns(ctx)
		if err != nil {
			return nil, fmt.Errorf("personal-data columns: %w", err)
		}
		sources := warehouse.ResultSources(s.Source.Dialect().Grammar(), a.SQL, res)
		if masked := privacy.MaskRows(out.Columns, sources, out.Rows, known); len(masked) > 0 {
			out.Masked = masked
		}
	}
	switch {
	case res.BytesTruncated:
		out.Warning = fmt.Sprintf("the result was cut to %d bytes per value and %d bytes in all; cut values end in \"… [cut: N bytes]\"",
			warehouse.DefaultMaxValueBytes, warehouse.DefaultMaxResultBytes)
	case !res.Truncated:
		// A capped result is the agent's choice here, not a row explosion.
		out.Warning = llm.Verify(res)
	}
	return out, nil
}
