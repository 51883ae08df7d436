package main

// Foreign names (-names foreign): every database discovered again with its
// tables and columns renamed into an invented language, so that the
// benchmark measures what inference finds when the names are in no
// language its word lists know: the case of a schema written in German,
// Portuguese or Turkish, where the issue asks that the values decide.
//
// The invented language keeps what such schemas keep and loses what they
// lose. Kept: the identifiers' structure (words joined by underscores, in
// the same order), digits, the technical key words written the same way in
// most languages (id, key, fk, pk, sk, ref, uuid, guid) and the naming
// convention's affixes (tbl, dim, fact), and words of one or two letters,
// which are abbreviations. Lost: every other word becomes an invented one,
// the same word always the same invented word (customer_id and customers
// share their word as Kunde and Kunden do); "number" and its short forms
// become nr, "code" kode; a plural takes a plural of the invented word,
// one of five forms by the word (suffixes -en, -er, -e, -s as in German or
// Spanish, or an Italian change of the final vowel), so that an English
// singularizer undoes only the -s form. Invented words are never a word
// of discover's vocabulary (naming's lists), so no English rule fires by
// accident. The values are not touched.

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/discover-db/discover/naming"
	"github.com/discover-db/discover/stablehash"
	pluralize "github.com/gertd/go-pluralize"
	_ "modernc.org/sqlite" // the database/sql driver
)

// Names modes of a benchmark run.
const (
	NamesAsIs    = ""
	NamesForeign = "foreign"
)

// kept are the words the invented language writes as English does.
var kept = map[string]string{
	"id": "id", "key": "key", "fk": "fk", "pk": "pk", "sk": "sk", "ref": "ref", "uuid": "uuid", "guid": "guid",
	"tbl": "tbl", "dim": "dim", "fact": "fact",
	"no": "nr", "num": "nr", "nr": "nr", "number": "nr",
	"code": "kode", "cd": "kode",
}

var english = pluralize.NewClient()

// lexicon translates one database's words, keeping the invented words of
// different English words apart.
type lexicon struct {
	words map[string]string // English singular → invented singular
	taken map[string]string // invented singular → English singular
}

func newLexicon() *lexicon {
	return &lexicon{words: map[string]string{}, taken: map[string]string{}}
}

// ident renames an identifier: its words translated and joined by
// underscores, in lower case.
func (l *lexicon) ident(s string) string {
	toks := naming.NameTokens(s)
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = l.word(t)
	}
	if len(out) == 0 {
		return s
	}
	return strings.Join(out, "_")
}

// word translates one lower-case word.
func (l *lexicon) word(w string) string {
	if k, ok := kept[w]; ok {
		return k
	}
	if len(w) <= 2 || isDigits(w) {
		return w
	}
	// stuid, custkey: a key word glued to an abbreviation stays glued to
	// its translation, as StuID and stu_id do.
	for _, k := range []string{"id", "key"} {
		if stem, ok := strings.CutSuffix(w, k); ok && len(stem) >= 3 {
			return l.word(stem) + k
		}
	}
	sing := w
	if english.IsPlural(w) {
		if s := english.Singular(w); s != w && s != "" {
			sing = s
		}
	}
	inv := l.singular(sing)
	if sing == w {
		return inv
	}
	return pluralForm(inv)
}

// singular is the invented word for an English singular.
func (l *lexicon) singular(w string) string {
	if inv, ok := l.words[w]; ok {
		return inv
	}
	for salt := 0; ; salt++ {
		inv := invent(w, salt)
		if other, clash := l.taken[inv]; clash && other != w || inEnglishVocabulary(inv) {
			continue
		}
		l.words[w], l.taken[inv] = inv, w
		return inv
	}
}

const (
	consonants = "bdfgklmnprtvz"
	vowels     = "aeiou"
	finals     = "lnrt"
)

// invent makes a word of syllables (consonant, vowel), sometimes closed by
// a consonant, from a hash of the word: the same word gives the same
// invented word in every database.
func invent(w string, salt int) string {
	h := stablehash.Hash64(fmt.Sprintf("%s\x00%d", w, salt))
	// Two syllables, three for a long English word: languages other than
	// English seldom have fewer letters for a word (Artikel for item).
	syllables := 2
	if len(w) >= 8 {
		syllables = 3
	}
	var b strings.Builder
	for range syllables {
		b.WriteByte(consonants[h%uint64(len(consonants))])
		h /= uint64(len(consonants))
		b.WriteByte(vowels[h%uint64(len(vowels))])
		h /= uint64(len(vowels))
	}
	if h%2 == 0 {
		b.WriteByte(finals[(h/2)%uint64(len(finals))])
	}
	return b.String()
}

