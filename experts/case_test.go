package experts_test

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/catalog"
	"github.com/discover-db/discover/experts"
	"github.com/discover-db/discover/experts/advice"
	"github.com/discover-db/discover/experts/query"
	"github.com/discover-db/discover/experts/relations"
	"github.com/discover-db/discover/experts/rules"
	"github.com/discover-db/discover/experts/semantic"
	"github.com/discover-db/discover/experts/statistical"
	"github.com/discover-db/discover/experts/structural"
	"github.com/discover-db/discover/internal/expertstest"
	"github.com/discover-db/discover/internal/pgscratch"
	"github.com/discover-db/discover/orchestrator"
	"github.com/discover-db/discover/warehouse"
	"github.com/discover-db/discover/warehouse/mysql"
	"github.com/discover-db/discover/warehouse/postgres"
)

// Names that differ only in case are two tables where the engine says so:
// PostgreSQL's "Users" and users, and MariaDB's with lower_case_table_names
// = 0 (Linux's default). Both hold ids of their own (users 1–200, Users
// 1001–1050, so that the data tells the targets apart), "Users".login_user_id
// references users, and orders references each. A discovery — with the
// references declared, and inferred from the data alone — keeps three
// tables, finds each reference with its real target, turns none into a
// self-reference, and settles every test of them (a test of the wrong
// table fails on a column it lacks, and leaves the claim inconclusive).
var caseRelations = []string{
	"Users(login_user_id)->users(id)",
	"orders(Users_id)->Users(id)",
	"orders(user_id)->users(id)",
}

func caseStatements(q func(string) string, fk bool) []string {
	ref := func(s string) string {
		if fk {
			return " REFERENCES " + s
		}
		return ""
	}
	return []string{
		"CREATE TABLE users (id INTEGER PRIMARY KEY, email VARCHAR(40))",
		"CREATE TABLE " + q("Users") + " (id INTEGER PRIMARY KEY, name VARCHAR(40), login_user_id INTEGER" + ref("users(id)") + ")",
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER" + ref("users(id)") + ", " +
			q("Users_id") + " INTEGER" + ref(q("Users")+"(id)") + ", amount INTEGER)",
		"INSERT INTO users SELECT g, CONCAT('u', g, '@example.org') FROM " + series(1, 200),
		"INSERT INTO " + q("Users") + " SELECT 1000 + g, CONCAT('name ', g), 1 + (g * 7) % 40 FROM " + series(1, 50),
		"INSERT INTO orders SELECT g, 1 + (g * 13) % 200, 1001 + (g * 3) % 50, g % 97 FROM " + series(1, 1000),
	}
}

// series is a derived table of integers lo..hi in column g, in SQL both
// engines read (MariaDB has no generate_series).
func series(lo, hi int) string {
	return fmt.Sprintf(`(SELECT d1.n + 10 * d2.n + 100 * d3.n + %d AS g FROM
		(SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) d1,
		(SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) d2,
		(SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) d3
		WHERE d1.n + 10 * d2.n + 100 * d3.n + %d <= %d) s`, lo, lo, hi)
}

func TestCaseDistinctNamesPostgres(t *testing.T) {
	server := pgscratch.Server(t)
	for _, declared := range []bool{true, false} {
		t.Run(fmt.Sprintf("declared=%v", declared), func(t *testing.T) {
			dsn, _, admin := pgscratch.Database(t, server, "casenames")
			exec(t, admin, caseStatements(func(s string) string { return `"` + s + `"` }, declared)...)
			exec(t, admin, "ANALYZE")
			src, err := postgres.Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			checkCaseDistinct(t, src)
		})
	}
}

func TestCaseDistinctNamesMySQL(t *testing.T) {
	server := mysqlServer(t)
	for _, declared := range []bool{true, false} {
		t.Run(fmt.Sprintf("declared=%v", declared), func(t *testing.T) {
			dsn, admin := mysqlScratch(t, server, "casenames")
			var lower int
			if err := admin.QueryRow("SELECT @@lower_case_table_names").Scan(&lower); err != nil {
				t.Fatal(err)
			}
			if lower != 0 {
				t.Skipf("lower_case_table_names = %d: the server folds table names itself", lower)
			}
			exec(t, admin, caseStatements(func(s string) string { return "`" + s + "`" }, declared)...)
			exec(t, admin, "ANALYZE TABLE users, `Users`, orders")
			src, err := mysql.Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			checkCaseDistinct(t, src)
		})
	}
}

func exec(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func checkCaseDistinct(t *testing.T, src warehouse.Source) {
	t.Helper()
	ctx := context.Background()
	cat := expertstest.Catalog(t)
	run := catalog.Run{ID: "casenames", Dialect: src.Dialect().Name(), Database: src.Database(), StartedAt: time.Now().UTC()}
	if err := cat.StartRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	orc := &orchestrator.Orchestrator{
		Source: src, Catalog: cat,
		Experts: []experts.Expert{structural.New(), relations.New(), statistical.New(), semantic.New(), rules.New(), query.New(), advice.New()},
		Config: orchestrator.Config{MaxIterations: 20, TargetConfidence: 0.95, TargetCoverage: 0.95, Parallel: 2,
			Options: experts.Options{SampleRows: 1_000_000, QueryTimeout: time.Minute}},
	}
	if _, err := orc.Run(ctx, run); err != nil {
		t.Fatalf("discovery: %v", err)
	}
	list := func(kind string) []catalog.Entry {
		es, err := cat.List(ctx, catalog.Filter{Kind: kind, RunID: run.ID})
		if err != nil {
			t.Fatal(err)
		}
		return es
	}
	var tables []string
	for _, e := range list(catalog.KindTable) {
		var d catalog.TableDoc
		if e.Decode(&d) == nil && !strings.Contains(e.Key, ":") {
			tables = append(tables, d.Name)
		}
	}
	sort.Strings(tables)
	if got := strings.Join(tables, " "); got != "Users orders users" {
		t.Errorf("tables %q, want Users orders users", got)
	}
	var rels []string
	for _, e := range list(catalog.KindRelationship) {
		var r catalog.RelationshipDoc
		if err := e.Decode(&r); err != nil {
			t.Fatal(err)
		}
		rels = append(rels, e.Key)
		if r.FromTable == r.ToTable {
			t.Errorf("self-reference %s (%s)", e.Key, r.Source)
		}
		if r.Source == "declared" && e.Confidence < 0.9 {
			t.Errorf("%s (%s): confidence %.2f: its tests did not confirm it", e.Key, r.Source, e.Confidence)
		}
	}
	sort.Strings(rels)
	if got, want := strings.Join(rels, " "), strings.Join(caseRelations, " "); got != want {
		t.Errorf("relationships\n  %s\nwant\n  %s", got, want)
	}
	for _, e := range list(catalog.KindHypothesis) {
		var h catalog.HypothesisDoc
		if e.Decode(&h) == nil && h.Status != "confirmed" && h.Status != "refuted" {
			t.Errorf("hypothesis %s %s: %s", h.ID, h.Status, h.Statement)
		}
	}
	for _, e := range list(catalog.KindUncertainty) {
		var u catalog.UncertaintyDoc
		if strings.HasPrefix(e.Key, "connection") {
			continue // the test servers' superuser, said once per run
		}
		if e.Decode(&u) == nil && (strings.Contains(u.Description, "Users") || strings.Contains(u.Description, "users")) {
			t.Errorf("uncertainty %s: %s", e.Key, u.Description)
		}
	}
}
