package star

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"
	"database/sql"
)

func TestTmpTime(t *testing.T) {
	s, err := strconv.ParseFloat(os.Getenv("STAR_SCALE"), 64)
	if err != nil {
		t.Skip()
	}
	path := os.Getenv("STAR_OUT")
	os.Remove(path)
	start := time.Now()
	if err := Generate(context.Background(), path, s); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	t.Logf("scale %v: %v, %d bytes", s, time.Since(start), fi.Size())
	db, _ := sql.Open("sqlite", path)
	defer db.Close()
	for _, tb := range Tables(s) {
		st := time.Now()
		var n int64
		db.QueryRow("SELECT count(*) FROM " + tb.Name).Scan(&n)
		_ = st
		t.Logf("%s %d %d", tb.Name, tb.Rows, n)
	}
}
