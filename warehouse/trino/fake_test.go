package trino

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeCoordinator is a Trino coordinator as trino-go-client sees it: POST
// /v1/statement takes the SQL and X-Trino-* headers and answers with the
// query's id and nextUri; each GET of a nextUri answers one page (columns
// with their typeSignature, data rows, stats) or the query's error; DELETE
// /v1/query/{id} cancels. Like a real coordinator it keeps transactions
// (START TRANSACTION → X-Trino-Started-Transaction-Id, ROLLBACK/COMMIT →
// X-Trino-Clear-Transaction-Id) and aborts one at its first failed
// statement.
//
// It answers the engine's introspection statements from the tables of one
// catalog, and any other statement from fixtures keyed by its text with
// whitespace collapsed. It records every request, so tests can assert
// exactly which SQL reached the cluster.
type fakeCoordinator struct {
	t        testing.TB
	srv      *httptest.Server
	catalog  string
	schemas  []string
	tables   []*fakeTable
	fixtures map[string]fakeResult
	pageSize int
	auth     func(*http.Request) bool // nil accepts everyone
	refuseTx bool                     // answer START TRANSACTION with an error

	mu       sync.Mutex
	requests []fakeRequest
	queries  map[string]*fakeQuery
	txs      map[string]*fakeTx
	nextID   int
}

// fakeRequest is one request as received. For a statement, InReadOnlyTx
// says whether it ran inside an open READ ONLY transaction, and Refused
// that the coordinator did not run it because the transaction it named was
// over: a cancelled client rolls back at once, and the statement's own POST,
// already on its way, can reach the coordinator after the ROLLBACK.
type fakeRequest struct {
	Method, Path string
	SQL          string
	QueryID      string
	Header       http.Header
	InReadOnlyTx bool
	Refused      bool
}

type fakeTable struct {
	schema, name, kind string
	cols               []fakeCol
	count              int64
	statsRows          *float64 // SHOW STATS summary row_count; nil is NULL
	denied             bool     // PERMISSION_DENIED on every read
	invalid            bool     // a view that no longer analyzes
	comment            string   // system.metadata.table_comments; "" is none (NULL)
	def                string   // a view's query as created
	stored             string   // its information_schema.views.view_definition
	colComments        map[string]string
}

type fakeCol struct {
	name, typ string
	notNull   bool
}

// fakeResult is the answer to one statement.
type fakeResult struct {
	cols     []fakeCol
	rows     []string // each a JSON array, exactly as on the wire
	err      *fakeErr
	hang     bool        // RUNNING forever, until cancelled
	endless  bool        // one integer column counting up from 1, page after page, never FINISHED
	finalHdr http.Header // headers of the last page
}

type fakeErr struct {
	name, typ, msg string
	code           int
}

type fakeQuery struct {
	id        string
	res       fakeResult
	cancelled bool
}

type fakeTx struct {
	readOnly, open, aborted bool
}

func newFakeCoordinator(t testing.TB) *fakeCoordinator {
	f := &fakeCoordinator{
		t:        t,
		catalog:  "hive",
		schemas:  []string{"hr", "information_schema", "sales"},
		tables:   fixtureTables(),
		fixtures: map[string]fakeResult{},
		pageSize: 100,
		queries:  map[string]*fakeQuery{},
		txs:      map[string]*fakeTx{},
	}
	f.srv = httptest.NewUnstartedServer(f)
	// Tests refuse the TLS fake's certificate on purpose; the server's log
	// line about it is noise.
	f.srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	return f
}

func (f *fakeCoordinator) start() *fakeCoordinator {
	f.srv.Start()
	f.t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeCoordinator) startTLS() *fakeCoordinator {
	f.srv.StartTLS()
	f.t.Cleanup(f.srv.Close)
	return f
}

// addr is the coordinator's host:port.
func (f *fakeCoordinator) addr() string { return f.srv.Listener.Addr().String() }

func ptrFloat(v float64) *float64 { return &v }

// orderTotalsDef is the view's query as written when it was created, and
// orderTotalsStored as a cluster keeps and lists it: Trino stores a view's
// query reformatted (its joins parenthesized, AS dropped), with names in
// any case and qualified or not as they were written.
const orderTotalsDef = `SELECT o.customer_id, sum(o.amount) AS total
FROM orders o JOIN hive.Sales."customers" c ON c.customer_id = o.customer_id
WHERE o.status IN (SELECT status FROM hr.employees)
GROUP BY o.customer_id`

