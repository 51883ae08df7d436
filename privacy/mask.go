package privacy

import (
	"maps"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/discover-db/discover/experts/valueclass"
	"github.com/discover-db/discover/naming"
)

// Mask writes a value of a personal-data column so that it shows its
// category's shape and a few characters, never the value: an e-mail
// address keeps its first letter, its domain's first letter and its
// top-level domain (j***@e***.com); a phone number its first three and
// last three digits (+44 7*** ***123); a payment card its last four; an
// IBAN its country and last two characters; an IP address its first
// part; a date of birth its separators only; a name, an address or text
// the first letter of each word. Separators stay where they were, and a
// masked word is always three stars long, whatever the word's length.
// The same value masks the same way in every run.
func Mask(category, value string) string {
	switch category {
	case Email:
		if at := strings.LastIndexByte(value, '@'); at > 0 {
			return firstRune(value[:at]) + "***@" + maskDomain(value[at+1:])
		}
	case Phone:
		return keepDigits(value, 3, 3)
	case PaymentCard:
		return keepDigits(value, 0, 4)
	case IBAN:
		return keepEnds(value, 2, 2)
	case NationalID:
		return keepEnds(value, 0, 2)
	case DateOfBirth:
		return keepDigits(value, 0, 0)
	case IPAddress:
		if i := strings.IndexAny(value, ".:"); i > 0 {
			sep := value[i : i+1]
			return value[:i] + strings.Repeat(sep+"*", max(1, strings.Count(value, sep)))
		}
	}
	return maskWords(value)
}

// MaskOnce is Mask for a value that may be masked already (read from a
// catalog that a finished run masked): such a value is returned as it is,
// so that a run that takes an earlier run's findings writes what a run
// that read the raw value would.
func MaskOnce(category, value string) string {
	if strings.Contains(value, "***") {
		return value
	}
	return Mask(category, value)
}

// firstRune is s's first character, "" for an empty s.
func firstRune(s string) string {
	_, n := utf8.DecodeRuneInString(s)
	return s[:n]
}

// maskDomain keeps a domain's first letter and its last label.
func maskDomain(d string) string {
	dot := strings.LastIndexByte(d, '.')
	if dot <= 0 {
		return firstRune(d) + "***"
	}
	return firstRune(d) + "***" + d[dot:]
}

// keepDigits replaces every digit but the first head and the last tail,
// and every letter, with a star; a value with fewer than four digits
// besides those has every digit replaced.
func keepDigits(s string, head, tail int) string { return keep(s, head, tail, true) }

// keepEnds replaces every letter and digit but the first head and the last
// tail of them with a star; a value with fewer than four besides those has
// every one replaced.
func keepEnds(s string, head, tail int) string { return keep(s, head, tail, false) }

