package main

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/internal/load"
)

// mysqlHosts are the hosts a loopback client may be seen from, depending
// on the server's name resolution: a test user exists for each.
var mysqlHosts = []string{"%", "localhost", "127.0.0.1"}

// scratchMySQL creates an empty database on the MySQL/MariaDB test server
// and names a user for the test (created by the caller, with the grants it
// needs, on every host of mysqlHosts; dropped at the end with the
// database). It returns the database's DSN for that user (password
// included), its name, an administrator connection to it, and the user.
func scratchMySQL(t *testing.T, prefix, userPrefix, password string) (dsn, name string, admin *sql.DB, user string) {
	t.Helper()
	server := serverDSN(t, "DISCOVER_TEST_MYSQL")
	name = fmt.Sprintf("%s_%d", prefix, time.Now().UnixNano())
	rootDSN, drop, err := load.CreateDatabase(context.Background(), "mysql", server, name)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(rootDSN)
	if err != nil {
		drop()
		t.Fatal(err)
	}
	pass, _ := u.User.Password()
	admin, err = sql.Open("mysql", fmt.Sprintf("%s:%s@tcp(%s)/%s", u.User.Username(), pass, u.Host, name))
	if err != nil {
		drop()
		t.Fatal(err)
	}
	user = fmt.Sprintf("%s_%x", userPrefix, time.Now().UnixNano())
	t.Cleanup(func() {
		for _, host := range mysqlHosts {
			admin.Exec("DROP USER IF EXISTS " + mysqlAccount(user, host))
		}
		admin.Close()
		drop()
	})
	u.User = url.UserPassword(user, password)
	return u.String(), name, admin, user
}

// ended reports whether the process has closed its output: it is over.
func (c *cliChild) ended() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

func mysqlAccount(user, host string) string { return "'" + user + "'@'" + host + "'" }

