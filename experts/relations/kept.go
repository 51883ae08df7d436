package relations

// Figures of streamed reads kept for the next run. A streamed read stands
// for a statement (a column's sketch for its SELECT DISTINCT, a check's
// five figures for its inclusion SQL), so the statement cache, which
// answers statements sent, never answers it: a re-run after one table
// changed read every fact table's key columns again. Here the figures are
// kept under the statement they stand for, behind a comment naming the
// streamed way (which keeps them apart from that statement's own result),
// and a re-run whose tables did not change takes them instead of reading.

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/warehouse"
)

const (
	keptSketch = "/* streamed sketch */ "
	keptCheck  = "/* streamed check */ "
)

// keptSketchDoc is a sketch as kept: nil Values and Usable false for a
// column that has none.
type keptSketchDoc struct {
	Usable bool        `json:"usable"`
	Tau    uint64      `json:"tau"`
	Values [][3]string `json:"values"` // hash, number, is-number
}

func encodeSketch(s *sketch) *warehouse.Result {
	doc := keptSketchDoc{Usable: s != nil}
	if s != nil {
		doc.Tau = s.tau
		for _, v := range s.values {
			doc.Values = append(doc.Values, [3]string{fmt.Sprint(v.hash), fmt.Sprint(v.num), fmt.Sprint(v.isNum)})
		}
	}
	b, _ := json.Marshal(doc)
	return &warehouse.Result{Columns: []string{"sketch"}, Rows: [][]any{{string(b)}}}
}

// decodeSketch reads a kept sketch; ok is false for a result that is none.
func decodeSketch(res *warehouse.Result) (s *sketch, ok bool) {
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 {
		return nil, false
	}
	text, isText := res.Rows[0][0].(string)
	var doc keptSketchDoc
	if !isText || json.Unmarshal([]byte(text), &doc) != nil {
		return nil, false
	}
	if !doc.Usable {
		return nil, true
	}
	s = &sketch{tau: doc.Tau, has: make(map[uint64]bool, len(doc.Values))}
	for _, v := range doc.Values {
		var sv sketchValue
		if _, err := fmt.Sscan(v[0], &sv.hash); err != nil {
			return nil, false
		}
		if _, err := fmt.Sscan(v[1], &sv.num); err != nil {
			return nil, false
		}
		sv.isNum = v[2] == "true"
		s.values = append(s.values, sv)
		s.has[sv.hash] = true
	}
	return s, true
}

// inclusionResult is a streamed check's figures as its SQL gives them.
func inclusionResult(in Inclusion) *warehouse.Result {
	return &warehouse.Result{
		Columns: []string{"child_distinct", "orphan_distinct", "non_null", "orphan_rows", "max_children"},
		Rows:    [][]any{{in.ChildDistinct, in.OrphanDistinct, in.NonNull, in.OrphanRows, in.MaxChildren}},
	}
}

// keptFigures are a streamed check's figures as an earlier run kept them
// (hit), or the key to keep them under once counted.
type keptFigures struct {
	in  Inclusion
	key string
	hit bool
}

// keptInclusion returns the figures a run kept for the streamed check of
// c, whose statement is sql, looked up by skipKept or now.
func (sc *streamChecks) keptInclusion(ctx context.Context, env *experts.Env, c Candidate, sql string, cs experts.Scope) keptFigures {
	if sc == nil {
		return keptFigures{} // nothing is streamed, so nothing was kept
	}
	sc.keptMu.Lock()
	f, ok := sc.kept[c.Key()]
	sc.keptMu.Unlock()
	if ok {
		return f
	}
	res, key, hit := env.Kept(ctx, keptCheck+sql)
	if !hit || len(res.Rows) != 1 {
		return keptFigures{key: key}
	}
	return keptFigures{in: inclusionOf(res, cs), key: key, hit: true}
}

// skipKept looks up, before child table's checks, the kept figures of its
// candidates' streamed checks (groups: a column's candidates each), and
// leaves out of the table's read the columns none of whose checks needs
// it: on a re-run after one dimension changed, a fact table's read is
// then of the columns that reference it, not of all its keys. Only the
// table's worker calls it, before its checks.
func (sc *streamChecks) skipKept(ctx context.Context, env *experts.Env, tables map[string]warehouse.Table, table string, groups [][]Candidate) error {
	if sc == nil || len(sc.want[table]) == 0 {
		return nil
	}
	for _, group := range groups {
		needed := false
		for _, c := range group {
			sql, cs, ps, _, err := checkStatement(ctx, env, tables, c)
			if err != nil {
				return err
			}
			if sql == "" || !sc.streamable(c, cs, ps) {
				continue
			}
			f := sc.keptInclusion(ctx, env, c, sql, cs)
			sc.keptMu.Lock()
			sc.kept[c.Key()] = f
			sc.keptMu.Unlock()
			if !f.hit {
				needed = true
			}
		}
		if !needed && len(group) > 0 {
			delete(sc.want[table], group[0].Child.Name)
		}
	}
	return nil
}