// keep is keepDigits (digits) or keepEnds: the characters it counts are
// digits, or letters and digits; the others stay, but letters, which
// keepDigits hides all of.
func keep(s string, head, tail int, digits bool) string {
	counted := func(r rune) bool { return unicode.IsDigit(r) || !digits && unicode.IsLetter(r) }
	n := 0
	for _, r := range s {
		if counted(r) {
			n++
		}
	}
	if n < head+tail+4 {
		head, tail = 0, 0
	}
	var b strings.Builder
	i := 0
	for _, r := range s {
		switch {
		case counted(r):
			if i >= head && i < n-tail {
				r = '*'
			}
			i++
		case unicode.IsLetter(r):
			r = '*'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// maskWords writes each word as its first letter and three stars, each
// number as stars, and keeps what is between them.
func maskWords(s string) string {
	var b strings.Builder
	word := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			if !word {
				b.WriteRune(r)
				b.WriteString("***")
			}
			word = true
		case unicode.IsDigit(r):
			if !word {
				b.WriteString("*")
			}
			word = true
		default:
			word = false
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Redactor replaces the personal values a run has seen wherever they
// appear in text: in a profile's top values, in an anomaly's examples, in
// a hypothesis's evidence. Add the values; Text masks them.
type Redactor struct {
	masks map[string]string
	// byWord indexes the values Text looks for by their first word (the
	// letters and digits they start with; "" for a value that starts with
	// neither, "+44 …"), each list longest first so that a value inside
	// another is not masked first. nil until Text builds it.
	byWord map[string][]string
	emails bool // mask every e-mail address, seen or not (AddShapes)
}

// emailRe finds e-mail addresses in text.
var emailRe = regexp.MustCompile(`[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)*\.\p{L}{2,}`)

// AddShapes has Text mask, beside the values added, every value of
// category that its shape alone tells in text: e-mail addresses. A run that
// takes an earlier run's masked findings and reads the database again
// for some of them meets values no profile of this run listed.
func (r *Redactor) AddShapes(category string) {
	if category == Email {
		r.emails = true
	}
}

// NewRedactor returns a Redactor that masks nothing yet.
func NewRedactor() *Redactor { return &Redactor{masks: map[string]string{}} }

// minRedacted is the shortest value Text looks for inside a longer text: a
// value of one or two characters (an initial, a digit) is masked where it
// is a whole text only, since it occurs in other words everywhere.
const minRedacted = 3

// Add records value, of category, as one to mask.
func (r *Redactor) Add(category, value string) {
	value = strings.TrimSpace(value)
	// A value masked already (a second pass over a masked catalog) stays
	// as it is: masking it again would write other stars.
	if value == "" || strings.Contains(value, "***") {
		return
	}
	if _, ok := r.masks[value]; ok {
		return
	}
	m := Mask(category, value)
	if m == value {
		return // nothing to hide: "*-*", or masked already
	}
	r.masks[value] = m
	r.byWord = nil
}

// AddFrom records every value o masks, and the shapes it masks, as ones
// to mask.
func (r *Redactor) AddFrom(o *Redactor) {
	if o == nil {
		return
	}
	for v, m := range o.masks {
		if _, ok := r.masks[v]; !ok {
			r.masks[v] = m
			r.byWord = nil
		}
	}
	r.emails = r.emails || o.emails
}

// Masks returns the values added and their masks, a copy: what a later
// process's Redactor is given back by AddMasks.
func (r *Redactor) Masks() map[string]string { return maps.Clone(r.masks) }

// AddMasks records values with the masks Masks returned for them.
func (r *Redactor) AddMasks(masks map[string]string) {
	for v, m := range masks {
		if _, ok := r.masks[v]; !ok {
			r.masks[v] = m
			r.byWord = nil
		}
	}
}

// Empty reports whether Text would change nothing.
func (r *Redactor) Empty() bool { return len(r.masks) == 0 && !r.emails }

// Len is how many distinct values were added.
func (r *Redactor) Len() int { return len(r.masks) }

// Text returns s with every value added masked, where it appears as a
// whole (not inside a longer word or number).
func (r *Redactor) Text(s string) string {
	if r.Empty() || s == "" {
		return s
	}
	if r.emails && strings.Contains(s, "@") {
		s = emailRe.ReplaceAllStringFunc(s, func(m string) string {
			if strings.Contains(m, "***") {
				return m
			}
			return Mask(Email, m)
		})
	}
	if m, ok := r.masks[strings.TrimSpace(s)]; ok {
		return m
	}
	if r.byWord == nil {
		r.index()
	}
	// Only where a word starts may a value start (a value that starts
	// with neither a letter nor a digit is looked for everywhere, rarely):
	// a text is read once, whatever the number of values.
	var b strings.Builder
	done := 0 // s[:done] is written to b
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		prev, _ := utf8.DecodeLastRuneInString(s[:i])
		var cands []string
		if alnum(c) && (i == 0 || !alnum(prev)) {
			cands = r.byWord[firstWord(s[i:])]
		}
		if i == 0 || !alnum(prev) {
			cands = append(cands[:len(cands):len(cands)], r.byWord[""]...)
		}
		matched := ""
		for _, v := range cands {
			if strings.HasPrefix(s[i:], v) {
				after, _ := utf8.DecodeRuneInString(s[i+len(v):])
				if i+len(v) == len(s) || !alnum(after) {
					matched = v
					break
				}
			}
		}
		if matched == "" {
			i += n
			continue
		}
		b.WriteString(s[done:i])
		b.WriteString(r.masks[matched])
		i += len(matched)
		done = i
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// index builds byWord from the values added.
func (r *Redactor) index() {
	r.byWord = map[string][]string{}
	for v := range r.masks {
		if len(v) >= minRedacted {
			w := firstWord(v)
			r.byWord[w] = append(r.byWord[w], v)
		}
	}
	for _, vs := range r.byWord {
		sort.Slice(vs, func(i, j int) bool {
			if len(vs[i]) != len(vs[j]) {
				return len(vs[i]) > len(vs[j])
			}
			return vs[i] < vs[j]
		})
	}
}

// firstWord is the letters and digits s starts with.
func firstWord(s string) string {
	for i, c := range s {
		if !alnum(c) {
			return s[:i]
		}
	}
	return s
}

func alnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Known adds a discovery's personal-data column to known, the map MaskRows
// reads: by its name and by its table's bare name and its name
// ("people.last_name"), lower case.
func Known(known map[string]string, table, column, category string) {
	if i := strings.LastIndexByte(table, '.'); i >= 0 {
		table = table[i+1:]
	}
	known[strings.ToLower(column)] = category
	known[strings.ToLower(table+"."+column)] = category
}

// MaskRows masks, in a query's result, the values of the columns that hold
// personal data, and returns the masked columns' names. A column is
// masked when it reads a personal-data column of known (Known): one of
// its sources is (sources[i], the table columns result column i is read
// from, warehouse.ResultSources: SELECT last_name AS x FROM people), or it
// is named as one is (a column of another table so named is masked too:
// the safe side). A column that reads no known
// personal column, or that could not be traced, is masked when Detect
// finds it personal by its name and values (an e-mail address under
// another name, persons' names in any language): values that look
// personal are masked whatever their column. With an e-mail category
// among known or found, every e-mail address in any other text value is
// masked too (a concatenation that carries one).
func MaskRows(columns []string, sources [][]string, rows [][]any, known map[string]string) []string {
	emails := false
	for _, c := range known {
		emails = emails || c == Email
	}
	cats := make([]string, len(columns))
	var masked []string
	for i, name := range columns {
		cat := ""
		var srcs []string
		if i < len(sources) {
			srcs = sources[i]
		}
		for _, src := range srcs {
			if cat = known[src]; cat != "" {
				break
			}
		}
		if cat == "" {
			cat = known[strings.ToLower(name)]
		}
		if cat == "" {
			var vals []string
			for _, r := range rows {
				if s, ok := text(r[i]); ok && s != "" {
					vals = append(vals, s)
				}
			}
			if f, ok := Detect(Column{Words: naming.Words(name), SemanticType: shapeType(vals), SemanticConfidence: 0.9, Values: vals}); ok {
				cat = f.Category
			}
		}
		if cat != "" {
			cats[i] = cat
			masked = append(masked, name)
			emails = emails || cat == Email
		}
	}
	r := NewRedactor()
	if emails {
		r.AddShapes(Email)
	}
	for _, row := range rows {
		for i, v := range row {
			s, ok := text(v)
			switch {
			case !ok:
			case cats[i] != "":
				row[i] = Mask(cats[i], s)
			case !r.Empty():
				if m := r.Text(s); m != s {
					row[i] = m
				}
			}
		}
	}
	return masked
}

// shapeType is the semantic type a result column's values all but
// prove, as the semantic expert reads them from a profile: "email" or
// "phone" when nine in ten are such, "" otherwise.
func shapeType(vals []string) string {
	if len(vals) < minValues {
		return ""
	}
	for typ, is := range map[string]func(string) bool{
		"email": valueclass.IsEmail,
		"phone": func(v string) bool { return valueclass.IsPhone(v, false) },
	} {
		k := 0
		for _, v := range vals {
			if is(strings.TrimSpace(v)) {
				k++
			}
		}
		if float64(k) >= valueShare*float64(len(vals)) {
			return typ
		}
	}
	return ""
}

// text is a result value as text, for the values a mask applies to:
// strings, bytes and integers (a phone number kept as a number).
func text(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []byte:
		return string(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	}
	return "", false
}
