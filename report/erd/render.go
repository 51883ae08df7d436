package erd

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"regexp"
	"sync"

	"github.com/goccy/go-graphviz"
)

// go-graphviz runs one WebAssembly instance per process (its module is a
// package variable), so renders cannot run side by side: one Graphviz
// context, created on first use, and a lock around every call. Creating
// the context costs a few milliseconds; a render of 16 tables about 5, of
// 1,000 boxes a few hundred.
var (
	mu    sync.Mutex
	gv    *graphviz.Graphviz
	gvErr error
	// cache holds the SVG of each DOT text rendered, so the report's HTML
	// and its tables/ folder, written one after the other from the same
	// report, lay each diagram out once. Bounded: cleared when full.
	cache = map[[32]byte][]byte{}
)

const cacheLimit = 4096

// SVG lays dot out with Graphviz's dot engine and returns the picture as
// an <svg> element, without the XML prolog, doctype and comments Graphviz
// writes (they name its version and repeat node ids), so that it can be
// inlined in HTML and is the same bytes for the same DOT.
func SVG(ctx context.Context, dot []byte) ([]byte, error) {
	key := sha256.Sum256(dot)
	mu.Lock()
	defer mu.Unlock()
	if svg, ok := cache[key]; ok {
		return svg, nil
	}
	svg, err := render(ctx, dot)
	if err != nil {
		return nil, err
	}
	if len(cache) >= cacheLimit {
		clear(cache)
	}
	cache[key] = svg
	return svg, nil
}

// Render is SVG without the cache, for measuring what a layout costs.
func Render(ctx context.Context, dot []byte) ([]byte, error) {
	mu.Lock()
	defer mu.Unlock()
	return render(ctx, dot)
}

func render(ctx context.Context, dot []byte) ([]byte, error) {
	if gv == nil && gvErr == nil {
		gv, gvErr = graphviz.New(ctx)
	}
	if gvErr != nil {
		return nil, fmt.Errorf("erd: cannot start graphviz: %w", gvErr)
	}
	g, err := graphviz.ParseBytes(dot)
	if err != nil {
		return nil, fmt.Errorf("erd: graphviz cannot read the diagram: %w", err)
	}
	defer g.Close()
	var out bytes.Buffer
	if err := gv.Render(ctx, g, graphviz.SVG, &out); err != nil {
		return nil, fmt.Errorf("erd: graphviz cannot lay out the diagram: %w", err)
	}
	return tidy(out.Bytes()), nil
}

var (
	comment = regexp.MustCompile(`(?s)<!--.*?-->\n?`)
	// The titles Graphviz gives nodes, edges and the legend are DOT's
	// names (t3, t3:c2->t1:c1, legend), which mean nothing to a
	// reader: each box and edge has its tooltip instead.
	idTitle = regexp.MustCompile(`<title>(?:legend|t\d+(?::c\d+)?(?:&#45;&gt;t\d+(?::c\d+)?)?)</title>\n`)
)

// tidy keeps the <svg> element and drops comments. Graphviz escapes every
// '-' of a name in a comment, so a comment never ends early.
func tidy(svg []byte) []byte {
	if i := bytes.Index(svg, []byte("<svg")); i >= 0 {
		svg = svg[i:]
	}
	// Graphviz writes every "-" as &#45; (for its comments); without the
	// comments a plain "-" is the same XML and reads in a diff.
	svg = idTitle.ReplaceAll(comment.ReplaceAll(svg, nil), nil)
	return bytes.ReplaceAll(svg, []byte("&#45;"), []byte("-"))
}

var svgID = regexp.MustCompile(` id="`)

// PrefixIDs prefixes every id attribute of svg, so that several diagrams
// inlined in one HTML page keep their ids apart. Graphviz writes a quote
// inside a value as &quot;, so ` id="` only ever starts an attribute.
func PrefixIDs(svg []byte, prefix string) []byte {
	return svgID.ReplaceAll(svg, []byte(` id="`+prefix+`-`))
}
