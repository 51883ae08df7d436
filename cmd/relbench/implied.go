package main

import (
	"slices"
	"strings"
)

// ref is one reference as the scorer compares them: lower-cased names, the
// child's columns paired with the parent's in order.
type ref struct {
	child, parent string
	from, to      []string
}

func newRef(child string, from []string, parent string, to []string) ref {
	r := ref{child: strings.ToLower(child), parent: strings.ToLower(parent)}
	for _, c := range from {
		r.from = append(r.from, strings.ToLower(c))
	}
	for _, c := range to {
		r.to = append(r.to, strings.ToLower(c))
	}
	return r
}

// maxChain bounds the references a chain passes through.
const maxChain = 4

// impliedBy reports whether r is said by refs through a wider composite
// reference: some of refs runs from r's child by more columns, r's among
// them, to a table whose columns in their places reference r's parent
// (directly or by such a chain). customer.c_w_id → warehouse is said by
// customer(c_w_id, c_d_id) → district(d_w_id, d_id) and district.d_w_id →
// warehouse. Specifications differ on whether to list such a reference
// (TPC-H lists lineitem.l_partkey → part beside lineitem → partsupp, TPC-C
// lists no order line's item beside its stock), so the scorer counts it
// neither found nor missed: it is the same information.
func impliedBy(r ref, refs []ref) bool {
	return impliedDepth(r, refs, maxChain)
}

func impliedDepth(r ref, refs []ref, depth int) bool {
	if depth == 0 {
		return false
	}
	for _, w := range refs {
		if w.child != r.child || len(w.from) <= len(r.from) {
			continue
		}
		via := make([]string, 0, len(r.from))
		for _, f := range r.from {
			i := slices.Index(w.from, f)
			if i < 0 {
				break
			}
			via = append(via, w.to[i])
		}
		if len(via) != len(r.from) {
			continue
		}
		next := ref{child: w.parent, from: via, parent: r.parent, to: r.to}
		for _, s := range refs {
			if sameRef(s, next) {
				return true
			}
		}
		if impliedDepth(next, refs, depth-1) {
			return true
		}
	}
	return false
}

// sameRef compares two references by their column pairs, in any order.
func sameRef(a, b ref) bool {
	if a.child != b.child || a.parent != b.parent || len(a.from) != len(b.from) || len(a.to) != len(b.to) {
		return false
	}
	for i, f := range a.from {
		j := slices.Index(b.from, f)
		if j < 0 || j >= len(b.to) || b.to[j] != a.to[i] {
			return false
		}
	}
	return true
}

// parseKey reads a RelKey back: child(a,b)->parent(c,d).
func parseKey(k string) (ref, bool) {
	child, parent, ok := strings.Cut(k, ")->")
	if !ok {
		return ref{}, false
	}
	ct, cc, ok1 := strings.Cut(child, "(")
	pt, pc, ok2 := strings.Cut(strings.TrimSuffix(parent, ")"), "(")
	if !ok1 || !ok2 {
		return ref{}, false
	}
	return newRef(ct, strings.Split(cc, ","), pt, strings.Split(pc, ",")), true
}