const orderTotalsStored = "SELECT\n  o.customer_id\n, sum(o.amount) total\nFROM\n  (orders o\n" +
	"INNER JOIN hive.Sales.\"customers\" c ON (c.customer_id = o.customer_id))\n" +
	"WHERE (o.status IN (SELECT status\nFROM\n  hr.employees\n))\nGROUP BY o.customer_id\n"

// fixtureTables is catalog hive: schemas sales and hr, a view, a table the
// user may not read and a view that no longer analyzes.
func fixtureTables() []*fakeTable {
	return []*fakeTable{
		{schema: "sales", name: "customers", kind: "BASE TABLE", count: 3, statsRows: ptrFloat(3), cols: []fakeCol{
			{"customer_id", "bigint", true}, {"name", "varchar", false}, {"email", "varchar(255)", false},
			{"created_at", "timestamp(3)", false},
		}, comment: "Everyone who 'bought',\nonce", colComments: map[string]string{"email": `as "typed"`}},
		{schema: "sales", name: "orders", kind: "BASE TABLE", count: 5, statsRows: ptrFloat(998.4), cols: []fakeCol{
			{"order_id", "bigint", true}, {"customer_id", "bigint", false}, {"amount", "decimal(10,2)", false},
			{"status", "varchar", false}, {"ordered_on", "date", false}, {"tags", "array(varchar)", false},
		}},
		{schema: "sales", name: "order_totals", kind: "VIEW", count: 3, cols: []fakeCol{
			{"customer_id", "bigint", false}, {"total", "decimal(38,2)", false},
		}, def: orderTotalsDef, stored: orderTotalsStored},
		{schema: "sales", name: "secret_margins", kind: "BASE TABLE", denied: true, cols: []fakeCol{
			{"order_id", "bigint", false}, {"margin", "double", false},
		}},
		{schema: "hr", name: "employees", kind: "BASE TABLE", count: 4, cols: []fakeCol{
			{"emp_id", "integer", true}, {"full_name", "varchar", false}, {"salary", "double", false},
			{"active", "boolean", false}, {"manager_id", "integer", false},
		}},
		{schema: "hr", name: "stale_view", kind: "VIEW", invalid: true, cols: []fakeCol{
			{"emp_id", "integer", false},
		}, def: "SELECT emp_id FROM old_staff", stored: "SELECT emp_id\nFROM\n  old_staff\n"},
	}
}

func (f *fakeCoordinator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := fakeRequest{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()}
	if f.auth != nil && !f.auth(r) {
		f.record(req)
		w.Header().Set("WWW-Authenticate", `Basic realm="Trino"`)
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/statement":
		f.post(w, r, req, string(body))
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/statement/executing/"):
		f.record(req)
		f.page(w, r)
	case r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path, "/v1/query/"):
		id := strings.TrimPrefix(r.URL.Path, "/v1/query/")
		f.mu.Lock()
		req.QueryID = id
		f.requests = append(f.requests, req)
		if q, ok := f.queries[id]; ok {
			q.cancelled = true
		}
		f.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	default:
		f.record(req)
		http.NotFound(w, r)
	}
}

func (f *fakeCoordinator) record(req fakeRequest) {
	f.mu.Lock()
	f.requests = append(f.requests, req)
	f.mu.Unlock()
}

var spaces = regexp.MustCompile(`\s+`)

func normalize(sql string) string {
	return strings.TrimSuffix(strings.TrimSpace(spaces.ReplaceAllString(sql, " ")), ";")
}

