package mysql

import (
	"context"
	"errors"
	"math"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/discover-db/discover/warehouse"
)

func TestParseDSN(t *testing.T) {
	for _, c := range []struct {
		dsn, user, pass, net, addr, db string
		params                         map[string]string
	}{
		{"mysql://root:pw@tcp(127.0.0.1:3307)/shop", "root", "pw", "tcp", "127.0.0.1:3307", "shop", nil},
		{"mysql://root:pw@127.0.0.1:3307/shop", "root", "pw", "tcp", "127.0.0.1:3307", "shop", nil},
		{"MySQL://root:pw@db.example.com/shop", "root", "pw", "tcp", "db.example.com:3306", "shop", nil},
		{"mysql://root@[::1]:3308/shop", "root", "", "tcp", "[::1]:3308", "shop", nil},
		{"mysql://root:pw@/shop", "root", "pw", "tcp", "127.0.0.1:3306", "shop", nil},
		{"mysql://root:pw@:3310/shop", "root", "pw", "tcp", "127.0.0.1:3310", "shop", nil},
		// URL form: percent-decoded; a literal '@' in the password works too.
		{"mysql://us%20er:p%40ss%2Fw@h:1/my%20db", "us er", "p@ss/w", "tcp", "h:1", "my db", nil},
		{"mysql://u:p@ss@h:1/db", "u", "p@ss", "tcp", "h:1", "db", nil},
		{"mysql://u:p/s#s:@h:1/db?x=a@b", "u", "p/s#s:", "tcp", "h:1", "db", map[string]string{"x": "a@b"}},
		{"mysql://u:50%off@h:1/db", "u", "50%off", "tcp", "h:1", "db", nil},
		// Driver form: taken literally, as the driver does.
		{"mysql://u:p@ss/w:rd@tcp(h:1)/db", "u", "p@ss/w:rd", "tcp", "h:1", "db", nil},
		{"mysql://u:p@unix(/run/mysqld/mysqld.sock)/db", "u", "p", "unix", "/run/mysqld/mysqld.sock", "db", nil},
		{"u:p@tcp(h:1)/db", "u", "p", "tcp", "h:1", "db", nil},
		// Extra parameters reach the driver in both forms; system variables
		// are kept for the driver to SET.
		{"mysql://u:p@h:1/db?sql_mode=%27ANSI%27&charset=utf8mb4", "u", "p", "tcp", "h:1", "db", map[string]string{"sql_mode": "'ANSI'"}},
		{"mysql://u:p@tcp(h:1)/db?sql_mode=%27ANSI%27", "u", "p", "tcp", "h:1", "db", map[string]string{"sql_mode": "'ANSI'"}},
	} {
		cfg, err := parseDSN(c.dsn)
		if err != nil {
			t.Errorf("%s: %v", c.dsn, err)
			continue
		}
		if cfg.User != c.user || cfg.Passwd != c.pass || cfg.Net != c.net || cfg.Addr != c.addr || cfg.DBName != c.db {
			t.Errorf("%s: user %q pass %q net %q addr %q db %q", c.dsn, cfg.User, cfg.Passwd, cfg.Net, cfg.Addr, cfg.DBName)
		}
		if c.params != nil && !reflect.DeepEqual(cfg.Params, c.params) {
			t.Errorf("%s: params %v, want %v", c.dsn, cfg.Params, c.params)
		}
		if cfg.Timeout != ConnectTimeout {
			t.Errorf("%s: timeout %s", c.dsn, cfg.Timeout)
		}
	}

	// What would change how values come back or loosen the read-only
	// promise is forced off; a connect timeout of the user's is kept.
	cfg, err := parseDSN("mysql://u:p@h:1/db?parseTime=true&multiStatements=true&allowAllFiles=true&interpolateParams=true&timeout=3s")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ParseTime || cfg.MultiStatements || cfg.AllowAllFiles || cfg.InterpolateParams || cfg.Timeout != 3*time.Second {
		t.Errorf("forced settings: %+v", cfg)
	}
}

