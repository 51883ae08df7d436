package warehouse

import (
	"slices"
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
		// libpq keyword/value strings are PostgreSQL DSNs, whole.
		{"host=db user=me password=s3cret dbname=x", "postgres", "host=db user=me password=s3cret dbname=x"},
		{"host=db password='s 3' dbname=x", "postgres", "host=db password='s 3' dbname=x"},
		{"host = db  password = x ", "postgres", "host = db  password = x "},
		{"dbname=shop", "postgres", "dbname=shop"},
		{"service=prod", "postgres", "service=prod"},
		{`host=db password=a\ b`, "postgres", `host=db password=a\ b`},
		{"host=db password='open", "postgres", "host=db password='open"},
		// …but not a file name that only holds an '='.
		{"data=2024.db", "sqlite", "data=2024.db"},
		{"./host=x.db", "sqlite", "./host=x.db"},
		{"sqlite:host=x.db", "sqlite", "host=x.db"},
		{"my host=1.db", "sqlite", "my host=1.db"},
		{"/data/host=db user=me.db", "sqlite", "/data/host=db user=me.db"},
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
		// libpq keyword/value: a bare value runs to the next space whatever
		// it holds; spaces around '='; quotes with \' inside.
		{"host=db user=me password = s3cret dbname=x", "host=db user=me password = *** dbname=x"},
		{"host=db password=a;b,c)d dbname=x", "host=db password=*** dbname=x"},
		{`host=db password=a\ b dbname=x`, "host=db password=*** dbname=x"},
		{"host=db password='s 3' sslpassword='k' dbname=x", "host=db password=*** sslpassword=*** dbname=x"},
		{"host=db password='never closed dbname=x", "host=db password=***"},
		// pgx (like libpq) skips the spaces after '=': the password is "dbname=x".
		{"host=db password= dbname=x", "host=db password= ***"},
		// A URL missing its '@': a "port" that is not a number is a password.
		{"mysql://root:secret/db", "mysql://root:***/db"},
		{"mysql://root:secret", "mysql://root:***"},
		{"mysql://root:se/cr/et/db", "mysql://root:***/db"},
		{"mysql://root:se?cret/db", "mysql://root:***/db"},
		{"postgres://me:s3cret/x", "postgres://me:***/x"},
		{"trinos://me:s3cret/c", "trinos://me:***/c"},
		{"mysql://user:pa:ss@tcp(h)/db", "mysql://user:***@tcp(h)/db"},
		// …while real ports, IPv6 hosts and multi-host lists stay.
		{"postgres://h:5432/db", "postgres://h:5432/db"},
		{"postgres://[::1]:5432/db", "postgres://[::1]:5432/db"},
		{"postgres://h1:5432,h2:5433/db?sslmode=disable", "postgres://h1:5432,h2:5433/db?sslmode=disable"},
		{"postgres://h1:5432,h2:pw/db", "postgres://h1:5432,h2:***/db"},
		{"trino://h:8080/cat", "trino://h:8080/cat"},
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
	for _, pw := range []string{"s3cret", "p@ss", "a:b", "x/y", "q?r", "h#sh", "pa ss", "a;b,c)d", "p%40ss"} {
		for _, form := range []string{
			"postgres://bob:%s@db/shop",
			"mysql://bob:%s@tcp(h:3306)/db",
			"bob:%s@tcp(h:3306)/db",
			"postgres://db/shop?password=%s",
			"host=db user=bob password=%s dbname=shop",
			"host=db user=bob password='%s' dbname=shop",
			"host=db user=bob password = '%s'",
			"mysql://bob:%s/db",
			"mysql://bob:%s",
			"trinos://bob:%s/c",
		} {
			dsn := strings.Replace(form, "%s", pw, 1)
			if got := Redact(dsn); strings.Contains(got, pw) {
				t.Errorf("Redact(%q) = %q still holds the password", dsn, got)
			}
		}
	}
}

// Secrets lists what Redact masks, also as the driver decodes it: quotes
// and backslashes of libpq, percent-escapes of URLs.
func TestSecrets(t *testing.T) {
	cases := []struct {
		dsn  string
		want []string
	}{
		{"shop.db", nil},
		{"postgres://h:5432/db", nil},
		{"postgres://me:p%40ss@h/db", []string{"p%40ss", "p@ss"}},
		{`host=h password='it\'s 3'`, []string{`'it\'s 3'`, "it's 3", `it\'s 3`}},
		{"host=h password=a;b", []string{"a;b"}},
		{"mysql://root:secret/db", []string{"secret"}},
		{"postgres://h/db?sslpassword=k%2By", []string{"k%2By", "k+y"}},
	}
	for _, c := range cases {
		got := Secrets(c.dsn)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("Secrets(%q) = %q; lacks %q", c.dsn, got, w)
			}
		}
		if c.want == nil && len(got) > 0 {
			t.Errorf("Secrets(%q) = %q; want none", c.dsn, got)
		}
	}
}
