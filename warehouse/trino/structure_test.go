package trino

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// A user refused the system catalog's table comments still gets every
// table, with column comments and view definitions: only the table
// comments are missing. The refused statement ends its transaction; the
// next runs in a new one.
func TestTablesStructureRefusedComments(t *testing.T) {
	q := "SELECT schema_name, table_name, comment FROM system.metadata.table_comments WHERE catalog_name = 'hive' " +
		"AND schema_name = 'sales' AND comment IS NOT NULL ORDER BY schema_name, table_name"
	fixture := func(f *fakeCoordinator) {
		f.fixtures[q] = errResult("PERMISSION_DENIED", "USER_ERROR", "Access Denied: Cannot select from table system.metadata.table_comments")
	}
	onBoth(t, fixture, func(t *testing.T, tg target) {
		s := tg.openAs(t, "bob", "/hive/sales")
		got, err := s.Tables(context.Background())
		if err != nil {
			t.Fatalf("Tables: %v", err)
		}
		want := salesTables("")
		want[0].Comment = ""
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Tables:\n got %+v\nwant %+v", got, want)
		}
		if tg.fake == nil {
			return
		}
		stmts := tg.fake.statements()
		i := slices.Index(stmts, q)
		if i < 0 || !slices.Equal(stmts[i+1:], []string{"ROLLBACK", "START TRANSACTION READ ONLY", s.viewsSQL(),
			`SHOW CREATE TABLE "customers"`, `SHOW CREATE TABLE "orders"`, "ROLLBACK"}) {
			t.Errorf("after the refused statement: %q", stmts[max(i, 0):])
		}
	})
}

// A failure that is not the user's (the cluster's own) fails Tables, and
// says what was being read.
func TestTablesStructureClusterError(t *testing.T) {
	f := newFakeCoordinator(t).start()
	s := openFake(t, f, "/hive/sales")
	f.fixtures[s.viewsSQL()] = errResult("GENERIC_INTERNAL_ERROR", "INTERNAL_ERROR", "metastore down")
	_, err := s.Tables(context.Background())
	if err == nil || !strings.Contains(err.Error(), "introspect view definitions of hive") || !strings.Contains(err.Error(), "metastore down") {
		t.Errorf("Tables = %v; want the views' failure", err)
	}
}