// post starts a statement: transaction bookkeeping first, then the answer.
func (f *fakeCoordinator) post(w http.ResponseWriter, r *http.Request, req fakeRequest, body string) {
	sql := normalize(body)
	req.SQL = sql
	txID := r.Header.Get("X-Trino-Transaction-Id")

	f.mu.Lock()
	f.nextID++
	id := fmt.Sprintf("20260101_000000_%05d_fake", f.nextID)
	req.QueryID = id
	var res fakeResult
	upper := strings.ToUpper(sql)
	tx := f.txs[txID]
	switch {
	case strings.HasSuffix(strings.TrimSpace(body), ";"):
		// As a cluster's parser does; normalize, for the fixtures' keys,
		// drops the semicolon.
		res = errResult("SYNTAX_ERROR", "USER_ERROR", "line 1:9: mismatched input ';'")
	case strings.HasPrefix(upper, "START TRANSACTION"):
		if f.refuseTx {
			res = errResult("NOT_SUPPORTED", "USER_ERROR", "Transactions are not supported here")
			break
		}
		if txID != "NONE" {
			res = errResult("NOT_SUPPORTED", "USER_ERROR", "START TRANSACTION is not supported by the client")
			break
		}
		newID := fmt.Sprintf("tx-%d", f.nextID)
		f.txs[newID] = &fakeTx{readOnly: strings.Contains(upper, "READ ONLY"), open: true}
		res = fakeResult{finalHdr: http.Header{"X-Trino-Started-Transaction-Id": {newID}}}
	case upper == "ROLLBACK" || upper == "COMMIT":
		if tx == nil || !tx.open {
			res = errResult("NOT_IN_TRANSACTION", "USER_ERROR", "No transaction in progress")
			break
		}
		tx.open = false
		res = fakeResult{finalHdr: http.Header{"X-Trino-Clear-Transaction-Id": {"true"}}}
	case txID != "" && txID != "NONE" && (tx == nil || !tx.open):
		if tx != nil && tx.readOnly {
			req.Refused = true
		}
		res = errResult("UNKNOWN_TRANSACTION", "USER_ERROR", "Unknown transaction ID: "+txID)
	case tx != nil && tx.aborted:
		res = errResult("TRANSACTION_ALREADY_ABORTED", "USER_ERROR", "Current transaction is aborted, commands ignored until end of transaction block")
	default:
		req.InReadOnlyTx = tx != nil && tx.open && tx.readOnly
		f.mu.Unlock()
		res = f.answer(sql, r.Header.Get("X-Trino-Schema"))
		f.mu.Lock()
		if res.err != nil && tx != nil {
			tx.aborted = true
		}
	}
	f.requests = append(f.requests, req)
	f.queries[id] = &fakeQuery{id: id, res: res}
	f.mu.Unlock()

	writeJSON(w, map[string]any{
		"id":      id,
		"infoUri": f.srv.URL + "/ui/query.html?" + id,
		"nextUri": f.srv.URL + "/v1/statement/executing/" + id + "/0",
		"stats":   map[string]any{"state": "QUEUED", "queued": true, "scheduled": false},
	})
}

