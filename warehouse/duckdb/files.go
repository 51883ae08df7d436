package duckdb

// A folder, glob or single data file becomes an in-memory database with one
// view per table the files hold. The rules, relative to the root (the
// folder; for a glob, the folder before its first wildcard; for one file,
// its folder):
//
//  1. Data files are *.parquet / *.parq (read_parquet), *.csv / *.tsv
//     (read_csv_auto) and *.json / *.jsonl / *.ndjson (read_json_auto); the
//     text formats may be gzipped (*.csv.gz). Other files are ignored, and
//     so are files and folders whose name starts with "." or "_" (.git,
//     _SUCCESS, _delta_log, Spark's checksum files).
//  2. A file directly in the root is a table of its own, named after its
//     stem: orders.csv → orders.
//  3. Every file below a top-level subfolder belongs to that subfolder's
//     table, however deep: sales/part-0.parquet, sales/year=2024/x.parquet
//     → sales. A folder is a table, as Hive, Spark and most lakes lay them
//     out. Folders named key=value are partitions, not tables: they are
//     skipped when looking for the table's folder (year=2024/sales/x.parquet
//     → sales), and a view over files below one reads with
//     hive_partitioning, so year becomes a column.
//  4. Files below partition folders only (root/year=2024/x.parquet) make
//     the root itself one partitioned table, named after the root.
//  5. A view reading several files reads them with union_by_name, so files
//     whose columns drift (a column added later) still make one table.
//     A table holding files of several formats becomes one view per
//     format, suffixed with it (events_csv, events_json).
//  6. Names are sanitized: lower case, letters, digits and "_" only, a
//     leading digit prefixed with "t_". When names collide (orders.csv
//     beside orders.parquet, or beside an orders/ folder), root files come
//     before folders, then formats in alphabetical order: the first keeps
//     the name, the next gets its format as a suffix (orders_parquet), and
//     a number if that is taken too.
//
// A view lists its files explicitly (not as a glob): the database may open
// exactly those files and nothing else (allowed_paths), and the views show
// the files as they were when the source was opened.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	duck "github.com/duckdb/duckdb-go/v2"

	"github.com/discover-db/discover/warehouse"
)

// formats maps file extensions to the reader format; gzip is read by
// DuckDB itself for the text formats.
var formats = map[string]string{
	".parquet": "parquet", ".parq": "parquet",
	".csv": "csv", ".tsv": "csv",
	".json": "json", ".jsonl": "json", ".ndjson": "json",
}

// readers are the table functions per format.
var readers = map[string]string{
	"parquet": "read_parquet",
	"csv":     "read_csv_auto",
	"json":    "read_json_auto",
}

// formatOf returns the data format of a file name, or "".
func formatOf(name string) string {
	base := strings.ToLower(filepath.Base(name))
	if b, ok := strings.CutSuffix(base, ".gz"); ok {
		if f := formats[path.Ext(b)]; f != "" && f != "parquet" {
			return f
		}
		return ""
	}
	return formats[path.Ext(base)]
}

