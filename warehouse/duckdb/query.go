package duckdb

import (
	"bytes"
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	duck "github.com/duckdb/duckdb-go/v2"

	"github.com/discover-db/discover/warehouse"
)

// Query runs one guarded read-only statement through warehouse.Query:
// Guard first, so nothing the allow-list refuses reaches the engine, and a
// statement that does not parse comes back with DuckDB's message.
func (s *Source) Query(ctx context.Context, q string, opts warehouse.QueryOptions) (*warehouse.Result, error) {
	return warehouse.Query(ctx, s, q, opts)
}

var _ warehouse.Engine = (*Source)(nil)

// Admit is the allow-list in front of Run (warehouse.Engine).
func (s *Source) Admit(ctx context.Context, q string) error { return s.Guard(ctx, q) }

// Limits are the defaults of a statement's bounds (warehouse.Engine).
func (s *Source) Limits() warehouse.Limits {
	return warehouse.Limits{Timeout: DefaultTimeout, MaxRows: DefaultMaxRows}
}

// Run runs an admitted statement, converting its values (warehouse.Engine).
// A timeout interrupts it (DuckDB reports "INTERRUPT Error: Interrupted!",
// which warehouse.Query reports as the timeout it was).
//
// A statement that runs out of memory is run once more alone, when the
// statements beside it have finished and before others start: the memory
// limit is shared by every statement of the process, so a COUNT(DISTINCT)
// that needs most of it fails only while others hold their share.
func (s *Source) Run(ctx context.Context, q string, lim warehouse.Limits) (*warehouse.Result, error) {
	s.alone.RLock()
	res, err := s.query(ctx, q, lim.MaxRows)
	s.alone.RUnlock()
	if outOfMemory(err) && ctx.Err() == nil {
		s.alone.Lock()
		res, err = s.query(ctx, q, lim.MaxRows)
		s.alone.Unlock()
	}
	if err != nil {
		if refused(err) {
			return nil, fmt.Errorf("%w: %w", warehouse.ErrDatabaseRefused, err)
		}
		return nil, err
	}
	return res, nil
}

// outOfMemory reports whether err is DuckDB's out-of-memory error.
func outOfMemory(err error) bool {
	var de *duck.Error
	return errors.As(err, &de) && de.Type == duck.ErrorTypeOutOfMemory
}

func (s *Source) query(ctx context.Context, q string, maxRows int) (*warehouse.Result, error) {
	stmt, wrapped := capped(q, maxRows)
	rows, err := s.db.QueryContext(ctx, stmt)
	if err != nil {
		return nil, err
	}
	res, err := warehouse.ReadRows(rows, maxRows, convert)
	if err != nil || !wrapped || !renamed(res.Columns) {
		return res, err
	}
	names, err := s.columnNames(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("column names: %w", err)
	}
	if len(names) == len(res.Columns) {
		res.Columns = names
	}
	return res, nil
}

// capped puts the row cap into the statement itself when q is a query:
// the driver has DuckDB materialize a whole result before it hands over
// the first row, so a cap applied while reading would never return from a
// result without end (FROM range(1e15)), where DuckDB stops a LIMIT as soon
// as it has its rows. One row past the cap is asked for, to tell a result
// of exactly maxRows from a longer one (warehouse.CapRows). q goes in
// without its trailing semicolons, which a subquery cannot hold. Other
// statements (EXPLAIN, SHOW, DESCRIBE, SUMMARIZE) have results bounded by
// the schema, and run as written.
func capped(q string, maxRows int) (string, bool) {
	toks, err := Grammar.Tokenize(q)
	if err != nil || len(toks) == 0 {
		return q, false
	}
	switch first := toks[0]; {
	case first.IsPunct("("):
	case first.Kind == warehouse.TokenWord && cappable[strings.ToUpper(first.Text)]:
	default:
		return q, false
	}
	end := len(q)
	for i := len(toks) - 1; i >= 0 && toks[i].IsPunct(";"); i-- {
		end = toks[i].Pos
	}
	return warehouse.CapRows(q[:end], maxRows), true
}

// cappable are the first words of statements whose result is a query's,
// and which DuckDB accepts as a subquery.
var cappable = map[string]bool{"SELECT": true, "WITH": true, "FROM": true, "VALUES": true, "TABLE": true, "PIVOT": true, "UNPIVOT": true}

// renamed reports whether DuckDB may have renamed columns: a subquery's
// duplicate names come out of SELECT * as name_1, name_2 (in any case),
// where the statement itself would have given name twice.
func renamed(cols []string) bool {
	seen := make(map[string]bool, len(cols))
	for _, c := range cols {
		seen[strings.ToLower(c)] = true
	}
	for _, c := range cols {
		i := strings.LastIndexByte(c, '_')
		if i <= 0 || i == len(c)-1 || strings.Trim(c[i+1:], "0123456789") != "" {
			continue
		}
		if seen[strings.ToLower(c[:i])] {
			return true
		}
	}
	return false
}

