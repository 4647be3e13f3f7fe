package hpl

import (
	"fmt"
	"math"
	"testing"

	"github.com/emu-hpc/emu/kernels"
)

// normRelTol bounds the relative difference between a distributed norm and
// the serial one (dimensionless): the sums differ only in the order of at
// most N = 23 additions of terms below 1, a few ulps.
const normRelTol = 1e-14

// TestCheckNormsMatchSerial checks the norms of the residual check against
// their definitions taken serially over matEntry: ‖A‖₁ = max_j Σ_i |a_ij|,
// ‖A‖∞ = max_i Σ_j |a_ij| and ‖b‖∞ = max_i |b_i| with b column N of the
// generated system. The grids 2×3 and 3×2 give the process row and column
// different sizes, so a swap of their roles in pdlange would show; N is not
// a multiple of NB, so the last block is partial.
func TestCheckNormsMatchSerial(t *testing.T) {
	const n, nb = 23, 3
	var want1, wantI, wantB float64
	for j := range n {
		col := 0.0
		for i := range n {
			col += math.Abs(matEntry(n, i, j))
		}
		want1 = math.Max(want1, col)
	}
	for i := range n {
		row := 0.0
		for j := range n {
			row += math.Abs(matEntry(n, i, j))
		}
		wantI = math.Max(wantI, row)
		wantB = math.Max(wantB, math.Abs(matEntry(n, i, n)))
	}
	for _, g := range [][2]int{{2, 3}, {3, 2}, {1, 1}} {
		t.Run(fmt.Sprintf("%dx%d", g[0], g[1]), func(t *testing.T) {
			p := DefaultParams()
			p.N, p.NB, p.P, p.Q = n, nb, g[0], g[1]
			got := runHPL(t, p, kernels.Real, Options{}, 0).norms
			for _, c := range []struct {
				name      string
				got, want float64
			}{{"‖A‖₁", got.anorm1, want1}, {"‖A‖∞", got.anormI, wantI}, {"‖b‖∞", got.bnormI, wantB}} {
				if math.Abs(c.got-c.want) > normRelTol*c.want {
					t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
				}
			}
		})
	}
}
