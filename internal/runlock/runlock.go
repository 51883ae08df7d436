// Package runlock lets one discover run at a time write to a catalog.
//
// The lock is an exclusive flock(2) on a small file beside the catalog
// (catalog.db.lock), which also says who holds it: pid, start time, host
// and command line. The kernel drops a flock when its process dies, however
// it dies, so a lock file that outlives its run holds no lock: the next run
// takes it over and replaces what it says. Nothing reads the pid to decide
// whether the holder is alive; the pid only tells the user who it is.
package runlock

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// ErrHeld matches (errors.Is) the error of Acquire when another run holds
// the lock; errors.As to *HeldError tells which.
var ErrHeld = errors.New("held by another run")

// ErrUnsupported matches the error of Acquire when the lock file's
// filesystem cannot lock files (some network filesystems).
var ErrUnsupported = errors.New("the filesystem does not support file locks (flock)")

// Info is who holds a lock, as its lock file records it.
type Info struct {
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
	Host    string    `json:"host,omitempty"`
	// Command is the holder's command line, as much of it as tells runs
	// apart; callers leave out anything secret (a DSN may hold a password).
	Command []string `json:"command,omitempty"`
}

// HeldError is the error of Acquire when another run holds the lock.
type HeldError struct {
	Path string
	// Holder is what the lock file says; zero when it could not be read
	// (the holder is writing it this instant, or it is not ours to read).
	Holder Info
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("lock %s: %v (%s)", e.Path, ErrHeld, e.Holder.Describe())
}

// Is makes errors.Is(err, ErrHeld) true.
func (e *HeldError) Is(target error) bool { return target == ErrHeld }

// Describe says who the holder is in a few words, for messages:
// "pid 1234, started 2026-12-02T03:15:36Z on host".
func (i Info) Describe() string {
	if i.PID == 0 {
		return "pid unknown: its lock file does not say"
	}
	s := fmt.Sprintf("pid %d", i.PID)
	if !i.Started.IsZero() {
		s += ", started " + i.Started.UTC().Format(time.RFC3339)
	}
	if i.Host != "" {
		s += " on " + i.Host
	}
	return s
}

// Lock is a held lock; Release lets it go.
type Lock struct {
	path string
	f    *os.File
}

// flock is unix.Flock, replaceable by tests that need a filesystem
// without locks.
var flock = unix.Flock

// Acquire takes the lock at path without waiting, creating the file if
// need be, and records info in it (PID, Started and Host default to this
// process, now and this host). When another process, or another Acquire in
// this one, holds it, the error is a *HeldError.
func Acquire(path string, info Info) (*Lock, error) {
	info = withDefaults(info)
	// A holder's Release removes the file between our open and our flock
	// now and then; the lock we got is then on a file nobody else sees,
	// so open the new one and try again.
	for range 10 {
		f, err := openLockFile(path)
		if err != nil {
			return nil, err
		}
		if err := flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			f.Close()
			return nil, lockError(path, err)
		}
		same, err := stillAt(f, path)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if !same {
			f.Close()
			continue
		}
		// No one else holds the flock, so whatever the file says is of a
		// run that has ended (a stale lock): it is replaced.
		if err := writeInfo(f, info); err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: record the holder: %w", path, err)
		}
		return &Lock{path: path, f: f}, nil
	}
	return nil, fmt.Errorf("lock %s: the file is removed and created again too often to lock it", path)
}

// Release unlocks and removes the lock file, only if the path still names
// the file this lock holds: one removed and created anew by someone else
// is theirs. Releasing twice does nothing.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	f := l.f
	l.f = nil
	defer f.Close()
	// Removed while still locked, so that whoever waits for the file finds
	// it gone (and opens a new one) rather than locking a file that is
	// about to go.
	same, err := stillAt(f, l.path)
	if err == nil && same {
		err = os.Remove(l.path)
	}
	if uerr := flock(int(f.Fd()), unix.LOCK_UN); err == nil && uerr != nil {
		err = uerr
	}
	if err != nil {
		return fmt.Errorf("release lock %s: %w", l.path, err)
	}
	return nil
}

// Read returns what the lock file at path says of its holder, whether or
// not the lock is held.
func Read(path string) (Info, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Info{}, fmt.Errorf("lock %s: %w", path, pathless(err))
	}
	var info Info
	if err := json.Unmarshal(b, &info); err != nil {
		return Info{}, fmt.Errorf("lock %s: not a lock file of discover: %w", path, err)
	}
	return info, nil
}

func withDefaults(info Info) Info {
	if info.PID == 0 {
		info.PID = os.Getpid()
	}
	if info.Started.IsZero() {
		info.Started = time.Now()
	}
	// Whole seconds in UTC: the file and messages show RFC 3339.
	info.Started = info.Started.UTC().Truncate(time.Second)
	if info.Host == "" {
		info.Host, _ = os.Hostname()
	}
	return info
}

// openLockFile opens (or creates) the lock file, refusing a symbolic link
// or anything but a regular file: following a link would lock, and then
// overwrite and remove, a file that is not ours.
func openLockFile(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil {
		if err := checkRegular(path, fi); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0o644)
	if errors.Is(err, unix.ELOOP) {
		// Made a link between the Lstat and the open.
		return nil, fmt.Errorf("lock %s: is a symbolic link, not a lock file; remove it", path)
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, pathless(err))
	}
	fi, err := f.Stat()
	if err == nil {
		err = checkRegular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func checkRegular(path string, fi fs.FileInfo) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("lock %s: is a symbolic link, not a lock file; remove it", path)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("lock %s: is not a regular file (%s); remove it", path, fi.Mode().Type())
	}
	return nil
}

// lockError says why flock failed: held by someone (with who, from the
// file), or a filesystem that cannot lock.
func lockError(path string, err error) error {
	switch {
	case errors.Is(err, unix.EWOULDBLOCK):
		return &HeldError{Path: path, Holder: readHolder(path)}
	case errors.Is(err, unix.ENOLCK), errors.Is(err, unix.EOPNOTSUPP), errors.Is(err, unix.ENOTSUP):
		return fmt.Errorf("lock %s: %w: %v; put it on a local disk", path, ErrUnsupported, err)
	}
	return fmt.Errorf("lock %s: %w", path, err)
}

// readHolder reads who holds the lock. A holder that has just taken the
// lock may be writing its file this instant, so an unreadable one is read
// again a few times before it is given up as unknown.
func readHolder(path string) Info {
	for range 5 {
		if info, err := Read(path); err == nil {
			return info
		}
		time.Sleep(10 * time.Millisecond)
	}
	return Info{}
}

// pathless drops the path from an error of package os, which the caller
// names first.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// stillAt tells whether path still names the open file f.
func stillAt(f *os.File, path string) (bool, error) {
	held, err := f.Stat()
	if err != nil {
		return false, err
	}
	now, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(held, now), nil
}

// writeInfo replaces the file's contents with info. It writes over the old
// contents before it cuts them to length, so a reader never finds the file
// empty, only (for an instant) garbled, which readHolder reads again.
func writeInfo(f *os.File, info Info) error {
	b, err := json.Marshal(info)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if _, err := f.WriteAt(b, 0); err != nil {
		return err
	}
	return f.Truncate(int64(len(b)))
}
