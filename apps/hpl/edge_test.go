package hpl

import (
	"fmt"
	"testing"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/ranks"
)

// Degenerate sizes HPL accepts: N smaller than NB, N = 1, a single column of
// processes, process rows or columns that own no block.
func TestResidualDegenerateSizes(t *testing.T) {
	cases := []struct{ n, nb, p, q, depth int }{
		{1, 1, 1, 1, 0}, {1, 4, 2, 2, 1}, {3, 8, 2, 3, 1}, {7, 2, 3, 4, 1},
		{5, 1, 4, 2, 0}, {16, 16, 2, 2, 1}, {17, 16, 1, 3, 1}, {9, 3, 3, 1, 1},
	}
	for _, c := range cases {
		for _, sw := range []Swap{BinaryExchange, SpreadRoll} {
			p := Params{N: c.n, NB: c.nb, P: c.p, Q: c.q, PFact: Crout, RFact: Right, NBMin: 2, NDiv: 2,
				BCast: LongM, Depth: c.depth, Swap: sw, Equilibration: true, Alignment: 8, Threshold: 16}
			t.Run(fmt.Sprintf("N%d_NB%d_%dx%d_%s", c.n, c.nb, c.p, c.q, sw), func(t *testing.T) {
				if res := runHPL(t, p, kernels.Real, Options{}, 0); !res.Passed {
					t.Fatalf("residual %g", res.Residual)
				}
			})
		}
	}
}

// Ranks beyond P·Q sit the test out (nil result), as in HPL.
func TestRanksOutsideTheGrid(t *testing.T) {
	w := world(t, 5, 0)
	p := DefaultParams()
	p.N, p.NB, p.P, p.Q = 50, 4, 2, 2
	ms := peerModels(t)
	res := make([]*Result, 5)
	err := w.Run(func(r *ranks.Rank) {
		k := kernels.New(kernels.Config{Mode: kernels.Real, Models: ms}, r, r.Rand())
		res[r.ID()], _ = Run(r, p, k, Options{})
	})
	if err != nil {
		t.Fatal(err)
	}
	if res[4] != nil || res[0] == nil || !res[0].Passed {
		t.Fatalf("rank 4: %v, rank 0: %+v", res[4], res[0])
	}
}

// Bad parameters are errors, not panics.
func TestRunRejectsBadParams(t *testing.T) {
	w := world(t, 2, 0)
	errs := make([]error, 2)
	_ = w.Run(func(r *ranks.Rank) {
		k := kernels.New(kernels.Config{Mode: kernels.Model}, r, r.Rand())
		p := DefaultParams()
		p.P, p.Q = 2, 2 // 4 ranks needed, 2 available
		_, errs[r.ID()] = Run(r, p, k, Options{})
	})
	for i, e := range errs {
		if e == nil {
			t.Errorf("rank %d accepted a 2×2 grid on 2 ranks", i)
		}
	}
}

// Timed mode runs on real data too: the residual is checked.
func TestTimedModePasses(t *testing.T) {
	p := DefaultParams()
	p.N, p.NB, p.P, p.Q = 64, 8, 2, 2
	res := runHPL(t, p, kernels.Timed, Options{}, 0)
	if !res.Checked || !res.Passed || res.Time <= 0 {
		t.Fatalf("%+v", res)
	}
}
