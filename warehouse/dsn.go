package warehouse

import (
	"errors"
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
//   - A libpq keyword/value connection string ("host=db user=me
//     password='s 3' dbname=shop", see IsKeywordValue) gives "postgres"
//     and the whole DSN, which pgx parses itself.
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
	if IsKeywordValue(dsn) {
		return "postgres", dsn
	}
	return "sqlite", dsn
}

// libpqKeywords are the connection keywords of libpq (and pgx); a
// keyword/value string naming at least one of them is a PostgreSQL DSN.
var libpqKeywords = map[string]bool{
	"host": true, "hostaddr": true, "port": true, "dbname": true, "user": true, "password": true,
	"passfile": true, "service": true, "servicefile": true, "connect_timeout": true, "options": true,
	"application_name": true, "fallback_application_name": true, "client_encoding": true,
	"sslmode": true, "sslcert": true, "sslkey": true, "sslpassword": true, "sslrootcert": true,
	"sslcrl": true, "sslcrldir": true, "sslsni": true, "sslnegotiation": true, "sslcertmode": true,
	"channel_binding": true, "require_auth": true, "target_session_attrs": true, "gssencmode": true,
	"krbsrvname": true, "krbspn": true, "keepalives": true, "tcp_user_timeout": true,
}

// IsKeywordValue reports whether dsn is a libpq keyword/value connection
// string: nothing but keyword=value settings (spaces around '=' allowed,
// values bare with backslash escapes, or single-quoted), every keyword a
// plain word, at least one of them a libpq connection keyword (host,
// port, dbname, user, password, service, sslmode, …). A SQLite file whose
// name reads like that ("host=x.db") is written ./host=x.db or
// sqlite:host=x.db.
func IsKeywordValue(dsn string) bool {
	pairs, ok := keywordValues(dsn)
	if !ok {
		return false
	}
	for _, p := range pairs {
		if libpqKeywords[p.key] {
			return true
		}
	}
	return false
}

// kvPair is one keyword=value setting: start:end is the value's span in
// the string (quotes included), value its unescaped text.
type kvPair struct {
	key        string
	start, end int
	value      string
}

// keywordValues splits a libpq keyword/value string the way pgx does
// (pgconn's parseKeywordValueSettings, which follows libpq): a keyword runs
// to '=', a bare value to the next white space (a backslash escapes the
// next byte), a quoted value to the next unescaped quote (or the end, when
// the quote is never closed). ok is false unless the whole string is such
// settings with plain-word keywords.
func keywordValues(s string) (pairs []kvPair, ok bool) {
	const space = " \t\n\r\v\f"
	i := 0
	skip := func() {
		for i < len(s) && strings.IndexByte(space, s[i]) >= 0 {
			i++
		}
	}
	skip()
	for i < len(s) {
		eq := strings.IndexByte(s[i:], '=')
		if eq < 0 {
			return nil, false
		}
		key := strings.TrimRight(s[i:i+eq], space)
		if !kvKeyword.MatchString(key) {
			return nil, false
		}
		i += eq + 1
		skip()
		start := i
		if i < len(s) && s[i] == '\'' {
			for i++; i < len(s) && s[i] != '\''; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			if i >= len(s) {
				// Unterminated: pgx refuses it, and its value (to the end)
				// is masked all the same.
				pairs = append(pairs, kvPair{key, start, len(s), unescapeKV(s[start+1:])})
				break
			}
			i++
			pairs = append(pairs, kvPair{key, start, i, unescapeKV(s[start+1 : i-1])})
		} else {
			for ; i < len(s) && strings.IndexByte(space, s[i]) < 0; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			i = min(i, len(s))
			pairs = append(pairs, kvPair{key, start, i, unescapeKV(s[start:i])})
		}
		skip()
	}
	return pairs, len(pairs) > 0
}