// page answers GET /v1/statement/executing/{id}/{n}.
func (f *fakeCoordinator) page(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/v1/statement/executing/"), "/")
	if len(parts) != 2 {
		http.NotFound(w, r)
		return
	}
	id := parts[0]
	n, err := strconv.Atoi(parts[1])
	f.mu.Lock()
	q, ok := f.queries[id]
	f.mu.Unlock()
	if !ok || err != nil {
		http.NotFound(w, r)
		return
	}
	resp := map[string]any{"id": id, "infoUri": f.srv.URL + "/ui/query.html?" + id}
	switch {
	case q.res.err != nil:
		resp["stats"] = map[string]any{"state": "FAILED"}
		resp["error"] = map[string]any{
			"message": q.res.err.msg, "errorCode": q.res.err.code, "errorName": q.res.err.name,
			"errorType": q.res.err.typ, "sqlState": "", "failureInfo": map[string]any{"type": "io.trino.spi.TrinoException", "message": q.res.err.msg},
		}
	case q.res.hang:
		// A real coordinator holds the poll up to its wait time; a short
		// one keeps the client polling.
		select {
		case <-r.Context().Done():
			return
		case <-time.After(5 * time.Millisecond):
		}
		resp["stats"] = map[string]any{"state": "RUNNING"}
		resp["nextUri"] = fmt.Sprintf("%s/v1/statement/executing/%s/%d", f.srv.URL, id, n+1)
	case q.res.endless:
		resp["columns"] = columnsJSON(q.res.cols)
		rows := make([]string, f.pageSize)
		for i := range rows {
			rows[i] = strconv.Itoa(n*f.pageSize + i + 1)
		}
		resp["data"] = json.RawMessage("[[" + strings.Join(rows, "],[") + "]]")
		resp["stats"] = map[string]any{"state": "RUNNING"}
		resp["nextUri"] = fmt.Sprintf("%s/v1/statement/executing/%s/%d", f.srv.URL, id, n+1)
	default:
		if len(q.res.cols) > 0 {
			resp["columns"] = columnsJSON(q.res.cols)
		}
		from, to := min(n*f.pageSize, len(q.res.rows)), min((n+1)*f.pageSize, len(q.res.rows))
		if to > from {
			resp["data"] = json.RawMessage("[" + strings.Join(q.res.rows[from:to], ",") + "]")
		}
		if to < len(q.res.rows) {
			resp["stats"] = map[string]any{"state": "RUNNING"}
			resp["nextUri"] = fmt.Sprintf("%s/v1/statement/executing/%s/%d", f.srv.URL, id, n+1)
		} else {
			resp["stats"] = map[string]any{"state": "FINISHED"}
			for k, v := range q.res.finalHdr {
				w.Header()[k] = v
			}
		}
	}
	writeJSON(w, resp)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func errResult(name, typ, msg string) fakeResult {
	return fakeResult{err: &fakeErr{name: name, typ: typ, msg: msg, code: 1}}
}

// Statements the engine builds, answered from the catalog's tables.
var (
	reSchemata     = regexp.MustCompile(`^SELECT count\(\*\) FROM "([^"]+)"\.information_schema\.schemata(?: WHERE schema_name = '([^']*)')?$`)
	reInfo         = regexp.MustCompile(`^SELECT (.+) FROM "([^"]+)"\.information_schema\.(tables|columns|views) WHERE table_schema (=|<>) '([^']*)' ORDER BY (.+)$`)
	reComments     = regexp.MustCompile(`^SELECT schema_name, table_name, comment FROM system\.metadata\.table_comments WHERE catalog_name = '([^']*)' AND schema_name (=|<>) '([^']*)' AND comment IS NOT NULL ORDER BY schema_name, table_name$`)
	reProbe        = regexp.MustCompile(`^SELECT 1 FROM (.+) LIMIT 0$`)
	reShowCreate   = regexp.MustCompile(`^SHOW CREATE TABLE (.+)$`)
	reCount        = regexp.MustCompile(`^SELECT count\(\*\) FROM (.+)$`)
	reStats        = regexp.MustCompile(`^SHOW STATS FOR (.+)$`)
	reSchemaTables = regexp.MustCompile(`^SELECT count\(\*\) FROM "([^"]+)"\.information_schema\.tables WHERE table_schema = '([^']*)'$`)
	reCatalogs     = regexp.MustCompile(`^SELECT connector_name FROM system\.metadata\.catalogs WHERE catalog_name = '([^']*)'$`)
	reTableRef     = regexp.MustCompile(`^"((?:[^"]|"")+)"(?:\."((?:[^"]|"")+)")?$`)
	// reSeries is the conformance suite's row source (seriesSQL).
	reSeries = regexp.MustCompile(`^SELECT a \* 10000 \+ b AS x FROM UNNEST\(sequence\(0, \d+\)\) AS s\(a\) CROSS JOIN UNNEST\(sequence\(1, 10000\)\) AS t\(b\) WHERE a \* 10000 \+ b <= (\d+) ORDER BY x$`)
)

func (f *fakeCoordinator) answer(sql, sessionSchema string) fakeResult {
	if res, ok := f.fixtures[sql]; ok {
		return res
	}
	if m := reSeries.FindStringSubmatch(sql); m != nil {
		n, _ := strconv.Atoi(m[1])
		res := fakeResult{cols: []fakeCol{{name: "x", typ: "bigint"}}, rows: make([]string, n)}
		for i := range n {
			res.rows[i] = "[" + strconv.Itoa(i+1) + "]"
		}
		return res
	}
	if sql == "SELECT 1" {
		return fakeResult{cols: []fakeCol{{name: "_col0", typ: "integer"}}, rows: []string{"[1]"}}
	}
	if m := reSchemata.FindStringSubmatch(sql); m != nil {
		if m[1] != f.catalog {
			return errResult("CATALOG_NOT_FOUND", "USER_ERROR", fmt.Sprintf("line 1:22: Catalog '%s' not found", m[1]))
		}
		n := 0
		for _, s := range f.schemas {
			if m[2] == "" || s == m[2] {
				n++
			}
		}
		return fakeResult{cols: []fakeCol{{name: "_col0", typ: "bigint"}}, rows: []string{fmt.Sprintf("[%d]", n)}}
	}
	if m := reSchemaTables.FindStringSubmatch(sql); m != nil {
		n := 0
		for _, t := range f.tables {
			if m[1] == f.catalog && t.schema == m[2] {
				n++
			}
		}
		return fakeResult{cols: []fakeCol{{name: "_col0", typ: "bigint"}}, rows: []string{fmt.Sprintf("[%d]", n)}}
	}
	if m := reInfo.FindStringSubmatch(sql); m != nil {
		return f.infoSchema(m[1], m[2], m[3], m[4], m[5], m[6])
	}
	if m := reComments.FindStringSubmatch(sql); m != nil {
		return f.tableComments(m[1], m[2], m[3])
	}
	if m := reProbe.FindStringSubmatch(sql); m != nil {
		t, res := f.resolve(m[1], sessionSchema)
		switch {
		case t == nil:
			return res
		case t.denied:
			return errResult("PERMISSION_DENIED", "USER_ERROR", "Access Denied: Cannot select from table hive."+t.schema+"."+t.name)
		case t.invalid:
			return errResult("INVALID_VIEW", "USER_ERROR", "line 1:15: Failed analyzing stored view 'hive."+t.schema+"."+t.name+"': line 3:3: Table 'hive.hr.old_staff' does not exist")
		}
		return fakeResult{cols: []fakeCol{{name: "_col0", typ: "integer"}}}
	}
	if m := reShowCreate.FindStringSubmatch(sql); m != nil {
		t, res := f.resolve(m[1], sessionSchema)
		switch {
		case t == nil:
			return res
		case t.kind == "VIEW":
			return errResult("NOT_SUPPORTED", "USER_ERROR", "line 1:1: Relation 'hive."+t.schema+"."+t.name+"' is a view, not a table")
		}
		return fakeResult{cols: []fakeCol{{name: "Create Table", typ: "varchar"}}, rows: []string{jsonRow(showCreate(t))}}
	}
	if m := reCount.FindStringSubmatch(sql); m != nil {
		t, res := f.resolve(m[1], sessionSchema)
		if t == nil {
			return res
		}
		return fakeResult{cols: []fakeCol{{name: "_col0", typ: "bigint"}}, rows: []string{fmt.Sprintf("[%d]", t.count)}}
	}
	if m := reStats.FindStringSubmatch(sql); m != nil {
		t, res := f.resolve(m[1], sessionSchema)
		if t == nil {
			return res
		}
		return statsResult(t)
	}
	if m := reCatalogs.FindStringSubmatch(sql); m != nil {
		// The fake's catalog is a Hive connector's.
		res := fakeResult{cols: []fakeCol{{name: "connector_name", typ: "varchar"}}}
		if m[1] == f.catalog {
			res.rows = []string{`["hive"]`}
		}
		return res
	}
	f.t.Errorf("fake trino: unexpected statement %q", sql)
	return errResult("SYNTAX_ERROR", "USER_ERROR", "fake trino does not know this statement")
}

// resolve finds the table ref names ("schema"."table", or "table" in the
// session's schema), or the error a coordinator would give.
func (f *fakeCoordinator) resolve(ref, sessionSchema string) (*fakeTable, fakeResult) {
	m := reTableRef.FindStringSubmatch(ref)
	if m == nil {
		return nil, errResult("SYNTAX_ERROR", "USER_ERROR", "fake trino cannot parse table "+ref)
	}
	unquote := func(s string) string { return strings.ReplaceAll(s, `""`, `"`) }
	schema, name := unquote(m[1]), unquote(m[2])
	if name == "" {
		schema, name = sessionSchema, unquote(m[1])
	}
	if schema == "" {
		return nil, errResult("MISSING_SCHEMA_NAME", "USER_ERROR", "Schema must be specified when session schema is not set")
	}
	for _, t := range f.tables {
		if t.schema == schema && t.name == name {
			if t.denied {
				return nil, errResult("PERMISSION_DENIED", "USER_ERROR", "Access Denied: Cannot select from table hive."+schema+"."+name)
			}
			return t, fakeResult{}
		}
	}
	return nil, errResult("TABLE_NOT_FOUND", "USER_ERROR", fmt.Sprintf("line 1:15: Table 'hive.%s.%s' does not exist", schema, name))
}

// infoSchema answers the two information_schema statements, checking that
// the engine asked for exactly the columns and order it reads.
func (f *fakeCoordinator) infoSchema(selectList, catalog, view, op, schema, orderBy string) fakeResult {
	if catalog != f.catalog {
		return errResult("CATALOG_NOT_FOUND", "USER_ERROR", fmt.Sprintf("Catalog '%s' not found", catalog))
	}
	keep := func(t *fakeTable) bool { return (op == "=") == (t.schema == schema) }
	tables := slices.Clone(f.tables)
	slices.SortFunc(tables, func(a, b *fakeTable) int {
		return strings.Compare(a.schema+"\x00"+a.name, b.schema+"\x00"+b.name)
	})
	var res fakeResult
	switch view {
	case "tables":
		if selectList != "table_schema, table_name, table_type" || orderBy != "table_schema, table_name" {
			return errResult("SYNTAX_ERROR", "USER_ERROR", "fake trino: unexpected tables query")
		}
		res.cols = []fakeCol{{name: "table_schema", typ: "varchar"}, {name: "table_name", typ: "varchar"}, {name: "table_type", typ: "varchar"}}
		for _, t := range tables {
			if keep(t) {
				res.rows = append(res.rows, jsonRow(t.schema, t.name, t.kind))
			}
		}
	case "views":
		if selectList != "table_schema, table_name, view_definition" || orderBy != "table_schema, table_name" {
			return errResult("SYNTAX_ERROR", "USER_ERROR", "fake trino: unexpected views query")
		}
		res.cols = []fakeCol{{name: "table_schema", typ: "varchar"}, {name: "table_name", typ: "varchar"}, {name: "view_definition", typ: "varchar"}}
		for _, t := range tables {
			if keep(t) && t.kind == "VIEW" {
				res.rows = append(res.rows, jsonRow(t.schema, t.name, t.stored))
			}
		}
	case "columns":
		if selectList != "table_schema, table_name, column_name, data_type, is_nullable, ordinal_position, column_default, comment" ||
			orderBy != "table_schema, table_name, ordinal_position" {
			return errResult("SYNTAX_ERROR", "USER_ERROR", "fake trino: unexpected columns query")
		}
		res.cols = []fakeCol{
			{name: "table_schema", typ: "varchar"}, {name: "table_name", typ: "varchar"},
			{name: "column_name", typ: "varchar"}, {name: "data_type", typ: "varchar"},
			{name: "is_nullable", typ: "varchar"}, {name: "ordinal_position", typ: "bigint"},
			{name: "column_default", typ: "varchar"}, {name: "comment", typ: "varchar"},
		}
		for _, t := range tables {
			if !keep(t) {
				continue
			}
			for i, c := range t.cols {
				nullable := "YES"
				if c.notNull {
					nullable = "NO"
				}
				// Trino's connectors mostly keep no defaults: NULL.
				var comment any
				if cm, ok := t.colComments[c.name]; ok {
					comment = cm
				}
				res.rows = append(res.rows, jsonRow(t.schema, t.name, c.name, c.typ, nullable, i+1, nil, comment))
			}
		}
	}
	return res
}

// tableComments answers system.metadata.table_comments, which lists the
// tables of every catalog; the engine asks for its own, with a comment.
func (f *fakeCoordinator) tableComments(catalog, op, schema string) fakeResult {
	res := fakeResult{cols: []fakeCol{{name: "schema_name", typ: "varchar"}, {name: "table_name", typ: "varchar"}, {name: "comment", typ: "varchar"}}}
	if catalog != f.catalog {
		return res
	}
	tables := slices.Clone(f.tables)
	slices.SortFunc(tables, func(a, b *fakeTable) int {
		return strings.Compare(a.schema+"\x00"+a.name, b.schema+"\x00"+b.name)
	})
	for _, t := range tables {
		if (op == "=") == (t.schema == schema) && t.comment != "" {
			res.rows = append(res.rows, jsonRow(t.schema, t.name, t.comment))
		}
	}
	return res
}

func statsResult(t *fakeTable) fakeResult {
	res := fakeResult{cols: []fakeCol{
		{name: "column_name", typ: "varchar"}, {name: "data_size", typ: "double"},
		{name: "distinct_values_count", typ: "double"}, {name: "nulls_fraction", typ: "double"},
		{name: "row_count", typ: "double"}, {name: "low_value", typ: "varchar"}, {name: "high_value", typ: "varchar"},
	}}
	for _, c := range t.cols {
		res.rows = append(res.rows, jsonRow(c.name, nil, 10.0, 0.0, nil, nil, nil))
	}
	var rc any
	if t.statsRows != nil {
		rc = *t.statsRows
	}
	res.rows = append(res.rows, jsonRow(nil, nil, nil, nil, rc, nil, nil))
	return res
}

func jsonRow(vals ...any) string {
	b, err := json.Marshal(vals)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func columnsJSON(cols []fakeCol) []map[string]any {
	out := make([]map[string]any, len(cols))
	for i, c := range cols {
		out[i] = map[string]any{"name": c.name, "type": c.typ, "typeSignature": typeSignature(c.typ)}
	}
	return out
}

// typeSignature is Trino's ClientTypeSignature of a type as information_schema
// spells it: varchar without a length is varchar(2147483647), arrays and maps
// take TYPE arguments, rows NAMED_TYPE ones, the precision of
// "timestamp(6) with time zone" sits in the middle of its name.
func typeSignature(typ string) map[string]any {
	typ = strings.TrimSpace(typ)
	long := func(s string) map[string]any {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			panic("fake trino: bad type argument in " + typ)
		}
		return map[string]any{"kind": "LONG", "value": n}
	}
	sig := func(raw string, args ...map[string]any) map[string]any {
		if args == nil {
			args = []map[string]any{}
		}
		return map[string]any{"rawType": raw, "arguments": args}
	}
	if base, rest, ok := strings.Cut(typ, "("); ok && strings.HasSuffix(rest, ") with time zone") {
		return sig(base+" with time zone", long(strings.TrimSuffix(rest, ") with time zone")))
	}
	open := strings.IndexByte(typ, '(')
	if open < 0 {
		if typ == "varchar" {
			return sig("varchar", long("2147483647"))
		}
		return sig(typ)
	}
	name, inner := typ[:open], typ[open+1:len(typ)-1]
	var args []map[string]any
	for _, a := range splitTop(inner) {
		switch name {
		case "array", "map":
			args = append(args, map[string]any{"kind": "TYPE", "value": typeSignature(a)})
		case "row":
			field, ftyp, _ := strings.Cut(strings.TrimSpace(a), " ")
			args = append(args, map[string]any{"kind": "NAMED_TYPE", "value": map[string]any{
				"fieldName": map[string]any{"name": field, "delimited": false}, "typeSignature": typeSignature(ftyp),
			}})
		default:
			args = append(args, long(a))
		}
	}
	return sig(name, args...)
}

// splitTop splits on the commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// statements lists the SQL of every statement received, in order.
func (f *fakeCoordinator) statements() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, r := range f.requests {
		if r.Method == http.MethodPost {
			out = append(out, r.SQL)
		}
	}
	return out
}

