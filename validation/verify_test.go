package validation

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/emu-hpc/emu/runner"
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
// re-emulations; the test pins that (over 5%) so the guides' claim (docs/sensitivity.md, docs/error-bars.md) stays true.
// With 5 re-emulations the verified curve's RRMSE against re-emulation at the 11
// curve points was 4.94% when written (one graph: 25%); the bound guards against
// regressions, and the verified curve must stay at least 3× closer than the one
// graph.
func TestVerifyOnChaoticHPL(t *testing.T) {
	text := fmt.Sprintf(injectionScenario, 64, "100us", 3000, 8, 8, "1ringM", 1)
	at := func(l float64) float64 {
		return emulate(t, text, runner.Options{}, "network.link_latency="+strconv.FormatFloat(l, 'g', -1, 64)+"s").SimulatedTime
	}
	a, b := at(16e-6), at(16e-6+chaosStep)
	t.Logf("T at 16 µs %.6f s, at 16.001 µs %.6f s (%+.1f%%)", a, b, 100*(b/a-1))
	if !(math.Abs(b-a) > 0.05*a) {
		t.Errorf("1 ns moved T by %.2f%% only: 8×8's T(ℓ) is no longer chaotic, revisit docs/sensitivity.md", 100*math.Abs(b/a-1))
	}

	base := emulate(t, text, runner.Options{Graph: true})
	const lo, hi, points = injectionLink, injectionLink + 50e-6, 11
	rep, err := sensitivity.Analyze(base.Graph, sensitivity.Params{Latencies: base.Graph.Baseline(), L0: base.GraphL, Lmin: lo, Lmax: hi, Points: points})
	if err != nil {
		t.Fatal(err)
	}
	v, err := sensitivity.Verify(base.Graph, sensitivity.VerifyParams{L0: base.GraphL, T0: base.SimulatedTime, Lmin: lo, Lmax: hi, Points: points, K: 5},
		func(l float64) (float64, *sensitivity.Graph, error) {
			r := emulate(t, text, runner.Options{Graph: true}, "network.link_latency="+strconv.FormatFloat(l, 'g', -1, 64)+"s")
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

// TestHPL4x4LatencyNoiseFloor shows why --verify cannot reach issue 12's 1% on
// HPL 4×4 (N = 4000, 1ringM, 1e-4 s growing probe cost): re-emulated at every
// link latency from 1 to 51 µs in 1 µs steps, T(ℓ) jitters around its trend
// (it even falls by 2.6% from 25.5 to 26 µs), so that the cubic closest to the 51
// re-emulations in relative terms (least squares weighted by 1/T²) is still
// more than 1% RRMSE from them: measured 1.6% when written. No smooth curve, so
// no curve from a few emulations, is within 1% of single re-emulations on a fine
// grid; --verify's 1.52% on the 11 curve points (TestSensitivityVerify) is near
// that floor.
func TestHPL4x4LatencyNoiseFloor(t *testing.T) {
	// The fit must be exact on a cubic, or a wrong fit would prove the claim.
	var cx, cy []float64
	for l := 1.0; l <= 51; l += 5 {
		cx, cy = append(cx, l), append(cy, 1+2*l+3*l*l+0.5*l*l*l)
	}
	if f := relativeFit(cx, cy, 3); math.Abs(f(26)-(1+2*26+3*26*26+0.5*26*26*26)) > 1e-9*f(26) {
		t.Fatalf("relativeFit misses a cubic at 26: %g", f(26))
	}
	text := fmt.Sprintf(injectionScenario, 16, "100us", 4000, 4, 4, "1ringM", 1)
	var ls, ts []float64
	for l := 1; l <= 51; l++ {
		res := emulate(t, text, runner.Options{}, fmt.Sprintf("network.link_latency=%dus", l))
		ls, ts = append(ls, float64(l)), append(ts, res.SimulatedTime)
	}
	fit := relativeFit(ls, ts, 3)
	var pred []float64
	for _, l := range ls {
		pred = append(pred, fit(l))
	}
	rr := rrmse(pred, ts)
	t.Logf("the closest cubic is %.2f%% RRMSE from 51 re-emulations", 100*rr)
	if !(rr > injectionRRMSE) {
		t.Errorf("a cubic fits T(ℓ) within %.2f%%: the noise floor is gone, --verify could reach 1%%", 100*rr)
	}
}

// relativeFit returns the polynomial of the given degree minimising
// Σ ((p(x_i) − y_i)/y_i)², solved from its normal equations (x in µs-like units,
// so that they stay well conditioned).
func relativeFit(x, y []float64, degree int) func(float64) float64 {
	n := degree + 1
	a := make([][]float64, n)
	b := make([]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
	}
	for k := range x {
		w := 1 / (y[k] * y[k])
		for i := range n {
			for j := range n {
				a[i][j] += w * math.Pow(x[k], float64(i+j))
			}
			b[i] += w * y[k] * math.Pow(x[k], float64(i))
		}
	}
	for i := range n { // Gaussian elimination; the matrix is symmetric positive definite
		for j := i + 1; j < n; j++ {
			f := a[j][i] / a[i][i]
			for k := i; k < n; k++ {
				a[j][k] -= f * a[i][k]
			}
			b[j] -= f * b[i]
		}
	}
	c := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for k := i + 1; k < n; k++ {
			s -= a[i][k] * c[k]
		}
		c[i] = s / a[i][i]
	}
	return func(v float64) float64 {
		p := 0.0
		for i := n - 1; i >= 0; i-- {
			p = p*v + c[i]
		}
		return p
	}
}
