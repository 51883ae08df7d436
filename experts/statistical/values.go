package statistical

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// render turns a driver value into the string a profile stores. ok is false
// for NULL.
func render(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", false
	case string:
		return x, true
	case []byte:
		return string(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case int:
		return strconv.Itoa(x), true
	case int32:
		return strconv.FormatInt(int64(x), 10), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32), true
	case bool:
		return strconv.FormatBool(x), true
	case time.Time:
		if x.Nanosecond() != 0 {
			return x.Format("2006-01-02 15:04:05.999999999"), true
		}
		return x.Format("2006-01-02 15:04:05"), true
	default:
		return "", false
	}
}

// toInt converts an aggregate's value to an integer. Engines return counts
// as int64, numeric strings or floats depending on the driver.
func toInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	case int32:
		return int64(x), true
	case float64:
		return int64(x), true
	case string, []byte:
		s, _ := render(x)
		s = strings.TrimSpace(s)
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, true
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return int64(f), true
		}
	}
	return 0, false
}

// toFloat converts an aggregate's value to a float.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x)
	case float32:
		return float64(x), true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case string, []byte:
		s, _ := render(x)
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return f, err == nil && !math.IsNaN(f)
	}
	return 0, false
}

// stddev is the population standard deviation from the mean and the mean of
// squares. E[x²]−E[x]² loses precision when the spread is tiny next to the
// mean, and can even come out negative; such noise is reported as zero.
func stddev(mean, meanSq float64) float64 {
	v := meanSq - mean*mean
	if v <= 1e-12*math.Abs(meanSq) || v < 0 {
		return 0
	}
	return math.Sqrt(v)
}
