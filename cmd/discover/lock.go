package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"syscall"

	"github.com/discover-db/discover/internal/runlock"
)

// lockCatalog makes this run the only one writing to its catalog: two runs
// into one catalog each redo the other's work and the last report loses
// findings. Another run holding it is bad usage (exit 2), named by pid and
// start time; so is a lock file that is not one (a link, a folder) or a
// filesystem that cannot lock. A disk that fails the write is a failure
// (exit 1). The returned release is to be deferred.
func lockCatalog(o *runOptions) (release func(), err error) {
	l, err := runlock.Acquire(o.catalogPath+".lock", runlock.Info{Command: lockCommand(o)})
	flag, value := catalogFlag(o)
	var held *runlock.HeldError
	switch {
	case errors.As(err, &held):
		return nil, usagef("%s %s: another discover run (%s) is writing to %s; wait for it to finish or give another %s",
			flag, value, held.Holder.Describe(), o.catalogPath, flag)
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT), errors.Is(err, syscall.EIO):
		return nil, fmt.Errorf("%s %s: %w", flag, value, err)
	case err != nil:
		return nil, usagef("%s %s: %v", flag, value, err)
	}
	// A lock file left behind is taken over by the next run, so a failed
	// removal is not worth a message.
	return func() { l.Release() }, nil
}

// catalogFlag is the flag, and its value, that chose the catalog: --out
// for the default OUT/catalog.db, else --catalog.
func catalogFlag(o *runOptions) (flag, value string) {
	if o.catalogPath == filepath.Join(o.out, "catalog.db") {
		return "--out", o.out
	}
	return "--catalog", o.catalogPath
}

// lockCommand is the command line the lock file shows to whoever finds the
// catalog taken: enough to recognise the run, without the DSN (it may carry
// a password).
func lockCommand(o *runOptions) []string {
	cmd := []string{"discover"}
	if o.demo {
		cmd = append(cmd, "--demo")
	} else {
		cmd = append(cmd, "--db", "(not recorded)")
	}
	cmd = append(cmd, "--out", o.out)
	if flag, value := catalogFlag(o); flag == "--catalog" {
		cmd = append(cmd, flag, value)
	}
	if o.resume {
		cmd = append(cmd, "--resume")
	}
	return cmd
}
