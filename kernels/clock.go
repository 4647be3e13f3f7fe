package kernels

import (
	"fmt"
	"math"
	"sync"
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

// Measure runs f once and returns its duration in seconds on clock c, less
// the clock's own cost (see zeroNanos), never below zero.
func Measure(c Clock, f func()) float64 {
	if c == CPUClock && cpuClockWorks {
		t0 := cpuNanos()
		f()
		return net(cpuNanos()-t0, zeroNanos(CPUClock))
	}
	t0 := time.Now()
	f()
	return net(int64(time.Since(t0)), zeroNanos(WallClock))
}

// net turns a raw interval into seconds after removing the clock's cost.
func net(raw, zero int64) float64 {
	return float64(max(raw-zero, 0)) * 1e-9
}

// zeroTrials is how many empty intervals are timed to find a clock's cost.
const zeroTrials = 64

// zeroNanos is what a clock reports for an empty interval: the cost of one
// reading (the end of the first and the start of the second), the smallest
// of zeroTrials tries. Reading the process CPU clock is a system call that
// costs microseconds on some machines — as much as a level-1 kernel — so it
// is subtracted from every measurement, in Timed mode and in calibration
// alike.
func zeroNanos(c Clock) int64 {
	if c == CPUClock && cpuClockWorks {
		return cpuZero()
	}
	return wallZero()
}

var (
	cpuZero = sync.OnceValue(func() int64 {
		return minInterval(cpuNanos)
	})
	wallZero = sync.OnceValue(func() int64 {
		return minInterval(func() int64 { return int64(time.Since(epoch)) })
	})
)

func minInterval(read func() int64) int64 {
	best := int64(math.MaxInt64)
	for range zeroTrials {
		t0 := read()
		best = min(best, read()-t0)
	}
	return max(best, 0)
}
