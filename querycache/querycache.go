// Package querycache keeps the results of the experts' own statements, so
// that a re-run in which some tables changed sends again only the
// statements that read those (issue 20: "one changed table redoes that
// table and what depends on it only"). A statement's result is kept under
// a key that hashes its text, its row bound, and the change signals
// (package incremental's basis) of every table whose name it contains as
// an identifier; a later run whose signals for those tables are the same
// finds it. Names are matched as words of the statement, so a statement
// is tied to every table it could read, and to some it does not (a column
// or keyword spelled like a table), which only costs a hit.
//
// Not kept: statements that name no table of the basis or one without a
// signal, statements that read the clock (now(), current_date, SQLite's
// 'now' …), failed statements, and results holding a value of a type the
// encoding does not carry exactly.
package querycache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/warehouse"
)

// Cache serves and keeps one run's results. Its methods are safe for
// concurrent use; a nil *Cache keeps nothing.
type Cache struct {
	cat     *catalog.Catalog
	runID   string
	grammar *warehouse.Grammar
	scope   string
	// signals holds, per table name folded to lower case (schema left
	// out), the signals of the tables of that name, joined.
	signals map[string]string
	lookup  bool
	// build is discover's (the basis'): figures discover counted itself
	// are keyed by it (LookupFigures).
	build string

	// reads holds, per key Key gave, the words of its statement (Reads),
	// which Keep writes beside the result; a key served or kept is
	// forgotten (a statement that failed leaves its words).
	reads sync.Map

	hits atomic.Int64
}

// New returns the cache of run runID over the tables of basis, whose
// statements grammar lexes; scope names the database (its DSN), so that
// two databases' results never meet. With lookup false (--full) results
// are kept for the next run but none is served. It returns nil, no cache,
// when the tables share one engine signal (basis.Shared: a SQLite or
// DuckDB database file) and the run took no content signals, since a
// change anywhere moves them all and no kept result could ever serve.
// Content signals, where the run took them, key the results instead.
func New(cat *catalog.Catalog, runID string, grammar *warehouse.Grammar, scope string, basis *catalog.RunBasis, lookup bool) *Cache {
	tables := basis.Tables
	switch {
	case basis.Content != nil:
		tables = basis.Content
	case basis.Shared:
		return nil
	}
	byName := map[string][]string{}
	for name, sig := range tables {
		bare := name
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			bare = name[i+1:]
		}
		bare = strings.ToLower(bare)
		if sig == "" {
			byName[bare] = append(byName[bare], "")
			continue
		}
		byName[bare] = append(byName[bare], name+"="+sig)
	}
	signals := make(map[string]string, len(byName))
	for bare, sigs := range byName {
		if slices.Contains(sigs, "") {
			signals[bare] = ""
			continue
		}
		slices.Sort(sigs)
		signals[bare] = strings.Join(sigs, "\n")
	}
	return &Cache{cat: cat, runID: runID, grammar: grammar, scope: scope, signals: signals, lookup: lookup, build: basis.Build}
}

// clock holds the words of functions and values that read the clock: a
// statement naming one gives another result tomorrow on the same data.
var clock = map[string]bool{
	"now": true, "current_date": true, "current_time": true, "current_timestamp": true,
	"localtime": true, "localtimestamp": true, "sysdate": true, "curdate": true, "curtime": true,
	"utc_date": true, "utc_time": true, "utc_timestamp": true, "getdate": true, "today": true,
	"transaction_timestamp": true, "statement_timestamp": true, "clock_timestamp": true,
	"timeofday": true, "unix_timestamp": true, "get_current_time": true, "current_localtimestamp": true,
}