// columnNames are the names q's own result has, read from DuckDB's
// prepared statement, which binds q without running it.
func (s *Source) columnNames(ctx context.Context, q string) ([]string, error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var names []string
	err = conn.Raw(func(dc any) error {
		pc, ok := dc.(driver.ConnPrepareContext)
		if !ok {
			return fmt.Errorf("driver connection %T cannot prepare", dc)
		}
		st, err := pc.PrepareContext(ctx, q)
		if err != nil {
			return err
		}
		defer st.Close()
		ds, ok := st.(*duck.Stmt)
		if !ok {
			return fmt.Errorf("driver statement %T", st)
		}
		n, err := ds.ColumnCount()
		if err != nil {
			return err
		}
		for i := range n {
			name, err := ds.ColumnName(i)
			if err != nil {
				return err
			}
			names = append(names, name)
		}
		return nil
	})
	return names, err
}

// refused reports the errors DuckDB gives when its lock-down stops a
// statement: a write to a read-only database, a file outside the allowed
// ones, a setting after lock_configuration.
func refused(err error) bool {
	var e *duck.Error
	if !errors.As(err, &e) {
		return false
	}
	switch {
	case e.Type == duck.ErrorTypePermission:
		return true
	case strings.Contains(e.Msg, "read-only mode"), strings.Contains(e.Msg, "configuration has been locked"):
		return true
	}
	return false
}

// ctxErr prefers the context's error when the context ended the statement.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}

// Special time values, as duckdb-go decodes them: DuckDB's infinite DATE
// and TIMESTAMP are the extreme values of their storage.
var (
	dateInf     = time.Date(5881580, 7, 11, 0, 0, 0, 0, time.UTC)
	dateNegInf  = time.Date(-5877641, 6, 24, 0, 0, 0, 0, time.UTC)
	stampInf    = time.UnixMicro(math.MaxInt64).UTC()
	stampNegInf = time.UnixMicro(-math.MaxInt64).UTC()
)

// convert turns driver values into the plain values Result promises:
// int64 for every integer type that fits (HUGEINT, UBIGINT beyond it as
// decimal text), float64, string, bool, []byte for BLOB; DECIMAL as its
// exact text; dates and times as text in DuckDB's own format; UUID as
// text; LIST, STRUCT, MAP, UNION and JSON as JSON text; infinite and NaN
// floats as text (JSON, where results end up, has no number for them).
func convert(v any, decl string) any {
	switch x := v.(type) {
	case nil:
		return nil
	case bool, string:
		if decl == "JSON" {
			return jsonText(x)
		}
		return x
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		if x > math.MaxInt64 {
			return strconv.FormatUint(x, 10)
		}
		return int64(x)
	case *big.Int:
		if x.IsInt64() {
			return x.Int64()
		}
		return x.String()
	case float32:
		// Through its shortest decimal form, so FLOAT 1.1 reads 1.1, not
		// 1.100000023841858.
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
		return float(f)
	case float64:
		if decl == "JSON" {
			return jsonText(x)
		}
		return float(x)
	case []byte:
		if decl == "UUID" && len(x) == 16 {
			return uuidText(x)
		}
		return x
	case duck.Decimal:
		return decimalText(x)
	case time.Time:
		return timeText(x, decl)
	case duck.Interval:
		return intervalText(x)
	case []any, map[string]any, duck.OrderedMap, duck.Union:
		return jsonText(x)
	default:
		return fmt.Sprint(v)
	}
}

func float(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return f
}

func uuidText(b []byte) string {
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 36)
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hex[c>>4], hex[c&15])
	}
	return string(out)
}