var kvKeyword = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// unescapeKV drops each backslash and keeps the byte after it, as libpq.
func unescapeKV(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			if i == len(s) {
				break
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
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
// the password may itself contain '@', ':' or '/'), a URL whose "@" is
// missing (scheme://user:pass/db: a non-numeric "port" is taken for a
// password), MySQL's user:pass@tcp(host:port)/db with or without mysql://,
// libpq keyword/value strings (password=x, password = 'a b', a bare value
// running to the next space whatever it holds), and secret-looking
// key=value parameters in queries and JDBC-style strings (sslpassword=x,
// Pwd=x;).
func Redact(dsn string) string {
	out, _ := redact(dsn)
	return out
}

// ParseURL parses a URL-form DSN. Its error never holds a secret of the
// DSN: url.Parse quotes the whole DSN in its own, so only the inner reason
// is kept, with every secret the DSN carries masked.
func ParseURL(dsn string) (*url.URL, error) {
	u, err := url.Parse(dsn)
	if err == nil {
		return u, nil
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := err.Error()
	for _, secret := range Secrets(dsn) {
		msg = strings.ReplaceAll(msg, secret, "***")
	}
	return nil, errors.New(msg)
}

// Secrets returns the secret values dsn carries (what Redact masks), as
// written and as the driver decodes them (percent-escapes, libpq quotes
// and backslashes), for scrubbing messages that may quote them: a driver's
// error can echo the text it failed to parse.
func Secrets(dsn string) []string {
	_, raw := redact(dsn)
	seen := map[string]bool{}
	var out []string
	add := func(v string) {
		if v != "" && v != "***" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, v := range raw {
		add(v)
		if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
			add(v[1 : len(v)-1])
			add(unescapeKV(v[1 : len(v)-1]))
		}
		add(unescapeKV(v))
		if u, err := url.PathUnescape(v); err == nil {
			add(u)
		}
		if u, err := url.QueryUnescape(v); err == nil {
			add(u)
		}
	}
	return out
}

// redact is Redact, also returning the secret texts it masked.
func redact(dsn string) (string, []string) {
	var secrets []string
	var out string
	if name, after, ok := strings.Cut(dsn, "://"); ok && validSchemeName(name) {
		masked, secret := redactUserinfo(after, true)
		out = name + "://" + masked
		secrets = append(secrets, secret)
	} else if pairs, ok := keywordValues(dsn); ok {
		masked, found := redactKeywordValues(dsn, pairs)
		out = masked
		secrets = append(secrets, found...)
	} else {
		masked, secret := redactUserinfo(dsn, false)
		out = masked
		secrets = append(secrets, secret)
	}
	var b strings.Builder
	last := 0
	for _, m := range secretParam.FindAllStringSubmatchIndex(out, -1) {
		b.WriteString(out[last:m[8]])
		b.WriteString("***")
		secrets = append(secrets, out[m[8]:m[9]])
		last = m[9]
	}
	b.WriteString(out[last:])
	return b.String(), secrets
}

// redactKeywordValues masks the value of every secret-looking keyword of a
// libpq keyword/value string, over its whole extent as pgx reads it (a
// bare value may hold ';', ',' or ')', which secretParam would stop at).
func redactKeywordValues(s string, pairs []kvPair) (string, []string) {
	var b strings.Builder
	var secrets []string
	last := 0
	for _, p := range pairs {
		if !secretKeyword.MatchString(p.key) || p.start == p.end {
			continue
		}
		b.WriteString(s[last:p.start])
		b.WriteString("***")
		secrets = append(secrets, s[p.start:p.end], p.value)
		last = p.end
	}
	b.WriteString(s[last:])
	return b.String(), secrets
}

var secretKeyword = regexp.MustCompile(`^` + secretKey + `$`)

// redactUserinfo masks the password in "user:pass@rest" and returns it. The
// userinfo ends at the last '@' before the query, because a password may
// contain '@' but a host may not; when the password itself holds '?', the
// last '@' overall is used instead, which may over-redact a query holding
// '@' but never leaks.
func redactUserinfo(s string, isURL bool) (string, string) {
	q := strings.IndexByte(s, '?')
	if q < 0 {
		q = len(s)
	}
	at := strings.LastIndexByte(s[:q], '@')
	if at < 0 {
		at = strings.LastIndexByte(s, '@')
	}
	if at < 0 {
		if isURL {
			return redactBadPort(s)
		}
		return s, ""
	}
	user, pass, hasPass := strings.Cut(s[:at], ":")
	if !hasPass || pass == "" {
		return s, ""
	}
	// Without a scheme only MySQL's user:pass@net(addr)/db form carries
	// userinfo; a path such as "./a:b@c.db" or "C:\x@y.db" must stay intact.
	if !isURL && !mysqlNetAddr.MatchString(s[at+1:]) && strings.ContainsAny(s[:at], `/\`) {
		return s, ""
	}
	return user + ":***" + s[at:], pass
}

// redactBadPort masks what follows the colon of a URL authority without
// '@' when it is not a port: "user:pass/db" with the '@' forgotten (or
// lost to a shell) is otherwise shown as host "user", port "pass". The
// mask runs to the last '/' (a password may hold '/', '?' or '#'; the
// database name is kept), or to the end when there is none. A list of
// host:port pairs (PostgreSQL's multi-host URLs) with numeric ports is
// left as it is.
func redactBadPort(s string) (string, string) {
	end := strings.IndexAny(s, "/?#")
	if end < 0 {
		end = len(s)
	}
	colon := -1
	for off, hp := 0, ""; off <= end && colon < 0; off += len(hp) + 1 {
		hp, _, _ = strings.Cut(s[off:end], ",")
		host := 0
		if strings.HasPrefix(hp, "[") { // [IPv6]:port
			if i := strings.IndexByte(hp, ']'); i >= 0 {
				host = i + 1
			}
		}
		if c := strings.IndexByte(hp[host:], ':'); c >= 0 && !allDigits(hp[host+c+1:]) {
			colon = off + host + c
		}
	}
	if colon < 0 {
		return s, ""
	}
	stop := strings.LastIndexByte(s, '/')
	if stop <= colon {
		stop = len(s)
	}
	return s[:colon+1] + "***" + s[stop:], s[colon+1 : stop]
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// mysqlNetAddr matches the start of go-sql-driver's "net(addr)" after the '@'.
var mysqlNetAddr = regexp.MustCompile(`^[a-z0-9]+\(`)