// Key is the key of sql's result read with at most maxRows rows, and
// whether it may be kept at all.
func (c *Cache) Key(sql string, maxRows int) (string, bool) {
	if c == nil {
		return "", false
	}
	toks, err := c.grammar.Tokenize(sql)
	if err != nil {
		return "", false
	}
	var names, words []string
	for i, t := range toks {
		switch t.Kind {
		case warehouse.TokenWord, warehouse.TokenQuotedIdent:
			w := strings.ToLower(t.Ident())
			if t.Kind == warehouse.TokenWord && clock[w] {
				return "", false
			}
			if _, ok := c.signals[w]; ok {
				names = append(names, w)
			}
			words = append(words, w)
		case warehouse.TokenString:
			// A string reads the clock as an argument: SQLite's
			// date('now'), strftime('%s', 'now', 'localtime').
			if v := strings.ToLower(strings.Trim(t.Text, `'"`)); v == "now" || v == "localtime" {
				return "", false
			}
		case warehouse.TokenPunct:
			if t.Text == "*" && !countStar(toks, i) {
				words = append(words, "*")
			}
		}
	}
	if len(names) == 0 {
		return "", false
	}
	slices.Sort(names)
	names = slices.Compact(names)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%s\x00", c.scope, maxRows, sql)
	for _, n := range names {
		sig := c.signals[n]
		if sig == "" {
			return "", false
		}
		fmt.Fprintf(h, "%s\x00%s\x00", n, sig)
	}
	key := hex.EncodeToString(h.Sum(nil))
	slices.Sort(words)
	c.reads.Store(key, slices.Compact(words))
	return key, true
}

// countStar says whether the * at toks[i] is count(*)'s, which reads no
// column.
func countStar(toks []warehouse.Token, i int) bool {
	return i >= 2 && i+1 < len(toks) && toks[i-1].Text == "(" && toks[i+1].Text == ")" &&
		strings.EqualFold(toks[i-2].Ident(), "count")
}

// LookupFigures is Lookup for figures discover counted itself in place of
// the statement what (a streamed read standing for it): their key holds
// discover's build as well as the statement and its tables' signals,
// since another build may count them otherwise, where a statement's
// result is the engine's.
func (c *Cache) LookupFigures(ctx context.Context, what string) (res *warehouse.Result, key string, hit bool, err error) {
	return c.Lookup(ctx, "/* figures of discover build "+c.build+" */ "+what, 0, 0)
}

// Lookup returns sql's kept answer when there is one: its result, or the
// timeout it met (err, wrapping context.DeadlineExceeded) when it timed
// out under a query timeout at least as long as timeout. Otherwise it
// returns the key to keep this run's answer under ("" when it may not be
// kept).
func (c *Cache) Lookup(ctx context.Context, sql string, maxRows int, timeout time.Duration) (res *warehouse.Result, key string, hit bool, err error) {
	key, ok := c.Key(sql, maxRows)
	if !ok {
		return nil, "", false, nil
	}
	if !c.lookup {
		return nil, key, false, nil
	}
	b, rerr := c.cat.Result(ctx, key)
	if rerr != nil {
		return nil, key, false, nil // not kept, or unreadable: the statement is sent
	}
	res, err = Decode(b)
	var to *timedOut
	switch {
	case errors.As(err, &to):
		if timeout <= 0 || timeout > to.after {
			return nil, key, false, nil // more time may be enough
		}
	case err != nil:
		return nil, key, false, nil
	}
	c.reads.Delete(key) // served: nothing is kept for it
	// Marked as this run's, so that pruning at its end keeps it.
	if c.cat.KeepResult(ctx, key, c.runID, nil) != nil {
		return nil, key, false, nil
	}
	c.hits.Add(1)
	return res, key, true, err
}

// Keep keeps a statement's answer under key (from Lookup): its result, or,
// when err is its own timeout (the statement's, not the run's: the caller
// knows), that it timed out after timeout, so that a re-run on the same
// tables does not wait for it again. Other failures are not kept. A
// result that cannot be encoded exactly is not kept; a catalog that fails
// to write says so through its WriteErr, which the run checks.
func (c *Cache) Keep(ctx context.Context, key string, res *warehouse.Result, err error, timeout time.Duration) {
	if c == nil || key == "" {
		return
	}
	words, _ := c.reads.LoadAndDelete(key)
	ws, _ := words.([]string)
	var b []byte
	switch {
	case err == nil && res != nil:
		var eerr error
		if b, eerr = encode(res, ws); eerr != nil {
			return
		}
	case errors.Is(err, context.DeadlineExceeded) && timeout > 0:
		b = encodeTimeout(err, timeout)
	default:
		return
	}
	_ = c.cat.KeepResult(ctx, key, c.runID, b)
}

// Hits is how many statements the cache answered in this run.
func (c *Cache) Hits() int64 {
	if c == nil {
		return 0
	}
	return c.hits.Load()
}

// Prune drops the results this run did not use (Catalog.PruneResults).
func (c *Cache) Prune(ctx context.Context) error {
	if c == nil {
		return nil
	}
	_, err := c.cat.PruneResults(ctx, c.runID)
	return err
}
