package kernels

import (
	"fmt"
	"runtime"
	"time"
)

// Clock says how a measured kernel call is timed: in Timed mode, and by
// calibration campaigns (which must use the clock the runs will use).
type Clock uint8

const (
	// WallClock measures elapsed real time, as SMPI does. On a dedicated core
	// it is what the application would see; on a shared machine it includes
	// the time other processes held the core.
	WallClock Clock = iota
	// ThreadClock measures the CPU time of the calling OS thread (Linux
	// CLOCK_THREAD_CPUTIME_ID; elsewhere it falls back to WallClock). It
	// ignores preemption by other processes, so measurements stay usable on
	// a loaded machine; it does not see helper threads (keep OpenBLAS at one
	// thread) or time spent waiting for memory pages to arrive from disk.
	ThreadClock
)

var clockNames = [...]string{WallClock: "wall", ThreadClock: "thread"}

func (c Clock) String() string {
	if int(c) < len(clockNames) {
		return clockNames[c]
	}
	return fmt.Sprintf("Clock(%d)", c)
}

// ParseClock reads "wall" or "thread".
func ParseClock(s string) (Clock, error) {
	for c, name := range clockNames {
		if s == name {
			return Clock(c), nil
		}
	}
	return 0, fmt.Errorf("kernels: unknown clock %q (want wall or thread)", s)
}

// Measure runs f once and returns its duration in seconds on clock c. The
// goroutine stays on one OS thread meanwhile, so a thread clock reads the
// thread that did the work.
func Measure(c Clock, f func()) float64 {
	if c == ThreadClock && threadClockWorks {
		runtime.LockOSThread()
		t0 := threadNanos()
		f()
		d := threadNanos() - t0
		runtime.UnlockOSThread()
		return float64(d) * 1e-9
	}
	t0 := time.Now()
	f()
	return time.Since(t0).Seconds()
}
