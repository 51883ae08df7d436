package mysql

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	mysqldrv "github.com/go-sql-driver/mysql"
)

// serverDSN is the DSN of a server the tests may fill (root, every
// privilege); .ci/start-servers prints it.
func serverDSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv("DISCOVER_TEST_MYSQL")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("DISCOVER_TEST_MYSQL not set: .ci/run starts the servers")
		}
		t.Skip(`DISCOVER_TEST_MYSQL not set: run eval "$(.ci/start-servers)" to test against MariaDB`)
	}
	return dsn
}

// adminConfig is the test server's configuration with every privilege,
// for building fixtures; it bypasses this package's read-only layers.
func adminConfig(t testing.TB) *mysqldrv.Config {
	t.Helper()
	cfg, err := parseDSN(serverDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// adminDB connects with every privilege to database db ("" for none).
func adminDB(t testing.TB, db string) *sql.DB {
	t.Helper()
	cfg := adminConfig(t)
	cfg.DBName = db
	conn, err := mysqldrv.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	pool := sql.OpenDB(conn)
	t.Cleanup(func() { pool.Close() })
	return pool
}

var unsafeName = regexp.MustCompile(`[^a-z0-9]+`)

// uniqueName is a fresh database or user name derived from the test's name,
// so tests can run in parallel and again after a crash.
func uniqueName(t testing.TB, prefix string) string {
	t.Helper()
	b := make([]byte, 4)
	rand.Read(b)
	base := unsafeName.ReplaceAllString(strings.ToLower(t.Name()), "_")
	if len(base) > 30 {
		base = base[:30]
	}
	return prefix + base + "_" + hex.EncodeToString(b)
}

// createDB creates an empty utf8mb4 database, dropped when the test ends.
func createDB(t testing.TB, admin *sql.DB, prefix string) string {
	t.Helper()
	name := uniqueName(t, prefix)
	exec(t, admin, "CREATE DATABASE "+QuoteIdent(name)+" CHARACTER SET utf8mb4 COLLATE utf8mb4_bin")
	t.Cleanup(func() {
		if _, err := admin.Exec("DROP DATABASE IF EXISTS " + QuoteIdent(name)); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	})
	return name
}

func exec(t testing.TB, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// dsnFor is a URL-form DSN for db on the test server as user.
func dsnFor(t testing.TB, db, user, password string) string {
	t.Helper()
	cfg := adminConfig(t)
	return "mysql://" + url.UserPassword(user, password).String() + "@" + cfg.Addr + "/" + url.PathEscape(db)
}

// rootDSN is a URL-form DSN for db with the test server's credentials.
func rootDSN(t testing.TB, db string) string {
	t.Helper()
	cfg := adminConfig(t)
	return dsnFor(t, db, cfg.User, cfg.Passwd)
}

func open(t testing.TB, dsn string) *Source {
	t.Helper()
	s, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// fixture builds the test database: every shape Tables must get right,
// names that need quoting, and one column of every common type. The
// referenced database holds the parent of a cross-database foreign key.
// It returns the database's name; inserts is how many INSERT statements it
// ran (the status-counter test accounts for them).
func fixture(t *testing.T, admin *sql.DB) (db, ref string, inserts int) {
	t.Helper()
	// Dropped after db (cleanups run last-in first-out): the foreign key
	// into it must go first.
	ref = createDB(t, admin, "dref_")
	db = createDB(t, admin, "dt_")
	q := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, "$DB", QuoteIdent(db)), "$REF", QuoteIdent(ref))
	}
	stmts := []string{
		`CREATE TABLE $REF.region (id INT NOT NULL PRIMARY KEY, name VARCHAR(20))`,
		`INSERT INTO $REF.region VALUES (1, 'north'), (2, 'south')`,
		`CREATE TABLE $DB.customer (id INT NOT NULL, email VARCHAR(100) NOT NULL, name VARCHAR(50),
			PRIMARY KEY (id), UNIQUE KEY cust_email (email), KEY cust_name (name))`,
		// Columns declared in another order than the key's.
		"CREATE TABLE $DB.`order items` (line INT NOT NULL, order_id INT NOT NULL, sku VARCHAR(20), qty INT,\n" +
			"PRIMARY KEY (order_id, line))",
		"CREATE TABLE $DB.shipment_line (ship_id INT NOT NULL, order_id INT, line INT,\n" +
			"CONSTRAINT ship_item FOREIGN KEY (order_id, line) REFERENCES $DB.`order items` (order_id, line))",
		"CREATE TABLE $DB.`select` (`from` VARCHAR(10), `where` INT, UNIQUE KEY `from where` (`from`, `where`))",
		"CREATE TABLE $DB.`naïve` (`clé` VARCHAR(10) NOT NULL PRIMARY KEY, valeur DOUBLE, region_id INT, cust_id INT,\n" +
			"CONSTRAINT naive_region FOREIGN KEY (region_id) REFERENCES $REF.region (id),\n" +
			"CONSTRAINT naive_cust FOREIGN KEY (cust_id) REFERENCES $DB.customer (id))",
		"CREATE TABLE $DB.`we``ird` (`k``ey` INT NOT NULL PRIMARY KEY, v VARCHAR(5))",
		`CREATE TABLE $DB.types (id INT NOT NULL PRIMARY KEY, i INT, big BIGINT UNSIGNED, amount DECIMAL(10,2),
			dbl DOUBLE, flt FLOAT, vc VARCHAR(20), txt TEXT, en ENUM('a','b'), st SET('x','y'), flag BOOLEAN,
			d DATE, dt DATETIME, ts TIMESTAMP NULL, j JSON, bl BLOB, bt BIT(1), yr YEAR, tm TIME, vb VARBINARY(8))`,
		"CREATE VIEW $DB.`big orders` AS SELECT s.ship_id, i.sku, i.qty FROM $DB.shipment_line AS s\n" +
			"JOIN $DB.`order items` AS i ON i.order_id = s.order_id AND i.line = s.line",
		`CREATE TABLE $DB.gone (a INT)`,
		`CREATE VIEW $DB.broken AS SELECT a FROM $DB.gone`,
		`DROP TABLE $DB.gone`,

		`INSERT INTO $DB.customer VALUES (1, 'a@x.org', 'Ann'), (2, 'b@x.org', 'Bob'), (3, 'c@x.org', NULL)`,
		"INSERT INTO $DB.`order items` VALUES (1, 10, 'S1', 2), (2, 10, 'S2', 1), (1, 11, 'S1', 5)",
		`INSERT INTO $DB.shipment_line VALUES (100, 10, 1), (100, 10, 2), (101, 11, 1), (102, NULL, NULL)`,
		"INSERT INTO $DB.`select` VALUES ('a', 1), ('b', 2)",
		"INSERT INTO $DB.`naïve` VALUES ('k', 1.5, 1, 1)",
		"INSERT INTO $DB.`we``ird` VALUES (1, 'x')",
		`INSERT INTO $DB.types VALUES
			(1, -7, 18446744073709551615, 12345.67, 3.5, 1.1, 'héllo', 'long text', 'b', 'x,y', TRUE,
			 '2024-01-31', '2024-01-31 10:11:12', '2024-02-01 08:00:00', '{"a": 1}', x'00ff10', b'1', 2024, '12:34:56', x'0102'),
			(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
			 NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
			(3, 0, 42, -0.50, -1e300, 0, '', '', 'a', '', FALSE,
			 '0000-00-00', '2024-02-29 23:59:59', NULL, '[]', x'', b'0', 1999, '-838:59:59', x'')`,
	}
	for _, s := range stmts {
		s = q(s)
		if strings.HasPrefix(s, "INSERT") {
			inserts++
		}
		exec(t, admin, s)
	}
	return db, ref, inserts
}

// waitIdle fails the test unless, within a few seconds, no statement runs
// in database db: an abandoned statement must not go on on the server.
func waitIdle(t *testing.T, admin *sql.DB, db, what string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		var n int
		err := admin.QueryRow(`SELECT COUNT(*) FROM information_schema.PROCESSLIST
			WHERE DB = ? AND COMMAND = 'Query' AND INFO NOT LIKE '%PROCESSLIST%'`, db).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the abandoned statement is still running on the server", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
