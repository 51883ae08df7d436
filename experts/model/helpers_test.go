package model

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/llm"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/sqlite"
)

// fakeSource is a Source with fixed tables; queries are not expected.
type fakeSource struct{ tables []warehouse.Table }

var _ warehouse.Source = (*fakeSource)(nil)

func (f *fakeSource) Dialect() warehouse.Dialect                                   { return sqlite.Dialect{} }
func (f *fakeSource) Database() string                                             { return "fake" }
func (f *fakeSource) Tables(context.Context) ([]warehouse.Table, error)            { return f.tables, nil }
func (f *fakeSource) RowCount(context.Context, warehouse.TableName) (int64, error) { return 0, nil }

// Query answers only SELECT 1, as the orchestrator's probe asks it.
func (f *fakeSource) Query(_ context.Context, q string, _ warehouse.QueryOptions) (*warehouse.Result, error) {
	if q == "SELECT 1" {
		return &warehouse.Result{Columns: []string{"1"}, Rows: [][]any{{int64(1)}}}, nil
	}
	return nil, errors.New("fake: no queries")
}
func (f *fakeSource) QuoteIdent(s string) string              { return `"` + s + `"` }
func (f *fakeSource) QuoteTable(t warehouse.TableName) string { return `"` + t.Name + `"` }
func (f *fakeSource) Close() error                            { return nil }

// setup opens a fresh catalog with run r1 started.
func setup(t *testing.T) (*catalog.Catalog, catalog.Run) {
	t.Helper()
	ctx := context.Background()
	cat, err := catalog.Open(ctx, filepath.Join(t.TempDir(), "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	run := catalog.Run{ID: "r1", DSN: "fake.db", Dialect: "sqlite", Database: "fake", StartedAt: time.Now().UTC()}
	if err := cat.StartRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	return cat, run
}

// toolModel is a provider answering by tool name (STYLE: a hand-written
// fake with a function field); it keeps every request.
type toolModel struct {
	mu     sync.Mutex
	reqs   []llm.Request
	answer func(tool string, req llm.Request) (any, error)
}

func (f *toolModel) Complete(_ context.Context, req llm.Request) (llm.Response, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	v, err := f.answer(req.Tool.Name, req)
	if err != nil {
		return llm.Response{}, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return llm.Response{}, err
	}
	return llm.Response{Arguments: string(b), TotalTokens: 40}, nil
}

func (f *toolModel) requests(tool string) []llm.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []llm.Request
	for _, r := range f.reqs {
		if r.Tool.Name == tool {
			out = append(out, r)
		}
	}
	return out
}

func names(ts []experts.Task) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}
