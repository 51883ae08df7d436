package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"runtime/trace"
)

// startProfiles starts what --cpuprofile and --trace ask for: a CPU
// profile (pprof's format: go tool pprof -top discover FILE) and an
// execution trace (go tool trace FILE), which shows where the wall-clock
// time goes (queries waiting on the database, tasks waiting for a slot)
// where the CPU profile shows only what the process computed. The stop
// function ends both and closes their files; it is safe to call when
// neither was asked for.
func startProfiles(cpuPath, tracePath string) (stop func(), err error) {
	var closers []func()
	stop = func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	if cpuPath != "" {
		f, err := os.Create(cpuPath)
		if err != nil {
			return stop, usagef("--cpuprofile: %v", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return stop, fmt.Errorf("--cpuprofile %s: %w", cpuPath, err)
		}
		closers = append(closers, func() { pprof.StopCPUProfile(); f.Close() })
	}
	if tracePath != "" {
		f, err := os.Create(tracePath)
		if err != nil {
			stop()
			return func() {}, usagef("--trace: %v", err)
		}
		if err := trace.Start(f); err != nil {
			f.Close()
			stop()
			return func() {}, fmt.Errorf("--trace %s: %w", tracePath, err)
		}
		closers = append(closers, func() { trace.Stop(); f.Close() })
	}
	return stop, nil
}
