package warehouse

import (
	"strings"
	"testing"
)

func TestSchemeDSN(t *testing.T) {
	cases := []struct{ dsn, scheme, rest string }{
		{"", "", ""},
		{"shop.db", "sqlite", "shop.db"},
		{"./x.sqlite", "sqlite", "./x.sqlite"},
		{"/abs/path", "sqlite", "/abs/path"},
		{"/abs/my shop?.db", "sqlite", "/abs/my shop?.db"},
		{`C:\data\shop.db`, "sqlite", `C:\data\shop.db`},
		{"C:/data/shop.db", "sqlite", "C:/data/shop.db"},
		{"./a://b.db", "sqlite", "./a://b.db"},
		{"name:with:colons.db", "sqlite", "name:with:colons.db"},
		{"sqlite://shop.db", "sqlite", "shop.db"},
		{"sqlite:///abs/shop.db", "sqlite", "/abs/shop.db"},
		{"SQLite://shop.db", "sqlite", "shop.db"},
		{"sqlite3://shop.db", "sqlite", "shop.db"},
		{"sqlite:shop.db", "sqlite", "shop.db"},
		{"sqlite:/abs/a b#1.db", "sqlite", "/abs/a b#1.db"},
		{"file:shop.db", "sqlite", "shop.db"},
		{"file:shop.db?mode=ro", "sqlite", "shop.db"},
		{"file:///abs/a%20b%3F.db?cache=shared#x", "sqlite", "/abs/a b?.db"},
		{"file://localhost/abs/x.db", "sqlite", "/abs/x.db"},
		{"file:/abs/x.db", "sqlite", "/abs/x.db"},
		{"postgres://u:p@h/db", "postgres", "postgres://u:p@h/db"},
		{"postgresql://h/db", "postgres", "postgresql://h/db"},
		{"mysql://u:p@tcp(h:3306)/db", "mysql", "mysql://u:p@tcp(h:3306)/db"},
		{"duckdb://x.duckdb", "duckdb", "duckdb://x.duckdb"},
		{"trino://h:8080/cat", "trino", "trino://h:8080/cat"},
		{"oracle://h/db", "oracle", "oracle://h/db"},
		{"MSSQL://h/db", "mssql", "MSSQL://h/db"},
	}
	for _, c := range cases {
		s, r := Scheme(c.dsn)
		if s != c.scheme || r != c.rest {
			t.Errorf("Scheme(%q) = %q, %q; want %q, %q", c.dsn, s, r, c.scheme, c.rest)
		}
	}
}

func TestRedactDSN(t *testing.T) {
	cases := []struct{ dsn, want string }{
		{"shop.db", "shop.db"},
		{"/data/a:b@c.db", "/data/a:b@c.db"},
		{`C:\x@y.db`, `C:\x@y.db`},
		{"postgres://bob:s3cret@db.example.com:5432/shop?sslmode=require",
			"postgres://bob:***@db.example.com:5432/shop?sslmode=require"},
		{"postgres://bob@db/shop", "postgres://bob@db/shop"},
		{"postgres://db:5432/shop", "postgres://db:5432/shop"},
		{"postgres://bob:p@ss:w/rd@db/shop", "postgres://bob:***@db/shop"},
		{"postgres://bob:pa?ss@db/shop", "postgres://bob:***@db/shop"},
		{"postgres://db/shop?user=bob&password=s3cret&sslmode=disable",
			"postgres://db/shop?user=bob&password=***&sslmode=disable"},
		{"mysql://root:s3cret@tcp(127.0.0.1:3306)/shop?parseTime=true",
			"mysql://root:***@tcp(127.0.0.1:3306)/shop?parseTime=true"},
		{"mysql://root:s3cret@127.0.0.1:3306/shop", "mysql://root:***@127.0.0.1:3306/shop"},
		{"root:s3/cr@t@tcp(127.0.0.1:3306)/shop", "root:***@tcp(127.0.0.1:3306)/shop"},
		{"host=db user=bob password=s3cret dbname=shop", "host=db user=bob password=*** dbname=shop"},
		{"host=db password='s3 cr\\'et' dbname=shop", "host=db password=*** dbname=shop"},
		{"Server=db;Uid=bob;Pwd=s3cret;Database=shop", "Server=db;Uid=bob;Pwd=***;Database=shop"},
		{"trino://bob@h:8080/hive?access_token=abc.def", "trino://bob@h:8080/hive?access_token=***"},
		{"duckdb://x.duckdb?s3_secret_access_key=AKIA", "duckdb://x.duckdb?s3_secret_access_key=***"},
	}
	for _, c := range cases {
		if got := Redact(c.dsn); got != c.want {
			t.Errorf("Redact(%q) = %q; want %q", c.dsn, got, c.want)
		}
	}
}

// TestRedactNeverLeaks checks the one property that matters across forms:
// the password text is gone, whatever it contains.
func TestRedactNeverLeaks(t *testing.T) {
	for _, pw := range []string{"s3cret", "p@ss", "a:b", "x/y", "q?r", "h#sh", "pa ss"} {
		for _, form := range []string{
			"postgres://bob:%s@db/shop",
			"mysql://bob:%s@tcp(h:3306)/db",
			"bob:%s@tcp(h:3306)/db",
			"postgres://db/shop?password=%s",
		} {
			dsn := strings.Replace(form, "%s", pw, 1)
			if got := Redact(dsn); strings.Contains(got, pw) {
				t.Errorf("Redact(%q) = %q still holds the password", dsn, got)
			}
		}
	}
}
