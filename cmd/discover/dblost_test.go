package main

import (
	"context"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
)

// tcpProxy stands between discover and a database server, so that a test
// can take the server away (every connection cut, new ones refused) as a
// server that stops and never comes back does, and bring it back on the
// same address.
type tcpProxy struct {
	t      *testing.T
	target string
	addr   string
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]bool
}

func startProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	p := &tcpProxy{t: t, target: target, conns: map[net.Conn]bool{}}
	p.listen("127.0.0.1:0")
	t.Cleanup(p.down)
	return p
}

func (p *tcpProxy) listen(addr string) {
	p.t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
}

func (p *tcpProxy) serve(c net.Conn) {
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.ln == nil { // taken down meanwhile
		p.mu.Unlock()
		c.Close()
		s.Close()
		return
	}
	p.conns[c], p.conns[s] = true, true
	p.mu.Unlock()
	go func() { io.Copy(s, c); s.Close() }()
	io.Copy(c, s)
	c.Close()
}

// down refuses new connections and cuts every open one.
func (p *tcpProxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// up listens again on the address it had.
func (p *tcpProxy) up() { p.listen(p.addr) }

// TestDatabaseLostMidRun (issue 17): the PostgreSQL server goes away in
// the middle of a run and does not come back. discover retries with
// backoff, then ends the run as failed — exit 1, a last line that says the
// database stopped answering and how to continue — never as a finished run
// with a stop reason such as "coverage"; it writes no report, and leaves
// the run unfinished in the catalog. Once the server is back, --resume
// finishes it: exit 0 and a complete report.
func TestDatabaseLostMidRun(t *testing.T) {
	ctx := context.Background()
	dsn, _, admin, _ := scratchPostgres(t, "lost", "")
	for _, s := range []string{
		`CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT NOT NULL, country CHAR(2))`,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), amount NUMERIC(10,2), status TEXT)`,
		`CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, price NUMERIC(8,2))`,
		`CREATE TABLE order_items (order_id INTEGER REFERENCES orders(id), product_id INTEGER REFERENCES products(id), qty INTEGER)`,
		`INSERT INTO customers SELECT i, 'user' || i || '@example.com', (ARRAY['FR','DE','US','JP'])[1 + i % 4] FROM generate_series(1, 2000) i`,
		`INSERT INTO orders SELECT i, 1 + i % 2000, (i % 500) + 0.99, (ARRAY['new','paid','shipped'])[1 + i % 3] FROM generate_series(1, 20000) i`,
		`INSERT INTO products SELECT i, 'product ' || i, i % 90 + 0.5 FROM generate_series(1, 500) i`,
		`INSERT INTO order_items SELECT 1 + i % 20000, 1 + i % 500, 1 + i % 5 FROM generate_series(1, 40000) i`,
		`ANALYZE`,
	} {
		if _, err := admin.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	proxy := startProxy(t, u.Host)
	u.Host = proxy.addr

	out := t.TempDir()
	c := startCLI(t, "--db", u.String(), "--out", out, "--progress", "plain", "-v", "--format", "json", "--parallel", "1")
	c.waitLine(t, "done  inventory order_items")
	cont := c.stop(t)
	proxy.down()
	lostAt := time.Now()
	cont()

	code, log := c.wait(t)
	took := time.Since(lostAt)
	t.Logf("the run ended %s after the server went away", took.Round(time.Millisecond))
	if code != exitFailed {
		t.Fatalf("exit %d after the server went away, want %d:\n%s", code, exitFailed, log)
	}
	last := lastLine(log)
	if !strings.Contains(last, "the database stopped answering") || !strings.Contains(last, "continue with --resume once the database answers") {
		t.Errorf("last line: %s", last)
	}
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, " stopped (") {
			t.Errorf("the run claims a stop reason: %s", line)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "report.json")); !os.IsNotExist(err) {
		t.Errorf("a report was written for a run that lost its database (stat: %v)", err)
	}
	cat, err := catalog.Open(ctx, filepath.Join(out, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	run, err := cat.LatestRun(ctx, true)
	cat.Close()
	if err != nil || run.StopReason != "" {
		t.Fatalf("no unfinished run to resume: %v (%+v)", err, run)
	}

	proxy.up()
	res := runCLI(t, "--db", u.String(), "--out", out, "--format", "json", "-q", "--resume")
	if res.code != 0 {
		t.Fatalf("--resume once the server is back: exit %d\n%s", res.code, res.stderr)
	}
	_, r := readReport(t, out)
	if r.Outcome == nil || r.Outcome.Status != "complete" {
		t.Errorf("outcome after --resume: %+v", r.Outcome)
	}
	checkComplete(t, r, "customers", "order_items", "orders", "products")
	if len(r.Relationships) < 3 {
		t.Errorf("%d relationships after --resume, want the 3 declared", len(r.Relationships))
	}
}

// runCLI is run in a child process, for a run whose database connection
// must not share this process's pools.
func runCLI(t *testing.T, args ...string) result {
	t.Helper()
	c := startCLI(t, args...)
	code, log := c.wait(t)
	c.mu.Lock()
	defer c.mu.Unlock()
	return result{code: code, stdout: c.stdout.String(), stderr: log}
}
