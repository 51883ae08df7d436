package runlock

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// holdEnv makes the test binary a lock holder: it takes the lock at the
// path the variable names, says "locked", and lets go when its stdin ends.
const holdEnv = "RUNLOCK_TEST_HOLD"

func TestMain(m *testing.M) {
	if path := os.Getenv(holdEnv); path != "" {
		os.Exit(hold(path))
	}
	os.Exit(m.Run())
}

func hold(path string) int {
	l, err := Acquire(path, Info{Command: []string{"holder", "--out", filepath.Dir(path)}})
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	os.Stdout.WriteString("locked\n")
	io.Copy(io.Discard, os.Stdin)
	if err := l.Release(); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	return 0
}

// holder is another process holding the lock at path.
type holder struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
}

func startHolder(t *testing.T, path string) *holder {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holdEnv+"="+path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("the holder did not take the lock: %q, %v", line, err)
	}
	return &holder{cmd: cmd, stdin: stdin}
}

// release lets the holder release the lock and waits for it to exit.
func (h *holder) release(t *testing.T) {
	t.Helper()
	h.stdin.Close()
	if err := h.cmd.Wait(); err != nil {
		t.Fatalf("holder: %v", err)
	}
}

func lockPath(t *testing.T) string {
	return filepath.Join(t.TempDir(), "catalog.db.lock")
}

func acquire(t *testing.T, path string) *Lock {
	t.Helper()
	l, err := Acquire(path, Info{Command: []string{"test"}})
	if err != nil {
		t.Fatalf("Acquire: %v", err)
	}
	t.Cleanup(func() { l.Release() })
	return l
}

func heldError(t *testing.T, err error) *HeldError {
	t.Helper()
	if !errors.Is(err, ErrHeld) {
		t.Fatalf("want an error matching ErrHeld, got %v", err)
	}
	var he *HeldError
	if !errors.As(err, &he) {
		t.Fatalf("want a *HeldError, got %T: %v", err, err)
	}
	return he
}

func TestHeldByAnotherProcess(t *testing.T) {
	path := lockPath(t)
	before := time.Now().UTC().Truncate(time.Second)
	h := startHolder(t, path)
	after := time.Now().UTC()

	_, err := Acquire(path, Info{Command: []string{"second"}})
	he := heldError(t, err)
	host, _ := os.Hostname()
	got := he.Holder
	if got.PID != h.cmd.Process.Pid {
		t.Errorf("holder pid %d, want the holder's %d", got.PID, h.cmd.Process.Pid)
	}
	if got.Started.Before(before) || got.Started.After(after) {
		t.Errorf("holder started %v, want between %v and %v (when it took the lock)", got.Started, before, after)
	}
	if got.Host != host {
		t.Errorf("holder host %q, want %q", got.Host, host)
	}
	if want := []string{"holder", "--out", filepath.Dir(path)}; !slices.Equal(got.Command, want) {
		t.Errorf("holder command %q, want %q", got.Command, want)
	}
	if he.Path != path {
		t.Errorf("error path %q, want %q", he.Path, path)
	}
	msg := err.Error()
	for _, want := range []string{path, "held by another run", "pid " + strconv.Itoa(h.cmd.Process.Pid),
		"started " + got.Started.Format(time.RFC3339), " on " + host} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not say %q", msg, want)
		}
	}
	// The refused Acquire left the holder's record alone.
	if info, err := Read(path); err != nil || info.PID != h.cmd.Process.Pid {
		t.Errorf("after a refused Acquire the file says %+v, %v; want the holder's pid %d", info, err, h.cmd.Process.Pid)
	}

	h.release(t)
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the holder's Release left the lock file: %v", err)
	}
	acquire(t, path)
}

func TestDeadHolderTakenOver(t *testing.T) {
	path := lockPath(t)
	h := startHolder(t, path)
	pid := h.cmd.Process.Pid
	if err := h.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	h.cmd.Wait()
	// Killed, it could not remove its file: the file stays, the flock not.
	if info, err := Read(path); err != nil || info.PID != pid {
		t.Fatalf("after the kill the file says %+v, %v; want the dead holder's pid %d", info, err, pid)
	}

	l := acquire(t, path)
	info, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.PID != os.Getpid() || !slices.Equal(info.Command, []string{"test"}) {
		t.Errorf("taken over, the file says %+v; want pid %d and command [test]", info, os.Getpid())
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Release left the lock file: %v", err)
	}
}

