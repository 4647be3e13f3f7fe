package hpl

import (
	"math"
	"testing"

	"github.com/emu-hpc/emu/kernels"
)

// extrapolationTolerance bounds the error of a sampled run against the full
// emulation of the same configuration.
const extrapolationTolerance = 0.05 // relative

func TestMaxIterationsExtrapolates(t *testing.T) {
	for _, depth := range []int{0, 1} {
		p := peerParams(2, 2, 6000, OneRingM, depth)
		full := runHPL(t, p, kernels.Model, Options{}, 1e-6)
		for _, k := range []int{8, 16, 24} {
			est := runHPL(t, p, kernels.Model, Options{MaxIterations: k}, 1e-6)
			if !est.Extrapolated || est.Panels != k {
				t.Fatalf("K=%d: extrapolated %v over %d panels", k, est.Extrapolated, est.Panels)
			}
			dev := est.Time/full.Time - 1
			t.Logf("depth %d K=%d: %.6f s vs full %.6f s (%+.2f%%)", depth, k, est.Time, full.Time, 100*dev)
			if math.Abs(dev) > extrapolationTolerance {
				t.Errorf("depth %d K=%d: %+.2f%% off the full run", depth, k, 100*dev)
			}
		}
	}
}

func TestInterpolateIsLinearInSquaredOrder(t *testing.T) {
	// d = 2·m² + 1 is reproduced exactly, between the points and beyond them,
	// up to rounding: interpTol is absolute, in d's units, on values ≤ 3·10⁴.
	const interpTol = 1e-9
	pts := []segmentPoint{{m: 100, d: 2*100*100 + 1}, {m: 50, d: 2*50*50 + 1}, {m: 10, d: 2*10*10 + 1}}
	for _, c := range []struct{ m, want float64 }{{100, 20001}, {70, 2*70*70 + 1}, {30, 2*30*30 + 1}, {120, 2*120*120 + 1}, {5, 51}} {
		if got := interpolate(pts, c.m); math.Abs(got-c.want) > interpTol {
			t.Errorf("m=%g: %g want %g", c.m, got, c.want)
		}
	}
}
