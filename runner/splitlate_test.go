package runner

import (
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/scenario"
)

// TestSplitHearsLate: the MPI split hears dormant polls late unless a run
// may book an MPI_Test cost other than the probes' into the sums the ranks
// share (a replay's tests), which late polls would be added across.
func TestSplitHearsLate(t *testing.T) {
	replay := scenariotest.WriteReplay(t, "0 send 1 0 8\n1 recv 0 0 8\n")
	for _, c := range []struct {
		name string
		plan *scenario.Plan
		want bool
	}{
		{"HPL, the default costs", mustPlan(t, scenario.Default(), nil), true},
		{"HPL, test cost unlike the probe's", plantest.Validated(t, scenario.Default(), "network.iprobe_cost=2e-7", "network.test_cost=1e-4"), true},
		{"replay, costs equal", plantest.Load(t, replay, "network.iprobe_cost=1e-4", "network.test_cost=1e-4"), true},
		{"replay, no test cost", plantest.Load(t, replay, "network.iprobe_cost=2e-7", "network.test_cost=0"), true},
		{"replay, test cost unlike the probe's", plantest.Load(t, replay, "network.iprobe_cost=2e-7", "network.test_cost=1e-4"), false},
	} {
		if got := splitHearsLate(c.plan); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
