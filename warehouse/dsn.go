package warehouse

import (
	"net/url"
	"regexp"
	"strings"
)

// Scheme classifies a DSN (CONTRACT.md, "DSN forms") and returns the part the
// engine needs.
//
//   - A bare path ("shop.db", "./x.sqlite", "/abs/path", "C:\data\x.db"),
//     "sqlite://path", "sqlite:path" and "file:path" give "sqlite" and the
//     file path. "sqlite:" forms are taken literally, so a path may hold
//     spaces, '?' or '#'; "file:" is a SQLite URI and is decoded as one
//     (query and fragment dropped, %XX unescaped, "//localhost" authority
//     allowed).
//   - "postgres://" and "postgresql://" give "postgres"; "mysql://",
//     "duckdb://" and "trino://" give their name. rest is the whole DSN,
//     because those drivers parse URLs themselves.
//   - Any other "xxx://" gives the scheme lowercased, unchanged otherwise, for
//     the caller to reject by name; rest is the whole DSN.
//   - An empty DSN gives ("", "").
//
// Only "name://" marks a scheme (besides sqlite: and file:), so a Windows
// drive letter or a file name with a colon stays a path.
func Scheme(dsn string) (scheme, rest string) {
	if dsn == "" {
		return "", ""
	}
	if name, after, ok := strings.Cut(dsn, "://"); ok && validSchemeName(name) {
		lower := strings.ToLower(name)
		switch lower {
		case "sqlite", "sqlite3":
			return "sqlite", after
		case "file":
			return "sqlite", fileURIPath(dsn)
		case "postgres", "postgresql":
			return "postgres", dsn
		default:
			return lower, dsn
		}
	}
	if p, ok := cutPrefixFold(dsn, "sqlite:"); ok {
		return "sqlite", p
	}
	if _, ok := cutPrefixFold(dsn, "file:"); ok {
		return "sqlite", fileURIPath(dsn)
	}
	return "sqlite", dsn
}

// validSchemeName follows RFC 3986 (ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ))
// and demands two characters, so "./a://b" and "C://x" stay paths.
func validSchemeName(s string) bool {
	if len(s) < 2 {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return true
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// fileURIPath extracts the file name from a SQLite "file:" URI the way SQLite
// does (https://www.sqlite.org/uri.html), so that what we stat is what SQLite
// would have opened.
func fileURIPath(dsn string) string {
	p, _ := cutPrefixFold(dsn, "file:")
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if auth, ok := strings.CutPrefix(p, "//"); ok {
		host, path, found := strings.Cut(auth, "/")
		if !found {
			path = ""
		} else {
			path = "/" + path
		}
		// A foreign host cannot be a local file; keep it visible in the
		// "no such file" error rather than silently dropping it.
		if host != "" && !strings.EqualFold(host, "localhost") {
			return "//" + auth
		}
		p = path
	}
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	return p
}

// secretKey matches parameter names that carry secrets in key=value DSNs,
// URL queries and JDBC-style strings: password, sslpassword, pwd, passwd,
// secret, aws_secret_access_key, token, api_key, …
var secretKey = `[A-Za-z0-9_.\-]*(?i:pass(?:word|wd)?|pwd|secret|token|api_?key|access_?key|credentials?)[A-Za-z0-9_.\-]*`

// secretParam matches key=value where the value is single-quoted (libpq
// allows \' inside), double-quoted, or runs to the next separator.
var secretParam = regexp.MustCompile(`(^|[\s?&;,(])(` + secretKey + `)(\s*=\s*)('(?:[^'\\]|\\.)*'|"[^"]*"|[^\s&;,)]*)`)

// Redact returns dsn with every password replaced by "***", for logs and
// reports. It redacts more than it must rather than less: a DSN that only
// looks like it carries a password is redacted too.
//
// Handled: URL userinfo (scheme://user:pass@host/… → scheme://user:***@host/…,
// the password may itself contain '@', ':' or '/'), MySQL's
// user:pass@tcp(host:port)/db with or without mysql://, and secret-looking
// key=value parameters in queries and libpq/JDBC strings (password=x,
// sslpassword='a b', Pwd=x;).
func Redact(dsn string) string {
	out := dsn
	if name, after, ok := strings.Cut(dsn, "://"); ok && validSchemeName(name) {
		out = name + "://" + redactUserinfo(after, true)
	} else {
		out = redactUserinfo(dsn, false)
	}
	return secretParam.ReplaceAllString(out, "${1}${2}${3}***")
}

// redactUserinfo masks the password in "user:pass@rest". The userinfo ends at
// the last '@' before the query, because a password may contain '@' but a
// host may not; when the password itself holds '?', the last '@' overall is
// used instead, which may over-redact a query holding '@' but never leaks.
func redactUserinfo(s string, isURL bool) string {
	q := strings.IndexByte(s, '?')
	if q < 0 {
		q = len(s)
	}
	at := strings.LastIndexByte(s[:q], '@')
	if at < 0 {
		at = strings.LastIndexByte(s, '@')
	}
	if at < 0 {
		return s
	}
	user, pass, hasPass := strings.Cut(s[:at], ":")
	if !hasPass || pass == "" {
		return s
	}
	// Without a scheme only MySQL's user:pass@net(addr)/db form carries
	// userinfo; a path such as "./a:b@c.db" or "C:\x@y.db" must stay intact.
	if !isURL && !mysqlNetAddr.MatchString(s[at+1:]) && strings.ContainsAny(s[:at], `/\`) {
		return s
	}
	return user + ":***" + s[at:]
}

// mysqlNetAddr matches the start of go-sql-driver's "net(addr)" after the '@'.
var mysqlNetAddr = regexp.MustCompile(`^[a-z0-9]+\(`)
