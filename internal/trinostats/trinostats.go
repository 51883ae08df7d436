// Package trinostats reads, from a Trino coordinator's own query
// statistics, how many rows each statement of one client read from each
// table: the physical input of its table scans (physicalInputPositions of
// the operators that read a connector), what the issue 23 bound on
// discover's reads is checked against. Tests and benchmarks only.
//
// The coordinator keeps a finished query's operator statistics only while
// it is among the last hundred or so (query.max-history); beyond, it keeps
// the query's totals alone. So a Watcher polls GET /v1/query while the
// client runs and reads each finished query of its source
// (X-Trino-Source, the DSN's source parameter) at once, from
// GET /v1/query/{id}.
package trinostats

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Query is one statement as the coordinator ran it.
type Query struct {
	ID, State, SQL string
	// Input is the statement's physical input rows, of every table, failed
	// tasks included.
	Input int64
	// Tables is Input by table ("schema.table"), from the operators that
	// read it; what no operator accounts for (the coordinator pruned the
	// statistics, or a failed task's) is under Unattributed.
	Tables map[string]int64
}

// Unattributed names the rows of a Query's Input no table scan accounts
// for.
const Unattributed = "(unattributed)"

// Max is the largest number of rows q read from one table, and the table.
func (q Query) Max() (table string, rows int64) {
	for _, t := range slices.Sorted(maps.Keys(q.Tables)) {
		if q.Tables[t] > rows {
			table, rows = t, q.Tables[t]
		}
	}
	return table, rows
}

// Watcher collects the finished queries of one source.
type Watcher struct {
	base, source string
	client       *http.Client

	mu      sync.Mutex
	queries map[string]Query
	err     error // the first failure to read the coordinator
	cancel  context.CancelFunc
	done    chan struct{}
}

// Watch starts polling the coordinator at addr (host:port) every interval
// for the queries whose source is source.
func Watch(addr, source string, interval time.Duration) *Watcher {
	ctx, cancel := context.WithCancel(context.Background())
	w := &Watcher{
		base: "http://" + addr, source: source, client: &http.Client{Timeout: 30 * time.Second},
		queries: map[string]Query{}, cancel: cancel, done: make(chan struct{}),
	}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			w.sweep(ctx)
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

// Stop ends the polling, reads the queries finished since the last sweep,
// and returns every query of the source, in the order of their ids (the
// coordinator numbers them as they come).
func (w *Watcher) Stop() ([]Query, error) {
	w.cancel()
	<-w.done
	w.sweep(context.Background())
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := make([]string, 0, len(w.queries))
	for id := range w.queries {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]Query, 0, len(ids))
	for _, id := range ids {
		out = append(out, w.queries[id])
	}
	return out, w.err
}

// basicInfo is one entry of GET /v1/query.
type basicInfo struct {
	QueryID string `json:"queryId"`
	State   string `json:"state"`
	Query   string `json:"query"`
	Session struct {
		Source string `json:"source"`
	} `json:"session"`
}

func (w *Watcher) sweep(ctx context.Context) {
	var list []basicInfo
	if err := w.get(ctx, "/v1/query", &list); err != nil {
		w.fail(err)
		return
	}
	for _, b := range list {
		if b.Session.Source != w.source || (b.State != "FINISHED" && b.State != "FAILED") {
			continue
		}
		w.mu.Lock()
		_, seen := w.queries[b.QueryID]
		w.mu.Unlock()
		if seen {
			continue
		}
		q, err := w.read(ctx, b)
		if err != nil {
			w.fail(err)
			continue
		}
		w.mu.Lock()
		w.queries[b.QueryID] = q
		w.mu.Unlock()
	}
}

// fail keeps the first error; a sweep cut by Stop is none.
func (w *Watcher) fail(err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.mu.Unlock()
}

