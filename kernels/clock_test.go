package kernels

import (
	"runtime"
	"testing"
	"time"
)

// sleepFor is long against the clocks' resolution and short for a test.
const (
	sleepFor   = 20 * time.Millisecond
	sleepSlack = 5 * time.Millisecond // CPU time a sleeping process may still be charged (GC, timers)
)

// TestCPUClockIgnoresWaiting: a sleeping process uses no CPU, so the CPU
// clock sees (almost) nothing while the wall clock sees the whole sleep.
func TestCPUClockIgnoresWaiting(t *testing.T) {
	if !cpuClockWorks {
		t.Skip("no process CPU clock on " + runtime.GOOS)
	}
	sleep := func() { time.Sleep(sleepFor) }
	if wall := Measure(WallClock, sleep); wall < sleepFor.Seconds() {
		t.Errorf("wall clock measured %g s for a %v sleep", wall, sleepFor)
	}
	if cpu := Measure(CPUClock, sleep); cpu > sleepSlack.Seconds() {
		t.Errorf("CPU clock measured %g s for a sleep, want < %v", cpu, sleepSlack)
	}
	spin := func() {
		for t0 := time.Now(); time.Since(t0) < sleepFor; {
		}
	}
	if cpu := Measure(CPUClock, spin); cpu < sleepFor.Seconds()/4 {
		// A busy loop burns CPU; a loaded machine may steal some of it.
		t.Errorf("CPU clock measured %g s for a %v busy loop", cpu, sleepFor)
	}
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
