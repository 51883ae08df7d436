package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/discover-db/discover/warehouse"
)

// Exit codes (CONTRACT.md).
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
	exitDrift  = 3
	// exitIncomplete: the run finished, but could not read or profile
	// everything, or gave up a planned test (0 with --allow-incomplete).
	exitIncomplete = 4
	exitSignal     = 130
)

// usageError marks bad usage or bad input: exit 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// exitError carries a specific exit code with an optional message.
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }

// exitCode maps an error to its one line on stderr and its exit code. This is
// the only place that decides either.
func exitCode(stderr io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "discover: "+oneLine(ee.msg))
		}
		return ee.code
	}
	code := exitFailed
	var ue usageError
	// cobra reports unknown subcommands and stray arguments with plain errors.
	if errors.As(err, &ue) || errors.Is(err, warehouse.ErrBadInput) || strings.HasPrefix(err.Error(), "unknown command") {
		code = exitUsage
	}
	if errors.Is(err, context.Canceled) {
		code = exitSignal
	}
	fmt.Fprintln(stderr, "discover: "+oneLine(err.Error()))
	if os.Getenv("DEBUG") != "" {
		fmt.Fprintf(stderr, "%+v\n", err)
	}
	return code
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