func TestParseDSNBadInput(t *testing.T) {
	for _, c := range []struct{ dsn, msg string }{
		{"mysql://", "mysql: the DSN names no database"},
		{"mysql://u:secretpw@h:1", "mysql: the DSN names no database"},
		{"mysql://u:secretpw@h:1/", "mysql: the DSN names no database"},
		{"mysql://u:secretpw@tcp(h:1)/", "mysql: the DSN names no database"},
		{"mysql://u:secretpw@tcp(h:1/db", "mysql: malformed DSN mysql://u:***@tcp(h:1/db: invalid DSN"},
		{"mysql://u:secretpw@h:port/db", `mysql: malformed DSN mysql://u:***@h:port/db: invalid port ":port" after host`},
		{"mysql://u:secretpw@h:1/db?parseTime=maybe", "mysql: malformed DSN mysql://u:***@h:1/db?parseTime=maybe: invalid bool value: maybe"},
		{"mysql://u:secretpw@h:1/a/b", "mysql: malformed DSN mysql://u:***@h:1/a/b: database name \"a/b\" contains '/'"},
		{"mysql://u:secretpw@h:1/db#frag", "mysql: malformed DSN mysql://u:***@h:1/db#frag: '#' must be written %23"},
		{"mysql://u:secret/pw@h:x/db", `mysql: malformed DSN mysql://u:***@h:x/db: invalid port ":x" after host`},
		{"mysql://u:secret@pw@[::1/db", "mysql: malformed DSN mysql://u:***@[::1/db: missing ']' in host"},
		{"postgres://u:secretpw@h/db", "mysql: postgres://u:***@h/db is not a mysql:// DSN"},
	} {
		_, err := parseDSN(c.dsn)
		if !errors.Is(err, warehouse.ErrBadInput) {
			t.Errorf("%s: err = %v, want ErrBadInput", c.dsn, err)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, c.msg) || strings.Contains(msg, "secret") || strings.Contains(msg, "\n") {
			t.Errorf("%s: %q, want it to start with %q, in one line, without the password", c.dsn, msg, c.msg)
		}
	}
}

func TestQuote(t *testing.T) {
	s := &Source{}
	for in, want := range map[string]string{"a": "`a`", "order items": "`order items`", "we`ird": "`we``ird`", "``": "``````", "naïve": "`naïve`"} {
		if got := s.QuoteIdent(in); got != want {
			t.Errorf("QuoteIdent(%q) = %s, want %s", in, got, want)
		}
	}
	if got := s.QuoteTable(warehouse.TableName{Name: "t`1"}); got != "`t``1`" {
		t.Errorf("QuoteTable = %s", got)
	}
	if got := s.QuoteTable(warehouse.TableName{Schema: "other db", Name: "t"}); got != "`other db`.`t`" {
		t.Errorf("QuoteTable = %s", got)
	}
}

func TestConvert(t *testing.T) {
	for _, c := range []struct {
		typ  string
		in   any
		want any
	}{
		{"INT", int64(-3), int64(-3)},
		{"UNSIGNED BIGINT", uint64(7), int64(7)},
		{"UNSIGNED BIGINT", uint64(math.MaxUint64), "18446744073709551615"},
		{"FLOAT", float32(1.1), 1.1},
		{"DOUBLE", 2.5, 2.5},
		{"DECIMAL", []byte("10.50"), "10.50"},
		{"BIT", []byte{0x01}, int64(1)},
		{"BIT", []byte{0x01, 0x00}, int64(256)},
		{"BIT", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "18446744073709551615"},
		{"DATE", []byte("0000-00-00"), "0000-00-00"},
		{"DATETIME", []byte("2024-01-31 10:11:12.5"), "2024-01-31 10:11:12.5"},
		{"BLOB", []byte{0xff}, []byte{0xff}},
		{"VARBINARY", []byte("ab"), []byte("ab")},
		{"JSON", []byte(`{"a":1}`), `{"a":1}`},
		{"TEXT", []byte("héllo"), "héllo"},
		{"VARCHAR", []byte{0xff}, []byte{0xff}}, // not UTF-8: kept as bytes
		{"ENUM", []byte("b"), "b"},
		{"INT", []byte("12"), int64(12)}, // binary protocol or a driver change
		{"NULL", []byte(nil), nil},
		{"TEXT", nil, nil},
	} {
		if got := convert(c.in, kindOf(c.typ)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("convert(%#v, %s) = %#v (%T), want %#v", c.in, c.typ, got, got, c.want)
		}
	}
}

