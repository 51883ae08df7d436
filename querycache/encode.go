package querycache

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/discover-db/discover/warehouse"
)

var errType = errors.New("querycache: a value of a type the encoding does not carry")

// itoa is for the encoding's integers.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// encoded is a Result as kept: each value a pair of a type tag and its text,
// so that a result read back holds the very Go values the engine gave (an
// int64 stays an int64, a NaN a NaN, invalid UTF-8 its bytes), and the
// experts compute the same figures from it.
type encoded struct {
	// Timeout is set, with Error, for a statement that timed out after
	// that long (a time.Duration's text) instead of giving a result.
	Timeout        string        `json:"timeout,omitempty"`
	Error          string        `json:"error,omitempty"`
	Columns        []string      `json:"c"`
	Rows           [][][2]string `json:"r"`
	Truncated      bool          `json:"t,omitempty"`
	BytesTruncated bool          `json:"bt,omitempty"`
	// Reads are the words of the statement (Reads).
	Reads []string `json:"w,omitempty"`
}

// Encode writes res in the cache's form; a value of a type it does not
// carry is an error (the result is then not kept).
func Encode(res *warehouse.Result) ([]byte, error) { return encode(res, nil) }

// encode is Encode with the words of the statement that gave res.
func encode(res *warehouse.Result, reads []string) ([]byte, error) {
	e := encoded{Columns: res.Columns, Rows: make([][][2]string, len(res.Rows)),
		Truncated: res.Truncated, BytesTruncated: res.BytesTruncated, Reads: reads}
	for i, row := range res.Rows {
		out := make([][2]string, len(row))
		for j, v := range row {
			tag, text, err := encodeValue(v)
			if err != nil {
				return nil, err
			}
			out[j] = [2]string{tag, text}
		}
		e.Rows[i] = out
	}
	return json.Marshal(e)
}

func encodeValue(v any) (tag, text string, err error) {
	switch x := v.(type) {
	case nil:
		return "n", "", nil
	case int64:
		return "i", itoa(x), nil
	case int:
		return "int", itoa(int64(x)), nil
	case int32:
		return "i32", itoa(int64(x)), nil
	case uint64:
		return "u", strconv.FormatUint(x, 10), nil
	case float64:
		return "f", strconv.FormatFloat(x, 'g', -1, 64), nil
	case bool:
		return "b", strconv.FormatBool(x), nil
	case string:
		if utf8.ValidString(x) {
			return "s", x, nil
		}
		return "S", base64.StdEncoding.EncodeToString([]byte(x)), nil
	case []byte:
		return "x", base64.StdEncoding.EncodeToString(x), nil
	case time.Time:
		switch x.Location() {
		case time.UTC:
			return "tu", x.Format(time.RFC3339Nano), nil
		case time.Local:
			return "tl", x.Format(time.RFC3339Nano), nil
		}
	}
	return "", "", fmt.Errorf("%w: %T", errType, v)
}

// timedOut is a kept timeout: the statement's error as it was, which
// still matches context.DeadlineExceeded.
type timedOut struct {
	msg   string
	after time.Duration
}

func (e *timedOut) Error() string { return e.msg }
func (e *timedOut) Unwrap() error { return context.DeadlineExceeded }

func encodeTimeout(err error, after time.Duration) []byte {
	b, _ := json.Marshal(encoded{Timeout: after.String(), Error: err.Error()})
	return b
}

// Reads returns the words of the statement whose result b keeps: its
// identifiers folded to lower case, and "*" when it selects every column
// somewhere (count(*) aside), so that a result can be told to read a
// column by name (package redact drops the kept results of statements
// that read a personal-data column). A kept timeout holds no value: no
// words, ok. ok is false when b says nothing of its statement (a result
// kept by an earlier build).
func Reads(b []byte) (words []string, ok bool) {
	var e struct {
		Timeout string   `json:"timeout"`
		Reads   []string `json:"w"`
	}
	switch {
	case json.Unmarshal(b, &e) != nil:
		return nil, false
	case e.Timeout != "":
		return nil, true
	}
	return e.Reads, e.Reads != nil
}

// Decode reads a result Encode wrote; for a kept timeout it returns the
// error (a *timedOut) and no result.
func Decode(b []byte) (*warehouse.Result, error) {
	var e encoded
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("querycache: decode: %w", err)
	}
	if e.Timeout != "" {
		after, err := time.ParseDuration(e.Timeout)
		if err != nil {
			return nil, fmt.Errorf("querycache: decode: %w", err)
		}
		return nil, &timedOut{msg: e.Error, after: after}
	}
	res := &warehouse.Result{Columns: e.Columns, Rows: make([][]any, len(e.Rows)),
		Truncated: e.Truncated, BytesTruncated: e.BytesTruncated}
	if res.Columns == nil {
		res.Columns = []string{}
	}
	for i, row := range e.Rows {
		out := make([]any, len(row))
		for j, p := range row {
			v, err := decodeValue(p[0], p[1])
			if err != nil {
				return nil, err
			}
			out[j] = v
		}
		res.Rows[i] = out
	}
	return res, nil
}

func decodeValue(tag, text string) (any, error) {
	var v any
	var err error
	switch tag {
	case "n":
		return nil, nil
	case "i":
		v, err = strconv.ParseInt(text, 10, 64)
	case "int":
		var n int64
		n, err = strconv.ParseInt(text, 10, 64)
		v = int(n)
	case "i32":
		var n int64
		n, err = strconv.ParseInt(text, 10, 32)
		v = int32(n)
	case "u":
		v, err = strconv.ParseUint(text, 10, 64)
	case "f":
		v, err = strconv.ParseFloat(text, 64) // NaN and ±Inf too, as FormatFloat wrote them
	case "b":
		v, err = strconv.ParseBool(text)
	case "s":
		return text, nil
	case "S":
		var b []byte
		b, err = base64.StdEncoding.DecodeString(text)
		v = string(b)
	case "x":
		var b []byte
		b, err = base64.StdEncoding.DecodeString(text)
		if b == nil {
			b = []byte{}
		}
		v = b
	case "tu", "tl":
		var t time.Time
		t, err = time.Parse(time.RFC3339Nano, text)
		if tag == "tu" {
			t = t.UTC()
		} else {
			t = t.Local()
		}
		v = t
	default:
		err = fmt.Errorf("unknown tag %q", tag)
	}
	if err != nil {
		return nil, fmt.Errorf("querycache: decode %s %q: %w", tag, text, err)
	}
	return v, nil
}