// statement returns the first received statement whose SQL is sql.
func (f *fakeCoordinator) statement(sql string) (fakeRequest, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.requests {
		if r.Method == http.MethodPost && r.SQL == sql {
			return r, true
		}
	}
	return fakeRequest{}, false
}

// cancelled reports whether a DELETE for query id arrived.
func (f *fakeCoordinator) cancelled(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.requests {
		if r.Method == http.MethodDelete && r.QueryID == id {
			return true
		}
	}
	return false
}

// assertReadOnly checks that every statement but transaction control ran
// inside an open READ ONLY transaction, or was sent inside one that had
// ended and so never ran.
func (f *fakeCoordinator) assertReadOnly(t *testing.T) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.requests {
		if r.Method != http.MethodPost || isTxControl(r.SQL) {
			continue
		}
		if !r.InReadOnlyTx && !r.Refused {
			t.Errorf("statement %q ran outside a READ ONLY transaction", r.SQL)
		}
	}
}

func isTxControl(sql string) bool {
	u := strings.ToUpper(sql)
	return strings.HasPrefix(u, "START TRANSACTION") || u == "ROLLBACK" || u == "COMMIT"
}

// showCreate is a table's CREATE TABLE as the memory connector's SHOW
// CREATE TABLE writes it: the full name, three spaces before each column,
// comments as string literals.
func showCreate(t *fakeTable) string {
	var cols []string
	for _, c := range t.cols {
		// Trino writes a type's parameters apart: decimal(10, 2).
		d := "   " + c.name + " " + strings.ReplaceAll(c.typ, ",", ", ")
		if c.notNull {
			d += " NOT NULL"
		}
		if cm, ok := t.colComments[c.name]; ok {
			d += " COMMENT " + quoteString(cm)
		}
		cols = append(cols, d)
	}
	out := "CREATE TABLE hive." + t.schema + "." + t.name + " (\n" + strings.Join(cols, ",\n") + "\n)"
	if t.comment != "" {
		out += "\nCOMMENT " + quoteString(t.comment)
	}
	return out
}
