package hs2

import "testing"

func TestServerMessage(t *testing.T) {
	cases := []struct{ in, want string }{
		{"org.apache.hive.service.cli.HiveSQLException: Error running query: [PARSE_SYNTAX_ERROR] org.apache.spark.sql.catalyst.parser.ParseException: [PARSE_SYNTAX_ERROR] Syntax error at or near '('.\n== SQL ==\nSELECT (\n\tat org.apache.spark.Foo.bar(Foo.scala:1)\n\tat x.y(z)\nCaused by: x",
			"[PARSE_SYNTAX_ERROR] [PARSE_SYNTAX_ERROR] Syntax error at or near '('. == SQL == SELECT ("},
		{"Failed to open new session: org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException: [SCHEMA_NOT_FOUND] The schema `x` cannot be found.",
			"Failed to open new session: [SCHEMA_NOT_FOUND] The schema `x` cannot be found."},
		{"plain message", "plain message"},
	}
	for _, c := range cases {
		if got := serverMessage(c.in); got != c.want {
			t.Errorf("serverMessage(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