// decimalText keeps every digit of the scale (12.50 stays 12.50), as
// DuckDB prints it; duckdb-go's Decimal.String trims trailing zeros.
func decimalText(d duck.Decimal) string {
	if d.Value == nil {
		return "0"
	}
	digits := new(big.Int).Abs(d.Value).String()
	scale := int(d.Scale)
	if scale > 0 {
		if len(digits) <= scale {
			digits = strings.Repeat("0", scale-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	if d.Value.Sign() < 0 {
		return "-" + digits
	}
	return digits
}

// timeText writes a date or time as DuckDB casts it to VARCHAR (with the
// time zone always UTC for TIMESTAMPTZ, which duckdb-go hands over in UTC).
func timeText(t time.Time, decl string) string {
	switch decl {
	case "DATE":
		switch {
		case t.Equal(dateInf):
			return "infinity"
		case t.Equal(dateNegInf):
			return "-infinity"
		}
		return t.Format("2006-01-02")
	case "TIME":
		return t.Format("15:04:05.999999")
	case "TIMETZ", "TIME WITH TIME ZONE":
		return t.Format("15:04:05.999999") + offset(t)
	}
	switch {
	case t.Equal(stampInf):
		return "infinity"
	case t.Equal(stampNegInf):
		return "-infinity"
	}
	s := t.Format("2006-01-02 15:04:05.999999999")
	if decl == "TIMESTAMPTZ" || decl == "TIMESTAMP WITH TIME ZONE" {
		s += offset(t)
	}
	return s
}

// offset is a zone offset as DuckDB writes it: +02, or +05:30.
func offset(t time.Time) string {
	_, off := t.Zone()
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	s := fmt.Sprintf("%s%02d", sign, off/3600)
	if m := off % 3600 / 60; m != 0 {
		s += fmt.Sprintf(":%02d", m)
	}
	return s
}

// intervalText writes an interval as DuckDB does: 1 year 2 months 3 days 04:05:06.
func intervalText(iv duck.Interval) string {
	var parts []string
	unit := func(n int64, name string) {
		if n == 0 {
			return
		}
		if n == 1 || n == -1 {
			parts = append(parts, fmt.Sprintf("%d %s", n, name))
		} else {
			parts = append(parts, fmt.Sprintf("%d %ss", n, name))
		}
	}
	unit(int64(iv.Months/12), "year")
	unit(int64(iv.Months%12), "month")
	unit(int64(iv.Days), "day")
	if iv.Micros != 0 || len(parts) == 0 {
		us := iv.Micros
		sign := ""
		if us < 0 {
			sign, us = "-", -us
		}
		s := fmt.Sprintf("%s%02d:%02d:%02d", sign, us/3_600_000_000, us/60_000_000%60, us/1_000_000%60)
		if frac := us % 1_000_000; frac != 0 {
			s += strings.TrimRight(fmt.Sprintf(".%06d", frac), "0")
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// jsonText writes a nested value (LIST, STRUCT, MAP, UNION, JSON) as JSON.
// Map keys keep DuckDB's order; struct fields come sorted, because
// duckdb-go hands a STRUCT over as a Go map and the order is lost there.
func jsonText(v any) string {
	var b bytes.Buffer
	writeJSON(&b, v)
	return b.String()
}

func writeJSON(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		writeString(b, x)
	case []byte:
		if utf8.Valid(x) {
			writeString(b, string(x))
		} else {
			writeString(b, blobText(x))
		}
	case float32:
		writeJSON(b, convert(x, ""))
	case float64:
		if f, ok := float(x).(float64); ok {
			b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
		} else {
			writeString(b, float(x).(string))
		}
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64:
		fmt.Fprint(b, x)
	case *big.Int:
		b.WriteString(x.String())
	case duck.Decimal:
		b.WriteString(decimalText(x))
	case time.Time:
		writeString(b, nestedTime(x))
	case duck.Interval:
		writeString(b, intervalText(x))
	case duck.Union:
		writeJSON(b, x.Value)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeJSON(b, x[k])
		}
		b.WriteByte('}')
	case duck.OrderedMap:
		keys, vals := x.Keys(), x.Values()
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			// JSON keys are strings: a key of any other type is written
			// as the text its JSON form would have.
			if s, ok := k.(string); ok {
				writeString(b, s)
			} else {
				var kb bytes.Buffer
				writeJSON(&kb, k)
				writeString(b, strings.Trim(kb.String(), `"`))
			}
			b.WriteByte(':')
			writeJSON(b, vals[i])
		}
		b.WriteByte('}')
	default:
		writeString(b, fmt.Sprint(x))
	}
}

func writeString(b *bytes.Buffer, s string) {
	out, _ := json.Marshal(s)
	b.Write(out)
}

// nestedTime writes a time found inside a nested value, whose DuckDB type
// is not at hand: a TIME comes on 0001-01-01, a DATE at midnight.
func nestedTime(t time.Time) string {
	switch {
	case t.Year() == 1 && t.YearDay() == 1:
		return timeText(t, "TIME")
	case t.Equal(dateInf), t.Equal(dateNegInf):
		return timeText(t, "DATE")
	case t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0:
		return timeText(t, "DATE")
	}
	return timeText(t, "TIMESTAMP")
}

// blobText escapes bytes as DuckDB prints a BLOB: printable ASCII as is,
// anything else as \xHH.
func blobText(x []byte) string {
	var b strings.Builder
	for _, c := range x {
		if c >= 0x20 && c < 0x7f && c != '\\' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, `\x%02X`, c)
		}
	}
	return b.String()
}
