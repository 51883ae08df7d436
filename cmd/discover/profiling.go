package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"time"
)

// startProfiles starts what --cpuprofile, --trace and --memprofile ask
// for: a CPU profile (pprof's format: go tool pprof -top discover FILE),
// an execution trace (go tool trace FILE), which shows where the
// wall-clock time goes (queries waiting on the database, tasks waiting for
// a slot) where the CPU profile shows only what the process computed, and
// a heap profile taken when the live heap was at its largest. The stop
// function ends them and closes their files; it is safe to call when none
// was asked for.
func startProfiles(cpuPath, tracePath, memPath string) (stop func(), err error) {
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
	if memPath != "" {
		f, err := os.Create(memPath)
		if err != nil {
			stop()
			return func() {}, usagef("--memprofile: %v", err)
		}
		p := watchPeak(peakEvery)
		closers = append(closers, func() {
			p.stop()
			f.Write(p.profile())
			f.Close()
		})
	}
	return stop, nil
}

// peakEvery is how often the heap's size is read for --memprofile.
const peakEvery = 200 * time.Millisecond

// peakHeap keeps the heap profile of the moment the live heap was largest:
// a profile written at the end of a run shows what is left then, not what
// made the process big. The live heap is the runtime's count after the
// last collection, the same moment the profile's in-use figures are of.
type peakHeap struct {
	mu   sync.Mutex
	peak uint64
	last []byte
	done chan struct{}
	wg   sync.WaitGroup
}

func watchPeak(every time.Duration) *peakHeap {
	p := &peakHeap{done: make(chan struct{})}
	p.take() // a run that never grows still gets a profile
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.done:
				return
			case <-t.C:
				p.take()
			}
		}
	}()
	return p
}

// take writes a new profile when the live heap grew by a twentieth or more
// since the last one: the profile costs a walk of the heap's samples, so
// it is not taken on every small growth.
func (p *peakHeap) take() {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	live := s[0].Value.Uint64()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.last != nil && live < p.peak+p.peak/20 {
		return
	}
	var b bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&b, 0); err != nil {
		return
	}
	p.peak, p.last = live, b.Bytes()
}

func (p *peakHeap) stop() {
	close(p.done)
	p.wg.Wait()
	p.take()
}

// profile is the heap profile of the peak.
func (p *peakHeap) profile() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}
