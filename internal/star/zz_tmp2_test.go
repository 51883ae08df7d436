package star

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestTmpPer(t *testing.T) {
	s, err := strconv.ParseFloat(os.Getenv("STAR_PER"), 64)
	if err != nil {
		t.Skip()
	}
	path := "/tmp/startmp/per.db"
	os.Remove(path)
	db, _ := sql.Open("sqlite", path)
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	for _, q := range []string{`PRAGMA journal_mode = OFF`, `PRAGMA synchronous = OFF`, `PRAGMA cache_size = -524288`, `PRAGMA temp_store = MEMORY`, `BEGIN`} {
		db.Exec(q)
	}
	for _, tb := range Tables(s) {
		st := time.Now()
		db.Exec(tb.DDL)
		f := tb.fill
		if os.Getenv("NOLIMIT") != "" {
			f = strings.ReplaceAll(f, " LIMIT -1 OFFSET 0", "")
		}
		if os.Getenv("NOPK") != "" {
			db.Exec("DROP TABLE " + tb.Name)
			i := strings.Index(tb.DDL, ",\n\tPRIMARY KEY")
			if i > 0 {
				db.Exec(tb.DDL[:i] + "\n)")
			} else {
				db.Exec(tb.DDL)
			}
		}
		if _, err := db.ExecContext(ctx, fmt.Sprintf("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < %d) ", tb.Rows)+f); err != nil {
			t.Fatal(err)
		}
		t.Logf("%-18s %9d %v", tb.Name, tb.Rows, time.Since(st))
	}
	db.Exec("COMMIT")
	st := time.Now()
	db.Exec("ANALYZE")
	t.Logf("analyze %v", time.Since(st))
}
