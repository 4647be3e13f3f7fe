package validation

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/sensitivity"
)

// chaosStep is the link latency change that shows 8×8's T(ℓ) is not continuous:
// one nanosecond, s.
const chaosStep = 1e-9

// TestVerifyOnChaoticHPL is `emu sensitivity --verify` (sensitivity.Verify) on HPL
// 8×8, N = 3000, 1ringM with SimGrid's growing probe cost (1e-4 s), over link
// latencies 1–51 µs. There T(ℓ) is chaotic: the polling order flips with the
// smallest change, and moving every link by 1 ns at 16 µs moves T by 29%
// (0.5047 s to 0.6501 s when written), so no curve can be within 1% of single
// re-emulations; the test pins that (over 5%) so the README's claim stays true.
// With 5 re-emulations the verified curve's RRMSE against re-emulation at the 11
// curve points was 4.94% when written (one graph: 25%); the bound guards against
// regressions, and the verified curve must stay at least 3× closer than the one
// graph.
func TestVerifyOnChaoticHPL(t *testing.T) {
	text := fmt.Sprintf(injectionScenario, 64, "100us", 3000, 8, 8, "1ringM", 1)
	at := func(l float64) float64 {
		return emulate(t, text, scenario.RunOptions{}, "network.link_latency="+strconv.FormatFloat(l, 'g', -1, 64)+"s").SimulatedTime
	}
	a, b := at(16e-6), at(16e-6+chaosStep)
	t.Logf("T at 16 µs %.6f s, at 16.001 µs %.6f s (%+.1f%%)", a, b, 100*(b/a-1))
	if !(math.Abs(b-a) > 0.05*a) {
		t.Errorf("1 ns moved T by %.2f%% only: 8×8's T(ℓ) is no longer chaotic, revisit the README", 100*math.Abs(b/a-1))
	}

	base := emulate(t, text, scenario.RunOptions{Graph: true})
	const lo, hi, points = injectionLink, injectionLink + 50e-6, 11
	rep, err := sensitivity.Analyze(base.Graph, sensitivity.Params{Latencies: base.Graph.Baseline(), L0: base.GraphL, Lmin: lo, Lmax: hi, Points: points})
	if err != nil {
		t.Fatal(err)
	}
	v, err := sensitivity.Verify(base.Graph, sensitivity.VerifyParams{L0: base.GraphL, T0: base.SimulatedTime, Lmin: lo, Lmax: hi, Points: points, K: 5},
		func(l float64) (float64, *sensitivity.Graph, error) {
			r := emulate(t, text, scenario.RunOptions{Graph: true}, "network.link_latency="+strconv.FormatFloat(l, 'g', -1, 64)+"s")
			return r.SimulatedTime, r.Graph, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	var pv, p1, em []float64
	for i, c := range v.Curve {
		pv, p1, em = append(pv, c.T), append(p1, rep.Curve[i].T), append(em, at(c.L))
		t.Logf("%5.1f µs: re-emulated %.6f s, verified %+.2f%%, one graph %+.2f%%", c.L*1e6, em[i], 100*(pv[i]/em[i]-1), 100*(p1[i]/em[i]-1))
	}
	rv, r1 := rrmse(pv, em), rrmse(p1, em)
	t.Logf("%d emulations, %d graphs: RRMSE verified %.2f%%, one graph %.2f%%", v.Emulations, v.Graphs, 100*rv, 100*r1)
	if !(rv < 0.07) || !(3*rv < r1) {
		t.Errorf("verified RRMSE %.2f%% (bound 7%%), one graph %.2f%%", 100*rv, 100*r1)
	}
}