func TestStaleFileReplaced(t *testing.T) {
	path := lockPath(t)
	// Longer than what Acquire writes, so a left-over tail would show.
	stale := `{"pid": 999999999, "started": "2020-01-02T03:04:05Z", "host": "elsewhere", "command": ["discover", "--out", "` +
		strings.Repeat("x", 500) + `"]}` + "\n"
	if err := os.WriteFile(path, []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	acquire(t, path)
	info, err := Read(path)
	if err != nil {
		t.Fatalf("the file after a take-over does not parse: %v", err)
	}
	host, _ := os.Hostname()
	if info.PID != os.Getpid() || info.Host != host || !slices.Equal(info.Command, []string{"test"}) ||
		info.Started.Year() == 2020 {
		t.Errorf("taken over, the file says %+v; want this process's pid %d, host %q, command [test], started now",
			info, os.Getpid(), host)
	}
}

func TestSecondAcquireInOneProcessRefused(t *testing.T) {
	path := lockPath(t)
	first := acquire(t, path)
	_, err := Acquire(path, Info{})
	if he := heldError(t, err); he.Holder.PID != os.Getpid() {
		t.Errorf("holder pid %d, want this process's %d", he.Holder.PID, os.Getpid())
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	if err := first.Release(); err != nil {
		t.Errorf("a second Release: %v, want nothing done", err)
	}
	acquire(t, path)
}

func TestReleaseKeepsAnotherRunsFile(t *testing.T) {
	path := lockPath(t)
	l := acquire(t, path)
	// Someone removed our file and another run made its own.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	theirs := []byte(`{"pid": 42}` + "\n")
	if err := os.WriteFile(path, theirs, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != string(theirs) {
		t.Errorf("Release touched a lock file that is not its own: %q, %v", b, err)
	}
}

func TestUnknownHolder(t *testing.T) {
	path := lockPath(t)
	acquire(t, path)
	// flock is advisory: the record can be overwritten while held.
	if err := os.WriteFile(path, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Acquire(path, Info{})
	if he := heldError(t, err); he.Holder.PID != 0 {
		t.Errorf("holder %+v from a file that says nothing, want zero", he.Holder)
	}
	if !strings.Contains(err.Error(), "pid unknown") {
		t.Errorf("message %q does not say the holder is unknown", err)
	}
}

func TestSymlinkRefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious")
	if err := os.WriteFile(target, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "catalog.db.lock")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	_, err := Acquire(path, Info{})
	if err == nil || errors.Is(err, ErrHeld) {
		t.Fatalf("Acquire on a symbolic link: %v, want a refusal that is not ErrHeld", err)
	}
	if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "symbolic link") {
		t.Errorf("message %q does not name the path and say it is a symbolic link", msg)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me" {
		t.Errorf("the link's target was changed to %q", b)
	}
	// The dangling kind, which O_CREATE would otherwise follow and create.
	dangling := filepath.Join(dir, "dangling.lock")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	if _, err := Acquire(dangling, Info{}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Acquire on a dangling symbolic link: %v, want a refusal", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the dangling link's target was created: %v", err)
	}
}

func TestNotAFileRefused(t *testing.T) {
	path := lockPath(t)
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Acquire(path, Info{})
	if err == nil || errors.Is(err, ErrHeld) || !strings.Contains(err.Error(), path) {
		t.Errorf("Acquire on a directory: %v, want a refusal naming %s", err, path)
	}
	missing := filepath.Join(t.TempDir(), "no-such-dir", "catalog.db.lock")
	_, err = Acquire(missing, Info{})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) ||
		strings.Count(err.Error(), missing) != 1 {
		t.Errorf("Acquire in a missing folder: %v, want ErrNotExist naming %s once", err, missing)
	}
}

func TestFilesystemWithoutLocks(t *testing.T) {
	for _, errno := range []unix.Errno{unix.ENOLCK, unix.EOPNOTSUPP} {
		t.Run(errno.Error(), func(t *testing.T) {
			flock = func(int, int) error { return errno }
			t.Cleanup(func() { flock = unix.Flock })
			path := lockPath(t)
			_, err := Acquire(path, Info{})
			if !errors.Is(err, ErrUnsupported) || errors.Is(err, ErrHeld) {
				t.Fatalf("Acquire where flock fails with %v: %v, want ErrUnsupported", errno, err)
			}
			if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "does not support file locks") {
				t.Errorf("message %q does not name the path and say why", msg)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	started := time.Date(2026, 12, 2, 3, 15, 36, 0, time.UTC)
	for _, tc := range []struct {
		info Info
		want string
	}{
		{Info{PID: 1234, Started: started, Host: "box"}, "pid 1234, started 2026-12-02T03:15:36Z on box"},
		{Info{PID: 1234, Started: started.In(time.FixedZone("x", 3600))}, "pid 1234, started 2026-12-02T03:15:36Z"},
		{Info{PID: 7}, "pid 7"},
		{Info{}, "pid unknown: its lock file does not say"},
	} {
		if got := tc.info.Describe(); got != tc.want {
			t.Errorf("Describe(%+v) = %q, want %q", tc.info, got, tc.want)
		}
	}
}
