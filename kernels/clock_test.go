package kernels

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// sleepFor is long against the clocks' resolution and short for a test;
// sleepSlack is the CPU time a sleeping process may still be charged (the
// runtime's background work, another test's helper threads): well below the
// sleep, so the test still tells CPU time from wall time.
const (
	sleepFor   = 30 * time.Millisecond
	sleepSlack = sleepFor / 2
)

// TestCPUClockIgnoresWaiting: a sleeping process uses no CPU, so the CPU
// clock sees (almost) nothing while the wall clock sees the whole sleep.
func TestCPUClockIgnoresWaiting(t *testing.T) {
	if !cpuClockWorks {
		t.Skip("no process CPU clock on " + runtime.GOOS)
	}
	// The process CPU clock counts every thread, so a helper thread still
	// spinning from an earlier test (OpenBLAS's do, after a call) adds to
	// whatever is measured. Noise only ever adds: keep the best of a few
	// tries.
	const tries = 5
	sleep := func() { time.Sleep(sleepFor) }
	if wall := Measure(WallClock, sleep); wall < sleepFor.Seconds() {
		t.Errorf("wall clock measured %g s for a %v sleep", wall, sleepFor)
	}
	bestSleep := 1e9
	for range tries {
		runtime.GC() // no background marking left over from earlier work
		bestSleep = min(bestSleep, Measure(CPUClock, sleep))
	}
	if bestSleep > sleepSlack.Seconds() {
		t.Errorf("CPU clock measured at best %g s for a sleep, want < %v", bestSleep, sleepSlack)
	}
	// A fixed amount of single-threaded work: its CPU time is positive and
	// cannot exceed the wall time it took (other processes may stretch the
	// wall time, never the CPU time).
	sink := 0.0
	spin := func() {
		for i := range 20_000_000 {
			sink += float64(i & 7)
		}
	}
	bestExcess, cpuSeen, wallSeen := 1e9, 0.0, 0.0
	for range tries {
		var cpu, wall float64
		wall = Measure(WallClock, func() { cpu = Measure(CPUClock, spin) })
		if !(cpu > 0) {
			t.Fatalf("busy loop: CPU clock %g s", cpu)
		}
		if cpu-wall < bestExcess {
			bestExcess, cpuSeen, wallSeen = cpu-wall, cpu, wall
		}
	}
	if bestExcess > sleepSlack.Seconds() {
		t.Errorf("busy loop: CPU clock %g s, wall clock %g s", cpuSeen, wallSeen)
	}
	_ = sink
}

func TestTimedModeCPUClock(t *testing.T) {
	rec := &recorder{}
	k := New(Config{Mode: Timed, Clock: CPUClock}, rec, nil)
	program(k, true)
	if len(rec.seconds) != 4 {
		t.Fatalf("charges %v", rec.kernels)
	}
	for i, s := range rec.seconds {
		if s < 0 || s > 1 {
			t.Errorf("charge %d (%s) = %g s", i, rec.kernels[i], s)
		}
	}
	k.Run(Lacpy, modelsVars(3, 4), func() { time.Sleep(sleepFor) })
	if last := rec.seconds[len(rec.seconds)-1]; cpuClockWorks && last > sleepSlack.Seconds() {
		t.Errorf("Run charged %g s of CPU time for a sleep", last)
	}
}

func TestParseClock(t *testing.T) {
	for _, c := range []Clock{WallClock, CPUClock} {
		if got, err := ParseClock(c.String()); err != nil || got != c {
			t.Errorf("ParseClock(%q) = %v, %v", c, got, err)
		}
	}
	if _, err := ParseClock("sundial"); err == nil {
		t.Error("ParseClock accepted sundial")
	}
	if err := (Config{Clock: 7}).Validate(); err == nil {
		t.Error("Validate accepted clock 7")
	}
}

// TestMeasureRemovesClockCost: timing an empty function with Measure gives,
// in the median, about one clock reading less than timing it with the clock
// read raw, the two interleaved so that both see the same machine. Without
// the subtraction the two medians would be the same. (Comparing Measure with
// the clock's cost alone is not enough: that cost is the cheapest of 64
// readings, and on a busy machine the median reading costs more than twice
// it.)
func TestMeasureRemovesClockCost(t *testing.T) {
	for _, c := range []Clock{WallClock, CPUClock} {
		zero := zeroNanos(c)
		if zero == 0 {
			continue // a clock too coarse to see itself: nothing to remove
		}
		var measured, raw []float64
		for range 201 {
			measured = append(measured, Measure(c, func() {}))
			raw = append(raw, rawEmpty(c))
		}
		slices.Sort(measured)
		slices.Sort(raw)
		med, rawMed := measured[len(measured)/2], raw[len(raw)/2]
		if med > rawMed-0.5*float64(zero)*1e-9 {
			t.Errorf("%s clock: median empty measurement %g s against %g s read raw: clock cost %d ns not removed", c, med, rawMed, zero)
		}
		if measured[0] < 0 {
			t.Errorf("%s clock: negative measurement %g s", c, measured[0])
		}
	}
}

// rawEmpty times an empty interval on clock c as Measure does, without
// removing the clock's cost.
func rawEmpty(c Clock) float64 {
	if c == CPUClock && cpuClockWorks {
		t0 := cpuNanos()
		return float64(cpuNanos()-t0) * 1e-9
	}
	t0 := time.Now()
	return float64(time.Since(t0)) * 1e-9
}