// mysqlSessions lists the connections user holds to database db whose
// PROCESSLIST row matches condition, with the statement each runs.
func mysqlSessions(t *testing.T, admin *sql.DB, user, db, condition string) map[int64]string {
	t.Helper()
	rows, err := admin.Query(`SELECT ID, COALESCE(INFO, '') FROM information_schema.PROCESSLIST
		WHERE USER = ? AND DB = ? AND ID <> CONNECTION_ID() AND `+condition, user, db)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var info string
		if err := rows.Scan(&id, &info); err != nil {
			t.Fatal(err)
		}
		out[id] = info
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// killMySQL ends the connections ids (KILL CONNECTION) and returns how many
// it ended; one that ended in between is not counted.
func killMySQL(admin *sql.DB, ids map[int64]string) int {
	n := 0
	for id := range ids {
		if _, err := admin.Exec(fmt.Sprintf("KILL CONNECTION %d", id)); err == nil {
			n++
		}
	}
	return n
}

// TestMySQLFaultsMidRun (issue 9, "Faults", MySQL/MariaDB): while discover
// runs as a user with SELECT granted table by table, every connection it
// holds is killed once (KILL CONNECTION, with the process frozen), SELECT
// on one table is revoked once the table has been inventoried, then a
// connection is killed in the middle of a statement on a view that takes
// half a second per statement; another view takes longer than
// --query-timeout to read. Killed connections are retried after a pause:
// the very statement that was killed runs again on a new connection, and
// no task fails for them. The revoked table and the slow view fail their
// tasks, which are given up; the run goes on with the rest and exits 0;
// the report's uncertainties say what failed: the permission on the one,
// the timeout on the other.
func TestMySQLFaultsMidRun(t *testing.T) {
	ctx := context.Background()
	const password = "Fault-pw-41"
	dsn, name, admin, user := scratchMySQL(t, "faults", "rd", password)
	// seq builds the numbers 1 to 100000 from a table of digits, which
	// MariaDB and MySQL read alike (MariaDB's seq_1_to_n is its own).
	const seq = `(SELECT 1 + a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d AS seq
		FROM digits a, digits b, digits c, digits e, digits f) n`
	stmts := []string{
		`CREATE TABLE digits (d INT PRIMARY KEY)`,
		`INSERT INTO digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)`,
		`CREATE TABLE customers (id INT PRIMARY KEY, email VARCHAR(100) NOT NULL, country CHAR(2))`,
		`CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL, amount DECIMAL(10,2), status VARCHAR(10),
			FOREIGN KEY (customer_id) REFERENCES customers (id))`,
		`CREATE TABLE products (id INT PRIMARY KEY, name VARCHAR(50), price DECIMAL(8,2))`,
		`CREATE TABLE secret (id INT PRIMARY KEY, code VARCHAR(40))`,
		`CREATE TABLE pause_base (id INT PRIMARY KEY, label VARCHAR(10))`,
		`CREATE TABLE slow_base (id INT PRIMARY KEY, bucket INT)`,
		`INSERT INTO customers SELECT seq, CONCAT('user', seq, '@example.com'), ELT(1 + seq % 4, 'FR', 'DE', 'US', 'JP') FROM ` + seq + ` WHERE seq <= 2000`,
		`INSERT INTO orders SELECT seq, 1 + seq % 2000, (seq % 500) + 0.99, ELT(1 + seq % 3, 'new', 'paid', 'shipped') FROM ` + seq + ` WHERE seq <= 20000`,
		`INSERT INTO products SELECT seq, CONCAT('product ', seq), seq % 90 + 0.5 FROM ` + seq + ` WHERE seq <= 500`,
		`INSERT INTO secret SELECT seq, MD5(seq) FROM ` + seq + ` WHERE seq <= 1000`,
		`INSERT INTO pause_base SELECT seq, CONCAT('label ', seq) FROM ` + seq + ` WHERE seq <= 5`,
		`INSERT INTO slow_base SELECT seq, seq % 7 FROM ` + seq + ` WHERE seq <= 100`,
		// Every statement that reads pause_v takes 0.5 s (0.1 s a row),
		// well within the timeout: time to kill it while it runs.
		`CREATE VIEW pause_v AS SELECT id, label FROM pause_base WHERE SLEEP(0.1) = 0`,
		// Reading slow_v whole takes 20 s (0.2 s a row).
		`CREATE VIEW slow_v AS SELECT id, bucket FROM slow_base WHERE SLEEP(0.2) = 0`,
		`ANALYZE TABLE customers, orders, products, secret`,
	}
	readable := []string{"customers", "orders", "products", "secret", "pause_v", "slow_v"}
	for _, host := range mysqlHosts {
		acct := mysqlAccount(user, host)
		stmts = append(stmts, "CREATE USER "+acct+" IDENTIFIED BY '"+password+"'")
		// Table by table, so that one grant can be taken back; the base
		// tables of the views stay hidden from the user.
		for _, tb := range readable {
			stmts = append(stmts, "GRANT SELECT ON "+name+"."+tb+" TO "+acct)
		}
	}
	for _, s := range stmts {
		if _, err := admin.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}

	out := t.TempDir()
	// One task at a time, so that the permission goes after the table was
	// inventoried and before it is profiled (pause_v, profiled between the
	// two, takes seconds), whatever the machine's speed.
	c := startCLI(t, "--db", dsn, "--out", out, "--progress", "plain", "-v", "--format", "json",
		"--query-timeout", "2s", "--parallel", "1")
	c.waitLine(t, "done  inventory secret")

	// Frozen mid-run: revoke, and end every connection discover holds.
	cont := c.stop(t)
	var err error
	for _, host := range mysqlHosts {
		if _, err = admin.ExecContext(ctx, "REVOKE SELECT ON "+name+".secret FROM "+mysqlAccount(user, host)); err != nil {
			break
		}
	}
	var idle int
	if err == nil {
		idle = killMySQL(admin, mysqlSessions(t, admin, user, name, "TRUE"))
	}
	cont()
	if err != nil {
		t.Fatal(err)
	}
	if idle == 0 {
		t.Fatal("discover held no connection to kill while frozen: the fault was not injected")
	}

	// Then one connection in the middle of a statement on pause_v, as soon
	// as there is one, and the same statement again on a new connection:
	// the retry.
	running := `COMMAND = 'Query' AND INFO LIKE '%pause_v%'`
	var killedID int64
	var killedSQL string
	for deadline := time.Now().Add(time.Minute); killedID == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) || c.ended() {
			t.Fatalf("no statement on pause_v within a minute, before the run ended:\n%s", c.log())
		}
		for id, info := range mysqlSessions(t, admin, user, name, running) {
			if killMySQL(admin, map[int64]string{id: info}) == 1 {
				killedID, killedSQL = id, info
				break
			}
		}
	}
	retried := false
	for deadline := time.Now().Add(time.Minute); !retried; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) || c.ended() {
			t.Fatalf("the statement killed mid-run was not run again (within a minute, before the run ended): %s\n%s", killedSQL, c.log())
		}
		for id, info := range mysqlSessions(t, admin, user, name, running) {
			retried = retried || id != killedID && info == killedSQL
		}
	}
	t.Logf("killed %d connections while frozen, then connection %d running %.120q, which ran again on another", idle, killedID, killedSQL)

	code, log := c.wait(t)
	// The revoked table and the slow view could not be read: the run is
	// incomplete, and says so.
	if code != exitIncomplete {
		t.Fatalf("exit %d after the faults, want %d (incomplete):\n%s", code, exitIncomplete, log)
	}
	// A statement ended by its time limit (slow_v) is no dropped
	// connection, whatever else its error says. Server error codes are
	// matched as the driver writes them ("Error 1317 (70100)"): a bare
	// number also matches the random digits of the database's name.
	checkFailedTasks(t, log, func(line string) bool {
		return !strings.Contains(line, "max_statement_time") && containsAny(line, "invalid connection", "bad connection",
			"Error 1927", "Error 2006", "Error 2013", "Error 1317", "interrupted", "EOF", "connection reset", "broken pipe")
	})
	_, r := readReport(t, out)
	checkComplete(t, r, "customers", "orders", "products", "pause_v")
	for _, u := range r.Uncertainties {
		if strings.Contains(u, "pause_v") {
			t.Errorf("an uncertainty about pause_v, whose killed statement should have been retried: %s", u)
		}
	}
	checkFaultedReport(t, r, log, "denied")
}