// pluralForm is the invented plural: one of five forms, by the word.
func pluralForm(w string) string {
	last := w[len(w)-1]
	switch stablehash.Hash64(w) % 5 {
	case 0:
		return w + "en"
	case 1:
		return w + "er"
	case 2:
		if last == 'e' {
			return w + "n"
		}
		return w + "e"
	case 3:
		return w + "s"
	default:
		// An Italian plural: the final vowel changes (libro, libri).
		if strings.IndexByte(vowels, last) >= 0 {
			if last == 'a' {
				return w[:len(w)-1] + "e"
			}
			return w[:len(w)-1] + "i"
		}
		return w + "i"
	}
}

// inEnglishVocabulary reports whether an invented word would mean
// something to discover's English rules.
func inEnglishVocabulary(w string) bool {
	if _, ok := naming.KeySuffix(w); ok {
		return true
	}
	_, syn := naming.Synonym(w)
	return syn || naming.Generic(w) || naming.Role(w) || naming.SelfRole(w) || naming.Person(w) ||
		naming.TablePrefix(w) || naming.TableSuffix(w) || naming.PersonSupertype(w) || naming.Acts(w)
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// renamed is a database copied under foreign names.
type renamed struct {
	path   string
	tables map[string]string            // lower-case English table name → foreign name
	cols   map[string]map[string]string // lower-case English table, column → foreign column
	// english maps a lower-case foreign table name, and a table and column
	// ("table.column"), back to the English names, for the listings.
	english map[string]string
}

// englishKey is a relationship key of foreign names in English, for the
// listings: child(cols)->parent(cols).
func (r *renamed) englishKey(child string, fcols []string, parent string, tcols []string) string {
	back := func(t string, cols []string) string {
		var cs []string
		for _, c := range cols {
			cs = append(cs, r.english[strings.ToLower(t+"."+c)])
		}
		return r.english[strings.ToLower(t)] + "(" + strings.Join(cs, ",") + ")"
	}
	return strings.ToLower(back(child, fcols) + "->" + back(parent, tcols))
}

// key maps a relationship key's names (RelKey's lower-case form) into the
// foreign ones; ok is false when a name is not in the copy.
func (r *renamed) key(child, fcols, parent, tcols string) (string, bool) {
	ct, ok1 := r.tables[strings.ToLower(child)]
	pt, ok2 := r.tables[strings.ToLower(parent)]
	fc, ok3 := r.columns(child, fcols)
	tc, ok4 := r.columns(parent, tcols)
	return RelKey(ct, fc, pt, tc), ok1 && ok2 && ok3 && ok4
}

func (r *renamed) columns(table, cols string) (string, bool) {
	var out []string
	for _, c := range strings.Split(cols, ",") {
		f, ok := r.cols[strings.ToLower(table)][strings.ToLower(c)]
		if !ok {
			return "", false
		}
		out = append(out, f)
	}
	return strings.Join(out, ","), true
}

// renameDB copies the SQLite database at src into dir with every table and
// column renamed: the columns' declared types, NOT NULL, primary keys and
// unique constraints and indexes, and every row. Views and declared
// foreign keys are left out: relbench ignores the declared references,
// and a view's text would need the names inside it renamed.
func renameDB(ctx context.Context, src, dir string) (*renamed, error) {
	out := filepath.Join(dir, "foreign.sqlite")
	db, err := sql.Open("sqlite", out)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // the attached database belongs to one connection
	if _, err := db.ExecContext(ctx, `ATTACH DATABASE ? AS src`, "file:"+src+"?mode=ro"); err != nil {
		return nil, fmt.Errorf("attach %s: %w", src, err)
	}
	names, err := strings1(ctx, db, `SELECT name FROM src.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	lex := newLexicon()
	r := &renamed{path: out, tables: map[string]string{}, cols: map[string]map[string]string{}, english: map[string]string{}}
	usedTables := map[string]bool{}
	for _, t := range names {
		ft := unique(lex.ident(t), usedTables)
		r.tables[strings.ToLower(t)] = ft
		ddl, cols, err := renamedTable(ctx, db, t, ft, lex)
		if err != nil {
			return nil, fmt.Errorf("rename %s: %w", t, err)
		}
		r.cols[strings.ToLower(t)] = cols
		r.english[strings.ToLower(ft)] = t
		for c, f := range cols {
			r.english[strings.ToLower(ft+"."+f)] = c
		}
		if _, err := db.ExecContext(ctx, ddl); err != nil {
			return nil, fmt.Errorf("rename %s: %s: %w", t, ddl, err)
		}
		if _, err := db.ExecContext(ctx, fmt.Sprintf(`INSERT INTO main.%s SELECT * FROM src.%s`, quote(ft), quote(t))); err != nil {
			return nil, fmt.Errorf("copy %s: %w", t, err)
		}
	}
	return r, nil
}

// renamedTable is the CREATE TABLE of table t under the name ft, and its
// columns' foreign names.
func renamedTable(ctx context.Context, db *sql.DB, t, ft string, lex *lexicon) (string, map[string]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name, type, "notnull", pk FROM pragma_table_info(?, 'src') ORDER BY cid`, t)
	if err != nil {
		return "", nil, err
	}
	type col struct {
		name, typ string
		notNull   bool
		pk        int
	}
	var cs []col
	for rows.Next() {
		var c col
		if err := rows.Scan(&c.name, &c.typ, &c.notNull, &c.pk); err != nil {
			rows.Close()
			return "", nil, err
		}
		cs = append(cs, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", nil, err
	}
	names := map[string]string{}
	used := map[string]bool{}
	var defs, pk []string
	pks := 0
	for _, c := range cs {
		if c.pk > 0 {
			pks++
		}
	}
	pkCols := make([]string, pks)
	for _, c := range cs {
		f := unique(lex.ident(c.name), used)
		names[strings.ToLower(c.name)] = f
		d := quote(f)
		if c.typ != "" {
			d += " " + c.typ
		}
		if c.notNull {
			d += " NOT NULL"
		}
		defs = append(defs, d)
		if c.pk > 0 && c.pk <= pks {
			pkCols[c.pk-1] = quote(f)
		}
	}
	if pks > 0 {
		pk = pkCols
		defs = append(defs, "PRIMARY KEY ("+strings.Join(pk, ", ")+")")
	}
	// Unique constraints and unique indexes, as unique constraints.
	idx, err := strings1(ctx, db, `SELECT name FROM pragma_index_list(?, 'src') WHERE "unique" AND origin != 'pk' ORDER BY name`, t)
	if err != nil {
		return "", nil, err
	}
	for _, ix := range idx {
		cols, err := strings1(ctx, db, `SELECT name FROM pragma_index_info(?, 'src') ORDER BY seqno`, ix)
		if err != nil {
			return "", nil, err
		}
		var qs []string
		for _, c := range cols {
			f, ok := names[strings.ToLower(c)]
			if !ok {
				qs = nil // an index on an expression
				break
			}
			qs = append(qs, quote(f))
		}
		if len(qs) > 0 {
			defs = append(defs, "UNIQUE ("+strings.Join(qs, ", ")+")")
		}
	}
	return fmt.Sprintf("CREATE TABLE %s (\n\t%s\n)", quote(ft), strings.Join(defs, ",\n\t")), names, nil
}

// unique returns name, or name with a number added when already used.
func unique(name string, used map[string]bool) string {
	n := name
	for i := 2; used[strings.ToLower(n)]; i++ {
		n = fmt.Sprintf("%s_%d", name, i)
	}
	used[strings.ToLower(n)] = true
	return n
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// strings1 reads a query's first column as strings.
func strings1(ctx context.Context, db *sql.DB, q string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// foreignCopy renames the database at path into a new folder, temporary
// (the caller removes it) or, when keep is set, keep/name.
func foreignCopy(ctx context.Context, path, keep, name string) (*renamed, string, error) {
	var dir string
	var err error
	if keep != "" {
		dir = filepath.Join(keep, name)
		if err = os.RemoveAll(dir); err == nil {
			err = os.MkdirAll(dir, 0o755)
		}
	} else {
		dir, err = os.MkdirTemp("", "relbench-foreign-*")
	}
	if err != nil {
		return nil, "", err
	}
	r, err := renameDB(ctx, path, dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, "", err
	}
	return r, dir, nil
}
