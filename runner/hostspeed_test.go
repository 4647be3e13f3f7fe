package runner

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/scenario"
)

// TestHostSpeedRun: on a real run, a slowed host's ranks compute exactly
// 1/speed as long and the others as long as before (HPL's calls do not depend
// on timing in model mode: the same calls, each divided by the speed); with
// communication free (the compute-only bound) a single rank's Time is its
// kernels' sum, so slowing its host by f multiplies its Time by exactly 1/f.
// (HPL's Time itself need not grow when one host slows: this small run is
// bound by its messages, and moving a rank's sends in time can change how
// they share the links; here it came out 0.1% shorter.) The JSON result
// names the factors.
func TestHostSpeedRun(t *testing.T) {
	run := func(doc string, bound string, sets ...string) *Result {
		t.Helper()
		p, err := varPlan(t, doc, sets...)
		if err != nil {
			t.Fatal(err)
		}
		if bound != "" {
			if err := p.ApplyBound(bound); err != nil {
				t.Fatal(err)
			}
		}
		res, err := Run(p, Options{Breakdown: true})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	const slow = 0.8
	base := run(scenariotest.VarScenario, "")
	slowed := run(scenariotest.VarScenario, "", "kernels.host_speed.n2=0.8")
	for r := range 4 {
		want := base.Breakdown.Compute[r]
		if r == 2 { // rank r is on host n<r> (one rank per host, in order)
			want /= slow
		}
		if got := slowed.Breakdown.Compute[r]; math.Abs(got-want) > 1e-9*want {
			t.Errorf("rank %d computes %.9g s, want %.9g s", r, got, want)
		}
	}
	b, err := json.Marshal(slowed)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"host_speed":{"n2":0.8}`) {
		t.Errorf("JSON does not name the slow host: %s", b)
	}

	one := strings.Replace(scenariotest.VarScenario, "grids = [[1, 4]]", "grids = [[1, 1]]", 1)
	t1 := run(one, scenario.BoundComputeOnly).HPL[0].Time
	tSlow := run(one, scenario.BoundComputeOnly, "kernels.host_speed.n0=0.8").HPL[0].Time
	if want := t1 / slow; math.Abs(tSlow-want) > 1e-9*want {
		t.Errorf("1 rank, compute only: Time %.9g s on a host at %g, want %.9g / %g = %.9g s", tSlow, slow, t1, slow, want)
	}
}
