package sourcetest

import "testing"

func TestPassword(t *testing.T) {
	for dsn, want := range map[string]string{
		"trinos://alice:hunter2@host:notaport/hive": "hunter2",
		"postgres://me:p%40ss@db/x":                 "p@ss",
		"mysql://me@db/x":                           "",
		"shop.db":                                   "",
	} {
		if got := password(dsn); got != want {
			t.Errorf("password(%q) = %q, want %q", dsn, got, want)
		}
	}
}
