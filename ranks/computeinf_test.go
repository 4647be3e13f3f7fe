package ranks

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestComputeOfNoEnd: a duration of +Inf (a model that overflowed) stops the
// run with a *PanicError naming the rank, the call, its kernel and what it
// charged, not the engine's Skip, whether the rank's kernel sleeps are
// merged or heard one by one. NaN and negative durations charge nothing, as
// Compute documents: the rank's clock stays at the 1 s it charged before.
func TestComputeOfNoEnd(t *testing.T) {
	cases := []struct {
		name    string
		seconds float64
		merge   bool // MergeKernelSleeps, no one hears compute events
		sleep   bool // Sleep instead of Compute
		want    string
	}{
		{"+Inf", math.Inf(1), false, false, `rank 1: Compute(+Inf, "sweep"): a duration must be finite (a model that overflowed?)`},
		{"+Inf merged", math.Inf(1), true, false, `rank 1: Compute(+Inf, "sweep"): a duration must be finite (a model that overflowed?)`},
		{"Sleep +Inf", math.Inf(1), false, true, `rank 1: Sleep(+Inf): a duration must be finite`},
		{"NaN", math.NaN(), false, false, ""},
		{"-1", -1, true, false, ""},
		{"-Inf", math.Inf(-1), false, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, _ := NewWorld(preset(t, "cm02"), newCrossbar(2, 1e9, 1e-6), identity(2), 1)
			if c.merge {
				w.MergeKernelSleeps()
			} else {
				w.AddHook(func(*Event) {})
			}
			var end float64
			err := w.Run(func(r *Rank) {
				r.Compute(1, "sweep")
				if r.ID() == 1 {
					if c.sleep {
						r.Sleep(c.seconds)
					} else {
						r.Compute(c.seconds, "sweep")
					}
					end = r.Now()
				}
				r.World().Barrier()
			})
			if c.want == "" {
				if err != nil || end != 1 {
					t.Fatalf("Run: %v, rank 1 at %g s; want no error at 1 s", err, end)
				}
				return
			}
			var p *PanicError
			if !errors.As(err, &p) || p.Rank != 1 || err.Error() != c.want || strings.Contains(err.Error(), "Skip") {
				t.Fatalf("Run returned %v; want a *PanicError of rank 1: %s", err, c.want)
			}
			var f InputFault
			if !errors.As(err, &f) {
				t.Errorf("%v is not an InputFault", err)
			}
		})
	}
}
