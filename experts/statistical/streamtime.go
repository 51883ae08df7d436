package statistical

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// civil is a calendar date.
type civil struct{ year, month, day int }

func (c civil) after(d civil) bool {
	if c.year != d.year {
		return c.year > d.year
	}
	if c.month != d.month {
		return c.month > d.month
	}
	return c.day > d.day
}

// stamp is a date and hour as the streaming engine's date functions read
// them (in UTC).
type stamp struct {
	civil
	hour int
}

// dow is strftime's %w: 0 for Sunday.
func (s stamp) dow() int {
	// Sakamoto's method.
	t := [12]int{0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4}
	y := s.year
	if s.month < 3 {
		y--
	}
	d := (y + y/4 - y/100 + y/400 + t[s.month-1] + s.day) % 7
	if d < 0 {
		d += 7
	}
	return d
}

func fromTime(t time.Time) stamp {
	t = t.UTC()
	return stamp{civil{t.Year(), int(t.Month()), t.Day()}, t.Hour()}
}

// sqliteTime reads a value as strftime(…, v, 'auto') does: ISO-8601 text
// (with an offset converted to UTC), or a number that is a Julian day
// below 5373484.5 and Unix seconds above.
func sqliteTime(v any) (stamp, bool) {
	switch x := v.(type) {
	case string:
		if st, ok := isoStamp(x); ok {
			return st, true
		}
		if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
			return numberStamp(f)
		}
		if t, ok := parseDate(x); ok {
			return fromTime(t), true
		}
	case int64:
		return numberStamp(float64(x))
	case float64:
		return numberStamp(x)
	}
	return stamp{}, false
}

func numberStamp(f float64) (stamp, bool) {
	var unix float64
	switch {
	case math.IsNaN(f):
		return stamp{}, false
	case f >= 0 && f < 5373484.5:
		unix = (f - 2440587.5) * 86400
	case f >= -210866760000 && f <= 253402300799:
		unix = f
	default:
		return stamp{}, false
	}
	sec := math.Floor(unix)
	return fromTime(time.Unix(int64(sec), int64((unix-sec)*1e9))), true
}

// looksDate reports whether text reads as an ISO-8601 date.
func looksDate(s string) bool {
	_, ok := isoStamp(s)
	return ok
}

// isoStamp is the fast path for YYYY-MM-DD[( |T)HH:MM[:SS[.fff]]][Z]; text
// with an offset or other forms goes through time.Parse.
func isoStamp(s string) (stamp, bool) {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return stamp{}, false
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > 31 {
		return stamp{}, false
	}
	st := stamp{civil: civil{y, m, d}}
	rest := s[10:]
	if rest == "" {
		return normalize(st), true
	}
	if (rest[0] != ' ' && rest[0] != 'T') || len(rest) < 6 || rest[3] != ':' {
		return stamp{}, false
	}
	h, ok := digits(rest[1:3])
	if !ok || h > 24 {
		return stamp{}, false
	}
	if _, ok := digits(rest[4:6]); !ok {
		return stamp{}, false
	}
	st.hour = h
	tail := rest[6:]
	if len(tail) >= 3 && tail[0] == ':' {
		if _, ok := digits(tail[1:3]); !ok {
			return stamp{}, false
		}
		tail = tail[3:]
		if len(tail) > 0 && tail[0] == '.' {
			i := 1
			for i < len(tail) && tail[i] >= '0' && tail[i] <= '9' {
				i++
			}
			tail = tail[i:]
		}
	}
	switch strings.TrimSpace(tail) {
	case "", "Z", "z":
		return normalize(st), true
	}
	if t, ok := parseDate(s); ok {
		return fromTime(t), true
	}
	return stamp{}, false
}

// normalize carries days past the month's end as the streaming engine does
// (2023-02-30 is March 2) and hour 24 into the next day.
func normalize(st stamp) stamp {
	if st.day <= 28 && st.hour < 24 {
		return st
	}
	return fromTime(time.Date(st.year, time.Month(st.month), st.day, st.hour, 0, 0, 0, time.UTC))
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// castText is CAST(v AS TEXT) on the streaming engine: what the
// frequent-values and examples queries return for a value. Reals differ from
// render: the engine writes 15 significant digits when they read back as the
// same number, else 17; positionally for exponents -4..16, else as 1.0e+20;
// and always with a fractional part.
func castText(v any) string {
	f, ok := v.(float64)
	if !ok {
		s, _ := render(v)
		return s
	}
	switch {
	case f == 0:
		return "0.0"
	case math.IsInf(f, 1):
		return "Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	case math.IsNaN(f):
		return ""
	}
	e := strconv.FormatFloat(f, 'e', 14, 64)
	if g, err := strconv.ParseFloat(e, 64); err != nil || g != f {
		e = strconv.FormatFloat(f, 'e', 16, 64)
	}
	mant, exps, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(exps)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	if digits == "" {
		digits = "0"
	}
	var out string
	if exp >= -4 && exp <= 16 {
		if exp >= 0 {
			for len(digits) < exp+1 {
				digits += "0"
			}
			out = digits[:exp+1] + "." + digits[exp+1:]
		} else {
			out = "0." + strings.Repeat("0", -exp-1) + digits
		}
		if strings.HasSuffix(out, ".") {
			out += "0"
		}
	} else {
		frac := digits[1:]
		if frac == "" {
			frac = "0"
		}
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		out = fmt.Sprintf("%s.%se%s%02d", digits[:1], frac, sign, exp)
	}
	if neg {
		out = "-" + out
	}
	return out
}