// stemOf is the file name without its data extensions (orders.csv.gz → orders).
func stemOf(name string) string {
	base := filepath.Base(name)
	if b, ok := strings.CutSuffix(strings.ToLower(base), ".gz"); ok {
		base = base[:len(b)]
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

func isGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

func isHidden(name string) bool { return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") }

// isPartition reports a Hive partition folder name: key=value.
func isPartition(name string) bool {
	k, _, ok := strings.Cut(name, "=")
	return ok && k != ""
}

// view is one table of a files source.
type view struct {
	name   string
	format string
	files  []string // absolute, sorted
	hive   bool
	// group orders views for naming: root files, then folders.
	group string
}

// openFiles opens an in-memory database whose views read the data files
// path names (a folder, a glob, or one data file).
func openFiles(ctx context.Context, p string) (*Source, error) {
	root, files, err := collect(p)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(root)
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
		name = stemOf(p)
	}
	if len(files) == 0 {
		return nil, warehouse.BadInputf("duckdb: open %s: no Parquet, CSV or JSON files", p)
	}
	views := plan(root, files)

	sp, err := acquireSpill("")
	if err != nil {
		return nil, fmt.Errorf("duckdb: open %s: %w", p, err)
	}
	conn, err := duck.NewConnector("?"+baseConfig(false), nil)
	if err != nil {
		sp.release()
		return nil, fmt.Errorf("duckdb: open %s: %w", p, err)
	}
	db := sql.OpenDB(settling{conn})
	db.SetMaxIdleConns(4)
	fail := func(err error) (*Source, error) {
		db.Close()
		sp.release()
		return nil, err
	}

	skipped, allowed, err := createViews(ctx, db, views)
	if err != nil {
		return fail(fmt.Errorf("duckdb: open %s: %w", p, err))
	}
	if len(allowed) == 0 {
		reasons := make([]string, len(skipped))
		for i, s := range skipped {
			reasons[i] = s.Table.Name + ": " + s.Reason
		}
		return fail(warehouse.BadInputf("duckdb: open %s: no readable data files (%s)", p, strings.Join(reasons, "; ")))
	}
	if err := lockDown(ctx, db, sp.dir, true, allowed); err != nil {
		return fail(fmt.Errorf("duckdb: open %s: %w", p, err))
	}
	if err := verify(ctx, db, false); err != nil {
		return fail(fmt.Errorf("duckdb: open %s: %w", p, err))
	}
	sf := make(map[string][]string, len(views))
	for _, v := range views {
		sf[v.name] = v.files
	}
	return &Source{db: db, name: name, skipped: skipped, release: sp.release, files: true, signalFiles: sf}, nil
}

// collect finds the data files p names and the root the naming rules
// start from.
func collect(p string) (root string, files []string, err error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", nil, fmt.Errorf("duckdb: open %s: %w", p, err)
	}
	if fi, err := os.Stat(abs); err == nil {
		if !fi.IsDir() {
			return filepath.Dir(abs), []string{abs}, nil
		}
		files, err := walk(abs, nil)
		if err != nil {
			return "", nil, fmt.Errorf("duckdb: open %s: %w", p, err)
		}
		return abs, files, nil
	}
	// The root of a glob is the folder before its first wildcard segment.
	segs := strings.Split(filepath.ToSlash(abs), "/")
	i := slices.IndexFunc(segs, isGlob)
	root = filepath.FromSlash(strings.Join(segs[:i], "/"))
	if root == "" {
		root = string(filepath.Separator)
	}
	pattern := segs[i:]
	for _, s := range pattern {
		if _, err := path.Match(s, ""); err != nil {
			return "", nil, warehouse.BadInputf("duckdb: open %s: bad glob pattern: %v", p, err)
		}
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return "", nil, warehouse.BadInputf("duckdb: open %s: no such folder %s", p, root)
	}
	files, err = walk(root, pattern)
	if err != nil {
		return "", nil, fmt.Errorf("duckdb: open %s: %w", p, err)
	}
	if len(files) == 0 {
		return "", nil, warehouse.BadInputf("duckdb: open %s: no Parquet, CSV or JSON files match", p)
	}
	return root, files, nil
}

// walk lists the data files below root, sorted, that match pattern (glob
// segments relative to root, "**" for any number of folders; nil for all).
// Folders it may not read are passed over: the files it can read still
// make a source.
func walk(root string, pattern []string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p == root {
			return nil
		}
		if isHidden(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || formatOf(p) == "" {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			// A link to a data file counts; one to a folder is not
			// followed (it could loop).
			if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if pattern == nil || matchGlob(pattern, strings.Split(filepath.ToSlash(rel), "/")) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return nil, warehouse.BadInputf("permission denied")
		}
		return nil, err
	}
	slices.Sort(files)
	return files, nil
}

// matchGlob matches path segments against pattern segments, "**" standing
// for any number of segments (DuckDB's glob syntax).
func matchGlob(pattern, segs []string) bool {
	if len(pattern) == 0 {
		return len(segs) == 0
	}
	if pattern[0] == "**" {
		for i := 0; i <= len(segs); i++ {
			if matchGlob(pattern[1:], segs[i:]) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return false
	}
	ok, _ := path.Match(pattern[0], segs[0])
	return ok && matchGlob(pattern[1:], segs[1:])
}

// plan groups files into views by the rules at the top of this file.
func plan(root string, files []string) []view {
	type key struct{ group, name, format string }
	byKey := map[key]*view{}
	var order []key
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		segs := strings.Split(filepath.ToSlash(rel), "/")
		dirs := segs[:len(segs)-1]
		hive := slices.ContainsFunc(dirs, isPartition)
		k := key{format: formatOf(f)}
		switch i := slices.IndexFunc(dirs, func(s string) bool { return !isPartition(s) }); {
		case len(dirs) == 0:
			k.group, k.name = "file", stemOf(f)
		case i < 0:
			k.group, k.name = "root", filepath.Base(root)
		default:
			k.group, k.name = "folder", dirs[i]
		}
		v, ok := byKey[k]
		if !ok {
			v = &view{format: k.format, group: k.group, name: k.name}
			byKey[k] = v
			order = append(order, k)
		}
		v.files = append(v.files, f)
		v.hive = v.hive || hive
	}
	// A table whose files come in several formats: one view per format.
	formatsOf := map[[2]string]int{}
	for _, k := range order {
		formatsOf[[2]string{k.group, k.name}]++
	}
	views := make([]view, 0, len(order))
	for _, k := range order {
		v := *byKey[k]
		v.name = sanitize(v.name)
		if formatsOf[[2]string{k.group, k.name}] > 1 {
			v.name += "_" + v.format
		}
		views = append(views, v)
	}
	// Deterministic names: root files first, then folders, each by name
	// and format; a later view that collides gets a suffix.
	rank := map[string]int{"file": 0, "root": 1, "folder": 2}
	slices.SortStableFunc(views, func(a, b view) int {
		if c := rank[a.group] - rank[b.group]; c != 0 {
			return c
		}
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return strings.Compare(a.format, b.format)
	})
	taken := map[string]bool{}
	for i := range views {
		v := &views[i]
		name := v.name
		if taken[name] {
			name = v.name + "_" + v.format
		}
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s_%d", v.name, n)
		}
		v.name = name
		taken[name] = true
	}
	return views
}

