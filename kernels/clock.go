package kernels

import (
	"fmt"
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
	// CPUClock measures the CPU time of the whole process (Linux
	// CLOCK_PROCESS_CPUTIME_ID; elsewhere it falls back to WallClock). It
	// ignores the time other processes hold the cores, so measurements stay
	// usable on a loaded machine. It counts every thread of emu — which is
	// what a call costs when the BLAS runs its own helper threads (gonum's
	// dgemm does), i.e. the time one core would need — so it is only
	// meaningful while one kernel runs at a time: emu's ranks do, a
	// calibration campaign with several workers does not.
	CPUClock
)

var clockNames = [...]string{WallClock: "wall", CPUClock: "cpu"}

func (c Clock) String() string {
	if int(c) < len(clockNames) {
		return clockNames[c]
	}
	return fmt.Sprintf("Clock(%d)", c)
}

// ParseClock reads "wall" or "cpu".
func ParseClock(s string) (Clock, error) {
	for c, name := range clockNames {
		if s == name {
			return Clock(c), nil
		}
	}
	return 0, fmt.Errorf("kernels: unknown clock %q (want wall or cpu)", s)
}

// Measure runs f once and returns its duration in seconds on clock c.
func Measure(c Clock, f func()) float64 {
	if c == CPUClock && cpuClockWorks {
		t0 := cpuNanos()
		f()
		return float64(cpuNanos()-t0) * 1e-9
	}
	t0 := time.Now()
	f()
	return time.Since(t0).Seconds()
}
