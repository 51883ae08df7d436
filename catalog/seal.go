package catalog

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Sealing keeps a value out of the catalog file while nobody knows yet
// whether it is personal: a profile is written before the semantic expert
// has judged its column, and a process killed in between must leave no
// raw value on disk, in the file or in its log (issue 21). A sealed value
// is encrypted (AES-GCM) under its run's key, which is never written into
// the catalog (package redact keeps it outside the output folder while
// the run is unfinished, so that --resume on the same machine reads what
// the killed process sealed, and deletes it when the run finishes, or a
// later run does once nothing will read it again: redact.Sweep). The
// nonce is a MAC of the value, so the same value seals the same way and a
// save that changes nothing still writes nothing (SaveChanged).
const sealPrefix = "sealed:"

// SealKeySize is the length of a sealing key.
const SealKeySize = 64

// Sealer seals values under one key.
type Sealer struct {
	id   string
	aead cipher.AEAD
	mac  []byte
}

// sealers are the sealers this process has made, by id: Unseal reads
// what any of them sealed.
var sealers sync.Map

// NewSealer returns the sealer of key (SealKeySize random bytes), which
// Unseal knows from then on.
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) != SealKeySize {
		return nil, fmt.Errorf("catalog: sealing key of %d bytes, want %d", len(key), SealKeySize)
	}
	block, err := aes.NewCipher(key[:32])
	if err != nil {
		return nil, fmt.Errorf("catalog: sealing key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("catalog: sealing key: %w", err)
	}
	// The id names the key without telling anything of it.
	h := sha256.Sum256(append([]byte("discover sealing key id\x00"), key...))
	s := &Sealer{id: hex.EncodeToString(h[:8]), aead: aead, mac: key[32:]}
	sealers.Store(s.id, s)
	return s, nil
}

// Seal returns v encrypted.
func (s *Sealer) Seal(v string) string {
	h := hmac.New(sha256.New, s.mac)
	h.Write([]byte(v))
	nonce := h.Sum(nil)[:s.aead.NonceSize()]
	return sealPrefix + s.id + ":" + base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(v), nil))
}

// Unseal returns what a Sealer sealed; ok is false for text no sealer of
// this process sealed (a killed process's, whose key is lost).
func Unseal(v string) (string, bool) {
	rest, found := strings.CutPrefix(v, sealPrefix)
	if !found {
		return v, false
	}
	id, text, found := strings.Cut(rest, ":")
	x, known := sealers.Load(id)
	if !found || !known {
		return v, false
	}
	s := x.(*Sealer)
	b, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil || len(b) < s.aead.NonceSize() {
		return v, false
	}
	plain, err := s.aead.Open(nil, b[:s.aead.NonceSize()], b[s.aead.NonceSize():], nil)
	if err != nil {
		return v, false
	}
	return string(plain), true
}

// MapValues replaces each value the profile quotes (Values) by f's.
func (p *ProfileDoc) MapValues(f func(string) string) {
	for _, v := range []**string{&p.Min, &p.Max} {
		if *v != nil {
			s := f(**v)
			*v = &s
		}
	}
	// New slices: a copy of the profile shares the old ones.
	if p.TopValues != nil {
		p.TopValues = slices.Clone(p.TopValues)
	}
	for i := range p.TopValues {
		p.TopValues[i].Value = f(p.TopValues[i].Value)
	}
	if p.Anomalies != nil {
		p.Anomalies = slices.Clone(p.Anomalies)
	}
	for i := range p.Anomalies {
		ex := make([]string, len(p.Anomalies[i].Examples))
		for j, v := range p.Anomalies[i].Examples {
			ex[j] = f(v)
		}
		p.Anomalies[i].Examples = ex
	}
}

// Seal seals the values the profile quotes, and the figures that are
// values (SealedFigures).
func (p *ProfileDoc) Seal(s *Sealer) {
	if p.Sealed {
		return
	}
	p.MapValues(s.Seal)
	p.sealFigures(s)
	p.Sealed = true
}

// SealBeside keeps the profile's values sealed (SealedValues) and
// writes f's of them (their masks) in their place; the figures that are
// values are sealed (SealedFigures), since no mask of them keeps a
// histogram's sense.
func (p *ProfileDoc) SealBeside(s *Sealer, f func(string) string) {
	vals := p.Values()
	p.SealedValues = make([]string, len(vals))
	for i, v := range vals {
		p.SealedValues[i] = s.Seal(v)
	}
	p.MapValues(f)
	p.sealFigures(s)
}

// valueFigures are a profile's figures that are values of its column, or
// follow one: the mean (the one value of a column that holds one), the
// quantiles and the histogram's bounds. Counts, shares, the spread and
// the lengths of texts are not.
type valueFigures struct {
	Mean      *float64   `json:"mean,omitempty"`
	Quantiles *Quantiles `json:"quantiles,omitempty"`
	Histogram *Histogram `json:"histogram,omitempty"`
}

// DropValueFigures removes the figures that are values of the column
// (valueFigures): what a personal-data column's profile may not keep
// once its values are masked, since a number cannot be masked and still
// be a figure.
func (p *ProfileDoc) DropValueFigures() {
	p.Mean, p.Quantiles, p.Histogram, p.SealedFigures = nil, nil, nil, ""
}

