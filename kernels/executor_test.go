package kernels

import (
	"testing"
	"time"
)

// executing is a Charger with ExecuteFor (an Executor): it counts the
// calls of each.
type executing struct {
	recorder
	executed []float64
}

func (x *executing) ExecuteFor(s float64, k string) { x.executed = append(x.executed, s) }

// TestTimedModeExecutes: a measured call (Timed mode) is charged as an
// execution when the Charger can run one (SMPI's benched execution, which
// shares a host's cores), a modelled one (Real and Model modes: SMPI's
// HPL sleeps those) always with Compute.
func TestTimedModeExecutes(t *testing.T) {
	set := parseModels(t, testModels)
	for _, c := range []struct {
		mode            Mode
		executes, plain bool // some charges through ExecuteFor, through Compute
	}{
		{Timed, true, true}, // Charge is modelled in every mode
		{Real, false, true},
		{Model, false, true},
	} {
		x := &executing{}
		k := New(Config{Mode: c.mode, Models: set}, x, nil)
		program(k, c.mode != Model)
		k.Run(Lacpy, modelsVars(3, 4), func() { time.Sleep(time.Microsecond) })
		if got := len(x.executed) > 0; got != c.executes {
			t.Errorf("%v: %d charges as executions", c.mode, len(x.executed))
		}
		if c.mode == Timed && len(x.executed) != 5 {
			t.Errorf("Timed: %d executions, want 5 (4 BLAS calls and Run)", len(x.executed))
		}
		if got := len(x.seconds) > 0; got != c.plain {
			t.Errorf("%v: %d charges with Compute (%v)", c.mode, len(x.seconds), x.kernels)
		}
	}
}
