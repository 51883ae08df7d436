// Package prompts holds the prompt templates the model is given, embedded
// in the binary and versioned: a template's file is NAME.vN.tmpl, and the
// highest N of a name is the one rendered. The version travels with every
// call (Prompt.ID) so a catalog entry says which wording produced it.
//
// Templates put everything that comes from the database (identifiers, data
// values, error messages) into the prompt as JSON inside a <data> block,
// never as instructions: see Data and the "json" template function.
package prompts

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"
)

//go:embed templates/*.tmpl
var files embed.FS

// Prompt is a rendered template: the system and user messages of a call.
type Prompt struct {
	Name    string
	Version int
	System  string
	User    string
}

// ID names the template and its version, as recorded with every call:
// "hypotheses/v1".
func (p Prompt) ID() string { return fmt.Sprintf("%s/v%d", p.Name, p.Version) }

type entry struct {
	version int
	tmpl    *template.Template
}

var (
	fileName = regexp.MustCompile(`^([a-z_]+)\.v([0-9]+)\.tmpl$`)
	current  = map[string]entry{} // name → highest version
)

func init() {
	// A template that does not parse is a programming error caught by any
	// test that imports the package, so panicking here is the right failure.
	matches, err := fs.Glob(files, "templates/*.tmpl")
	if err != nil {
		panic(err)
	}
	for _, f := range matches {
		m := fileName.FindStringSubmatch(path.Base(f))
		if m == nil {
			panic(fmt.Sprintf("prompts: %s is not named NAME.vN.tmpl", f))
		}
		v, _ := strconv.Atoi(m[2])
		if e, ok := current[m[1]]; ok && e.version > v {
			continue
		}
		b, err := files.ReadFile(f)
		if err != nil {
			panic(err)
		}
		t, err := template.New(m[1]).Funcs(funcs).Option("missingkey=error").Parse(string(b))
		if err != nil {
			panic(fmt.Sprintf("prompts: %s: %v", f, err))
		}
		for _, part := range []string{"system", "user"} {
			if t.Lookup(part) == nil {
				panic(fmt.Sprintf("prompts: %s defines no %q template", f, part))
			}
		}
		current[m[1]] = entry{version: v, tmpl: t}
	}
}

// Names lists the templates, sorted.
func Names() []string {
	var out []string
	for n := range current {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Render renders the current version of template name with data.
func Render(name string, data any) (Prompt, error) {
	e, ok := current[name]
	if !ok {
		return Prompt{}, fmt.Errorf("prompts: no template %q", name)
	}
	p := Prompt{Name: name, Version: e.version}
	for _, part := range []struct {
		name string
		dst  *string
	}{{"system", &p.System}, {"user", &p.User}} {
		var b bytes.Buffer
		if err := e.tmpl.ExecuteTemplate(&b, part.name, data); err != nil {
			return Prompt{}, fmt.Errorf("prompts: render %s/v%d %s: %w", name, e.version, part.name, err)
		}
		*part.dst = strings.TrimSpace(b.String())
	}
	return p, nil
}

var funcs = template.FuncMap{
	"json": toJSON,
}

// toJSON renders v as compact JSON (tokens cost money). encoding/json escapes <, > and & as
// \u003c…, so a data value holding "</data>" cannot close the data block
// and pose as instructions after it.
func toJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("prompts: json: %w", err)
	}
	return string(b), nil
}