// sealFigures moves the figures that are values into SealedFigures.
func (p *ProfileDoc) sealFigures(s *Sealer) {
	if p.Mean == nil && p.Quantiles == nil && p.Histogram == nil {
		return
	}
	b, err := json.Marshal(valueFigures{p.Mean, p.Quantiles, p.Histogram})
	if err != nil {
		panic(fmt.Sprintf("catalog: profile figures: %v", err)) // floats and slices of them always marshal
	}
	p.SealedFigures = s.Seal(string(b))
	p.Mean, p.Quantiles, p.Histogram = nil, nil, nil
}

// unsealFigures gives back the figures SealedFigures holds, when this
// process sealed them.
func (p *ProfileDoc) unsealFigures() {
	if p.SealedFigures == "" {
		return
	}
	v, ok := Unseal(p.SealedFigures)
	var f valueFigures
	if !ok || json.Unmarshal([]byte(v), &f) != nil {
		return
	}
	p.Mean, p.Quantiles, p.Histogram, p.SealedFigures = f.Mean, f.Quantiles, f.Histogram, ""
}

// Unreadable says the profile holds values sealed by another process:
// its values are lost (the process was killed), its counts are not.
func (p ProfileDoc) Unreadable() bool {
	return p.Sealed || len(p.SealedValues) > 0 || p.SealedFigures != ""
}

// UnmarshalJSON decodes a profile and unseals its values when this
// process sealed them (Sealed, SealedValues); a profile another process
// sealed stays as it is, Unreadable.
func (p *ProfileDoc) UnmarshalJSON(b []byte) error {
	type plain ProfileDoc
	if err := json.Unmarshal(b, (*plain)(p)); err != nil {
		return err
	}
	p.unsealFigures()
	switch {
	case p.Sealed:
		readable := true
		q := *p
		q.MapValues(func(s string) string {
			v, ok := Unseal(s)
			readable = readable && ok
			return v
		})
		if readable {
			q.Sealed = false
			*p = q
		}
	case len(p.SealedValues) > 0:
		if len(p.SealedValues) != len(p.Values()) {
			return nil
		}
		raw := make([]string, len(p.SealedValues))
		for i, s := range p.SealedValues {
			v, ok := Unseal(s)
			if !ok {
				return nil
			}
			raw[i] = v
		}
		i := 0
		p.MapValues(func(string) string { i++; return raw[i-1] })
		p.SealedValues = nil
	}
	return nil
}

// Guard sees every entry before it is written (Save, SaveChanged,
// SaveAllChanged) and every kept result: it returns what is written
// instead, which may be more entries, all written in one transaction.
// package redact's Guard keeps personal values out of the file while a
// run goes on.
type Guard interface {
	Entries(ctx context.Context, es []Entry) ([]Entry, error)
	// Result is what is kept of a statement's result.
	Result(result []byte) []byte
}

// Path is the catalog file's path, as Open was given it.
func (c *Catalog) Path() string { return c.path }

// SetGuard makes g the catalog's guard (nil: none). It returns the one it
// replaces.
func (c *Catalog) SetGuard(g Guard) Guard {
	c.guardMu.Lock()
	defer c.guardMu.Unlock()
	old := c.guard
	c.guard = g
	return old
}

// CurrentGuard is the catalog's guard, nil when none.
func (c *Catalog) CurrentGuard() Guard {
	c.guardMu.Lock()
	defer c.guardMu.Unlock()
	return c.guard
}

// guarded returns what the guard writes for es.
func (c *Catalog) guarded(ctx context.Context, es []Entry) ([]Entry, error) {
	g := c.CurrentGuard()
	if g == nil {
		return es, nil
	}
	out, err := g.Entries(ctx, es)
	if err != nil {
		return nil, fmt.Errorf("guard: %w", err)
	}
	return out, nil
}

// RewriteResults passes every kept result through f: f returns the
// result to keep, or nil to drop it. It returns how many it dropped. A run
// that sealed its kept results (Guard.Result) writes them in clear, or
// drops them, this way once it knows which values are personal.
func (c *Catalog) RewriteResults(ctx context.Context, f func(result []byte) []byte) (int64, error) {
	rows, err := c.reader.QueryContext(ctx, `SELECT key, result FROM results`)
	if err != nil {
		return 0, fmt.Errorf("catalog: results: %w", err)
	}
	type kv struct {
		k string
		b []byte
	}
	var change []kv
	for rows.Next() {
		var k string
		var b []byte
		if err := rows.Scan(&k, &b); err != nil {
			rows.Close()
			return 0, fmt.Errorf("catalog: results: %w", err)
		}
		if nb := f(b); nb == nil || string(nb) != string(b) {
			change = append(change, kv{k, nb})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("catalog: results: %w", err)
	}
	var dropped int64
	for _, x := range change {
		if x.b == nil {
			n, err := c.write(ctx, `DELETE FROM results WHERE key = ?`, x.k)
			if err != nil {
				return dropped, fmt.Errorf("catalog: drop result %s: %w", x.k, err)
			}
			dropped += n
			continue
		}
		if _, err := c.write(ctx, `UPDATE results SET result = ? WHERE key = ?`, string(x.b), x.k); err != nil {
			return dropped, fmt.Errorf("catalog: rewrite result %s: %w", x.k, err)
		}
	}
	return dropped, nil
}
