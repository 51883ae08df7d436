package postgres

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"
)

// ValueText is CAST(v AS TEXT) for a value Stream handed over, where the
// server writes it otherwise than SQLite (the streaming profile's default):
// a double as the shortest digits that read back as the same number,
// positionally for decimal exponents -4 to 14 and as 1e+20 beyond
// (float8out, with the extra_float_digits the connection sets), and bytea
// as \x and hex digits (bytea_output hex). A NUMERIC that decodeStream made
// a number is written with its declared scale (NUMERIC(12,2): 19000.00);
// without one, as the shortest number (1.50 as 1.5, where the server keeps
// each value's own scale).
func (d Dialect) ValueText(v any, typ string) (string, bool) {
	if s, ok := d.NumberText(v, typ); ok {
		return s, true
	}
	switch x := v.(type) {
	case float64:
		e := strconv.FormatFloat(x, 'e', -1, 64)
		_, exp, _ := strings.Cut(e, "e")
		if n, err := strconv.Atoi(exp); err == nil && n >= -4 && n < 15 {
			return strconv.FormatFloat(x, 'f', -1, 64), true
		}
		return e, true
	case []byte:
		return `\x` + hex.EncodeToString(x), true
	}
	return "", false
}

// ValueTime reads a date, timestamp or timestamptz as Stream hands it over
// (ISO DateStyle) the way CAST(v AS TIMESTAMP) does: the wall-clock time
// in the session's time zone, which is the time the server wrote before
// the zone's offset. Infinity and dates before Christ are no time of the
// calendar.
func (Dialect) ValueTime(v any) (time.Time, bool) {
	s, ok := v.(string)
	if !ok || len(s) < 10 || strings.HasSuffix(s, " BC") {
		return time.Time{}, false
	}
	if len(s) > 19 {
		if i := strings.LastIndexAny(s[19:], "+-"); i >= 0 {
			s = s[:19+i]
		}
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// NumberText is NUMERIC(p,s)'s text of a number the streamed rows made of
// it, as MIN and MAX hand it over (decode leaves NUMERIC as text): with the
// column's scale. Any other number is handed over as a number.
func (Dialect) NumberText(v any, typ string) (string, bool) {
	scale, ok := numericScale(typ)
	if !ok {
		return "", false
	}
	switch x := v.(type) {
	case int64:
		s := strconv.FormatInt(x, 10)
		if scale > 0 {
			s += "." + strings.Repeat("0", scale)
		}
		return s, true
	case float64:
		return strconv.FormatFloat(x, 'f', scale, 64), true
	}
	return "", false
}

// numericScale is the scale a NUMERIC(p,s) or DECIMAL(p,s) column's
// values are written with.
func numericScale(typ string) (int, bool) {
	t := strings.ToLower(strings.TrimSpace(typ))
	if !strings.HasPrefix(t, "numeric(") && !strings.HasPrefix(t, "decimal(") {
		return 0, false
	}
	_, args, _ := strings.Cut(strings.TrimSuffix(t, ")"), "(")
	_, scale, ok := strings.Cut(args, ",")
	if !ok {
		return 0, true // NUMERIC(p): scale 0
	}
	n, err := strconv.Atoi(strings.TrimSpace(scale))
	return n, err == nil && n >= 0 && n <= 1000
}

// Quantile is percentile_cont(p) over sorted (Quantiles): interpolated
// between the values around p·(n−1).
func (Dialect) Quantile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	pos := math.Max(0, math.Min(1, p)) * float64(n-1)
	lo := int(pos)
	if lo+1 >= n {
		return sorted[n-1]
	}
	return sorted[lo] + (pos-float64(lo))*(sorted[lo+1]-sorted[lo])
}