// TestOpenBadInput: every way a user can get the DSN wrong is ErrBadInput,
// one line, without the password, well within the connect timeout.
func TestOpenBadInput(t *testing.T) {
	t.Parallel()
	cfg := adminConfig(t)
	admin := adminDB(t, "")
	db := createDB(t, admin, "dt_")
	missing := uniqueName(t, "nope_")

	// A port that answers with something that is not MySQL.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"))
			c.Close()
		}
	}()

	for _, c := range []struct{ dsn, msg string }{
		{dsnFor(t, db, cfg.User, "wrongpw"), "mysql: access denied for user '" + cfg.User + "'"},
		{dsnFor(t, db, "nobody_here", "wrongpw"), "mysql: access denied for user 'nobody_here'"},
		{"mysql://" + cfg.User + ":wrongpw@tcp(127.0.0.1:1)/" + db, "mysql: cannot reach 127.0.0.1:1: connection refused"},
		{"mysql://" + cfg.User + ":wrongpw@127.0.0.1:1/" + db, "mysql: cannot reach 127.0.0.1:1: connection refused"},
		{"mysql://" + cfg.User + ":wrongpw@" + ln.Addr().String() + "/" + db, "mysql: cannot reach " + ln.Addr().String() + ": "},
		{dsnFor(t, missing, cfg.User, cfg.Passwd), `mysql: database "` + missing + `" does not exist`},
		{"mysql://" + cfg.User + ":wrongpw@" + cfg.Addr, "mysql: the DSN names no database"},
		{"mysql://garbage", "mysql: the DSN names no database"},
		{"mysql://u:wrongpw@tcp(" + cfg.Addr + "/" + db, "mysql: malformed DSN"},
		{"mysql://" + cfg.User + ":wrongpw@no-such-host.invalid:3306/" + db, "mysql: cannot reach no-such-host.invalid:3306: no such host"},
	} {
		start := time.Now()
		s, err := Open(context.Background(), c.dsn)
		if err == nil {
			s.Close()
			t.Errorf("%s: opened", c.dsn)
			continue
		}
		msg := err.Error()
		if !errors.Is(err, warehouse.ErrBadInput) {
			t.Errorf("%s: %q is not ErrBadInput", c.dsn, msg)
		}
		if !strings.HasPrefix(msg, c.msg) || strings.Contains(msg, "\n") {
			t.Errorf("%s: %q, want one line starting %q", c.dsn, msg, c.msg)
		}
		if strings.Contains(msg, "wrongpw") || cfg.Passwd != "" && strings.Contains(msg, cfg.Passwd) {
			t.Errorf("%s: %q shows the password", c.dsn, msg)
		}
		if d := time.Since(start); d > ConnectTimeout {
			t.Errorf("%s: took %s", c.dsn, d)
		}
	}

	// Both CONTRACT forms open the same database.
	for _, dsn := range []string{
		rootDSN(t, db),
		"mysql://" + cfg.User + ":" + cfg.Passwd + "@tcp(" + cfg.Addr + ")/" + db + "?charset=utf8mb4",
	} {
		s, err := Open(context.Background(), dsn)
		if err != nil {
			t.Errorf("%s: %v", warehouse.Redact(dsn), err)
			continue
		}
		if s.Database() != db {
			t.Errorf("Database = %q", s.Database())
		}
		s.Close()
	}
}

// A DSN whose "@" is missing puts the password where a port would be; the
// URL parser's complaint quotes it, and Open must not pass that on.
func TestMalformedDSNHidesThePassword(t *testing.T) {
	for _, dsn := range []string{"mysql://root:S3cretPw/db", "mysql://root:S3cretPw", "mysql://u:S3cretPw:x/db"} {
		_, err := Open(context.Background(), dsn)
		if err == nil || strings.Contains(err.Error(), "S3cretPw") {
			t.Errorf("Open(%q): %v", warehouse.Redact(dsn), err)
		}
	}
}
