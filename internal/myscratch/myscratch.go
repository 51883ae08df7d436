// Package myscratch holds what tests against the test MySQL/MariaDB server
// (DISCOVER_TEST_MYSQL) share beyond creating databases
// (internal/load.CreateDatabase): a checksum of a database's dump, to show
// it did not change.
//
// It is imported by tests only.
package myscratch

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// DumpSum is a checksum of mariadb-dump's (or mysqldump's) output for
// database db on the server at addr (host:port): data, structure,
// routines, events, triggers and a sequence's state.
func DumpSum(t testing.TB, addr, user, password, db string) string {
	t.Helper()
	tool, err := exec.LookPath("mariadb-dump")
	if err != nil {
		if tool, err = exec.LookPath("mysqldump"); err != nil {
			t.Fatal("neither mariadb-dump nor mysqldump is on PATH")
		}
	}
	host, port, _ := strings.Cut(addr, ":")
	cmd := exec.Command(tool, "--no-defaults", "-h"+host, "-P"+port, "-u"+user,
		"--skip-dump-date", "--skip-comments", "--routines", "--events", "--triggers", db)
	cmd.Env = append(os.Environ(), "MYSQL_PWD="+password)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if !strings.Contains(string(out), "CREATE TABLE") {
		t.Fatalf("%s printed no table of %s", tool, db)
	}
	sum := sha256.Sum256(out)
	return hex.EncodeToString(sum[:])
}