func (w *Watcher) get(ctx context.Context, path string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-Trino-User", "admin")
	resp, err := w.client.Do(req)
	if err != nil {
		return fmt.Errorf("trinostats: GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("trinostats: GET %s: %s", path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		return fmt.Errorf("trinostats: GET %s: %w", path, err)
	}
	return nil
}

// queryInfo is the part of GET /v1/query/{id} read here.
type queryInfo struct {
	QueryStats struct {
		PhysicalInputPositions       int64 `json:"physicalInputPositions"`
		FailedPhysicalInputPositions int64 `json:"failedPhysicalInputPositions"`
		OperatorSummaries            []struct {
			StageID                int    `json:"stageId"`
			PlanNodeID             string `json:"planNodeId"`
			PhysicalInputPositions int64  `json:"physicalInputPositions"`
		} `json:"operatorSummaries"`
	} `json:"queryStats"`
	OutputStage *stageInfo `json:"outputStage"`
}

type stageInfo struct {
	StageID string `json:"stageId"` // queryId.N
	Plan    struct {
		Root json.RawMessage `json:"root"`
	} `json:"plan"`
	SubStages []*stageInfo `json:"subStages"`
}

// read takes one finished query's statistics: each operator's physical
// input goes to the tables scanned under its plan node (a scan, or the
// filter and projection fused with the scan below it).
func (w *Watcher) read(ctx context.Context, b basicInfo) (Query, error) {
	var info queryInfo
	if err := w.get(ctx, "/v1/query/"+b.QueryID, &info); err != nil {
		return Query{}, err
	}
	q := Query{ID: b.QueryID, State: b.State, SQL: b.Query, Tables: map[string]int64{},
		Input: info.QueryStats.PhysicalInputPositions + info.QueryStats.FailedPhysicalInputPositions}
	plans := map[string]any{}
	var walk func(s *stageInfo)
	walk = func(s *stageInfo) {
		if s == nil {
			return
		}
		var root any
		if json.Unmarshal(s.Plan.Root, &root) == nil {
			plans[s.StageID[strings.LastIndexByte(s.StageID, '.')+1:]] = root
		}
		for _, sub := range s.SubStages {
			walk(sub)
		}
	}
	walk(info.OutputStage)
	var attributed int64
	for _, op := range info.QueryStats.OperatorSummaries {
		if op.PhysicalInputPositions == 0 {
			continue
		}
		node := findNode(plans[fmt.Sprint(op.StageID)], op.PlanNodeID)
		tables := scans(node)
		if len(tables) == 0 {
			continue
		}
		slices.Sort(tables)
		name := strings.Join(slices.Compact(tables), "+")
		q.Tables[name] += op.PhysicalInputPositions
		attributed += op.PhysicalInputPositions
	}
	if rest := q.Input - attributed; rest > 0 {
		q.Tables[Unattributed] = rest
	}
	return q, nil
}

// findNode is the plan node of id under n.
func findNode(n any, id string) any {
	switch v := n.(type) {
	case map[string]any:
		if _, typed := v["@type"]; typed && v["id"] == id {
			return v
		}
		for _, c := range v {
			if f := findNode(c, id); f != nil {
				return f
			}
		}
	case []any:
		for _, c := range v {
			if f := findNode(c, id); f != nil {
				return f
			}
		}
	}
	return nil
}

// scans names the tables the tableScan nodes under n read, as
// schema.table from their connector handles.
func scans(n any) []string {
	var out []string
	switch v := n.(type) {
	case map[string]any:
		if v["@type"] == "tableScan" {
			if t, ok := v["table"].(map[string]any); ok {
				if h, ok := t["connectorHandle"].(map[string]any); ok {
					out = append(out, handleName(h))
				}
			}
		}
		for _, c := range v {
			out = append(out, scans(c)...)
		}
	case []any:
		for _, c := range v {
			out = append(out, scans(c)...)
		}
	}
	return out
}

// handleName reads a table's name from a connector's handle: tpch's
// carries schemaName and tableName, the memory connector's schemaName and
// tableName too; another's is named by its JSON.
func handleName(h map[string]any) string {
	schema, _ := h["schemaName"].(string)
	table, _ := h["tableName"].(string)
	if table != "" {
		if schema == "" {
			return table
		}
		return schema + "." + table
	}
	if st, ok := h["schemaTableName"].(map[string]any); ok {
		return fmt.Sprintf("%v.%v", st["schema"], st["table"])
	}
	b, _ := json.Marshal(h)
	return string(b)
}