// sanitize makes a view name that needs no quoting in most SQL a model or
// a person would write.
func sanitize(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			under = false
		} else if !under {
			b.WriteByte('_')
			under = true
		}
	}
	out := strings.Trim(b.String(), "_")
	switch {
	case out == "":
		return "data"
	case unicode.IsDigit(rune(out[0])):
		return "t_" + out
	}
	return out
}

// viewSQL is the CREATE VIEW statement for v. hive_partitioning is always
// spelled out: left to DuckDB's detection, a key=value folder above the
// root (say /data/env=prod/) would add a column to every view.
func viewSQL(v view) string {
	quoted := make([]string, len(v.files))
	for i, f := range v.files {
		quoted[i] = quoteString(f)
	}
	src := quoted[0]
	opts := fmt.Sprintf(", hive_partitioning = %t", v.hive)
	if len(quoted) > 1 {
		src = "[" + strings.Join(quoted, ", ") + "]"
		opts += ", union_by_name = true"
	}
	return fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM %s(%s%s)", QuoteIdent(v.name), readers[v.format], src, opts)
}

// createViews creates the views on the fresh in-memory database, before
// any lock-down (DuckDB reads the files to learn their columns). A view
// whose files DuckDB cannot read is skipped and reported, not fatal. It
// returns the files of the views that were made: the only files the
// database may open from then on.
func createViews(ctx context.Context, db *sql.DB, views []view) ([]warehouse.Skipped, []string, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	var skipped []warehouse.Skipped
	var allowed []string
	for _, v := range views {
		if _, err := conn.ExecContext(ctx, viewSQL(v)); err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			reason := err.Error()
			if i := strings.IndexByte(reason, '\n'); i >= 0 {
				reason = reason[:i]
			}
			skipped = append(skipped, warehouse.Skipped{
				Table:  warehouse.TableName{Name: v.name},
				Kind:   "table",
				Reason: fmt.Sprintf("%d %s file(s) could not be read: %s", len(v.files), v.format, reason),
			})
			continue
		}
		allowed = append(allowed, v.files...)
	}
	return skipped, allowed, nil
}
