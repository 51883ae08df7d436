package catalog

import (
	"context"
	"errors"
	"fmt"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrWriteFailed is matched (errors.Is) by every error of a write the
// catalog's storage refused — a full disk, a file-size limit, an I/O error,
// a file made read-only — and by every write attempted after one: once a
// write is lost the catalog takes no more, so what it holds stays what the
// run had written up to that moment, which --resume continues from. A
// catalog that went on taking writes after losing one would record later
// steps as done on top of a missing earlier one.
var ErrWriteFailed = errors.New("catalog: write failed")

// writeFailure is the first storage failure, kept for the writes after it.
type writeFailure struct {
	path string
	err  error
}

func (f *writeFailure) Error() string {
	if diskFull(f.err) {
		return fmt.Sprintf("disk full: the catalog %s could not be written: %v", f.path, f.err)
	}
	return fmt.Sprintf("the catalog %s could not be written (disk full, a file-size limit, or an I/O error): %v", f.path, f.err)
}

func (f *writeFailure) Unwrap() []error { return []error{ErrWriteFailed, f.err} }

// WriteErr is the first storage failure of a write, nil while every write
// has succeeded. The orchestrator checks it after each task, since experts
// do not all check the errors of the saves they make.
func (c *Catalog) WriteErr() error {
	if f := c.broken.Load(); f != nil {
		return f
	}
	return nil
}

// afterFailure keeps err when it is the storage's, and returns what the
// caller should see.
func (c *Catalog) afterFailure(ctx context.Context, err error) error {
	if err == nil {
		c.boundLog(ctx) // every write passes here
		return nil
	}
	if ctx.Err() != nil || !storageFailure(err) {
		return err
	}
	c.broken.CompareAndSwap(nil, &writeFailure{path: c.path, err: err})
	return c.broken.Load()
}

// storageFailure reports whether err is the storage refusing a write, as
// opposed to a bad entry or a cancelled context.
func storageFailure(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN,
			sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_NOLFS:
			return true
		}
		return false
	}
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EFBIG) || errors.Is(err, syscall.EROFS) ||
		errors.Is(err, syscall.EIO) || errors.Is(err, syscall.EDQUOT)
}

func diskFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}
