package ranks

import (
	"errors"
	"math"
	"testing"
)

// TestExecuteOfNoEnd: on a shared host (SetCPUs), ExecuteFor(+Inf) and
// Execute(+Inf flops) take the shared execution's path, not Compute's: they
// must stop the run with the same *EndlessError naming the rank and the
// kernel, not start a flow of infinite work that never ends.
func TestExecuteOfNoEnd(t *testing.T) {
	topo := newCrossbar(2, 1e9, 1e-6)
	for _, c := range []struct {
		name string
		call func(r *Rank)
	}{
		{"ExecuteFor", func(r *Rank) { r.ExecuteFor(math.Inf(1), "x") }},
		{"Execute", func(r *Rank) { r.Execute(math.Inf(1), 2e9, "x") }},
	} {
		w, err := NewWorld(Config{WakeOrder: WakeSimGrid}, topo, []int{0, 0}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.SetCPUs([]CPU{{2e9, 1}, {2e9, 1}}); err != nil {
			t.Fatal(err)
		}
		err = w.Run(func(r *Rank) {
			if r.ID() == 1 {
				c.call(r)
			}
		})
		var e *EndlessError
		if !errors.As(err, &e) || e.Rank != 1 || e.Kernel != "x" {
			t.Errorf("%s(+Inf): Run returned %v; want an *EndlessError of rank 1, kernel x", c.name, err)
		}
	}
}
