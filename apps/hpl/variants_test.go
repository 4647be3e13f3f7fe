package hpl

import (
	"fmt"
	"testing"

	"github.com/emu-hpc/emu/kernels"
)

// residualGrids are the grids of the real-mode table, with both mappings.
var residualGrids = []Grid{{1, 1}, {1, 3}, {2, 2}, {3, 2}, {2, 4}}

// variantTable is the full product PFACT × RFACT × BCAST × SWAP × DEPTH{0,1} ×
// L1 × U; every entry also gets a grid, mapping, N (97…300), NB (1…16),
// NBMIN, NDIV and equilibration chosen by cycling, so that over the table every
// grid and mapping meets every variant family.
func variantTable() []Params {
	var out []Params
	i := 0
	for _, pf := range []Fact{Left, Crout, Right} {
		for _, rf := range []Fact{Left, Crout, Right} {
			for bc := OneRing; bc <= LongM; bc++ {
				for sw := BinaryExchange; sw <= Mix; sw++ {
					for depth := 0; depth <= 1; depth++ {
						for _, l1 := range []bool{false, true} {
							for _, u := range []bool{false, true} {
								g := residualGrids[i%len(residualGrids)]
								p := Params{
									N: 97 + (i*53)%64, NB: 1 + (i*7)%16, P: g.P, Q: g.Q,
									PMap: PMap((i / len(residualGrids)) % 2), PFact: pf, RFact: rf,
									NBMin: 1 + i%4, NDiv: 2 + i%3, BCast: bc, Depth: depth,
									Swap: sw, SwapThreshold: (i * 5) % 24, L1Transposed: l1, UTransposed: u,
									Equilibration: i%3 != 0, Alignment: 8, Threshold: 16,
								}
								out = append(out, p)
								i++
							}
						}
					}
				}
			}
		}
	}
	return out
}

func TestResidualEveryVariant(t *testing.T) {
	for i, p := range variantTable() {
		if testing.Short() && i%7 != 0 {
			continue
		}
		name := fmt.Sprintf("%s_%dx%d_%s_N%d_NB%d_%s_L%v_U%v", p.Variant(), p.P, p.Q, p.PMap, p.N, p.NB, p.Swap, p.L1Transposed, p.UTransposed)
		t.Run(name, func(t *testing.T) {
			t.Parallel() // independent worlds: use both cores
			res := runHPL(t, p, kernels.Real, Options{}, 0)
			if !res.Passed || !res.Checked {
				t.Fatalf("residual %g (info %d)", res.Residual, res.Info)
			}
		})
	}
}

// Taller process columns reach the branches of the swaps that P ≤ 4 never
// takes (equilibration's left spreads, the binary exchange's upper tree): every
// swap algorithm, with and without equilibration, over P = 5…8.
func TestResidualTallGrids(t *testing.T) {
	grids := []Grid{{5, 1}, {6, 1}, {7, 2}, {8, 1}, {8, 2}}
	i := 0
	for _, g := range grids {
		for _, sw := range []Swap{BinaryExchange, SpreadRoll, Mix} {
			for _, eq := range []bool{false, true} {
				p := Params{N: 150 + 17*i%60, NB: 2 + i%9, P: g.P, Q: g.Q, PMap: PMap(i % 2),
					PFact: Fact(i % 3), RFact: Fact((i / 3) % 3), NBMin: 2, NDiv: 2, BCast: BCast(i % 6),
					Depth: i % 2, Swap: sw, SwapThreshold: 20, L1Transposed: i%4 < 2, UTransposed: i%2 == 0,
					Equilibration: eq, Alignment: 8, Threshold: 16}
				i++
				t.Run(fmt.Sprintf("%dx%d_%s_eq%v_%s", g.P, g.Q, sw, eq, p.Variant()), func(t *testing.T) {
					res := runHPL(t, p, kernels.Real, Options{}, 0)
					if !res.Passed {
						t.Fatalf("residual %g", res.Residual)
					}
				})
			}
		}
	}
}

// HPL's look-ahead driver takes any depth; depths beyond 1 (and beyond the
// number of panels, where empty panels are broadcast) must still solve.
func TestResidualDeepLookahead(t *testing.T) {
	for _, depth := range []int{2, 3, 7} {
		for _, g := range []Grid{{2, 3}, {1, 4}, {3, 2}} {
			p := Params{N: 60 + 13*depth, NB: 8, P: g.P, Q: g.Q, PFact: Right, RFact: Crout, NBMin: 2, NDiv: 2,
				BCast: BCast(depth % 6), Depth: depth, Swap: Mix, SwapThreshold: 10, L1Transposed: depth%2 == 0,
				Equilibration: true, Alignment: 8, Threshold: 16}
			if depth == 7 {
				p.N = 40 // 5 panels: the prologue describes empty ones
			}
			t.Run(fmt.Sprintf("depth%d_%dx%d", depth, g.P, g.Q), func(t *testing.T) {
				if res := runHPL(t, p, kernels.Real, Options{}, 0); !res.Passed {
					t.Fatalf("residual %g", res.Residual)
				}
			})
		}
	}
}

// Merged rolls change the broadcast's messages, not its data: on real data
// every long and longM test of the variant table (and wider grids, where the
// roll has more than two steps) solves the system with the residual HPL's
// steps give, to the bit.
func TestResidualMergedRolls(t *testing.T) {
	var cases []Params
	for _, p := range variantTable() {
		if p.BCast == Long || p.BCast == LongM {
			cases = append(cases, p)
		}
	}
	for i, g := range []Grid{{1, 5}, {2, 6}, {3, 7}, {1, 9}} {
		for _, bc := range []BCast{Long, LongM} {
			for depth := 0; depth <= 2; depth++ {
				cases = append(cases, Params{N: 150 + 17*i, NB: 3 + 2*i, P: g.P, Q: g.Q, PFact: Crout, RFact: Right,
					NBMin: 2, NDiv: 2, BCast: bc, Depth: depth, Swap: Mix, SwapThreshold: 8,
					L1Transposed: true, Equilibration: true, Alignment: 8, Threshold: 16})
			}
		}
	}
	for i, p := range cases {
		if testing.Short() && i%5 != 0 {
			continue
		}
		name := fmt.Sprintf("%s_%dx%d_%s_N%d_NB%d", p.Variant(), p.P, p.Q, p.PMap, p.N, p.NB)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			steps := runHPL(t, p, kernels.Real, Options{}, 0)
			merged := runHPL(t, p, kernels.Real, Options{Roll: RollMerged, Shared: NewShared()}, 0)
			if !merged.Passed || !merged.Checked {
				t.Fatalf("merged: residual %g (info %d)", merged.Residual, merged.Info)
			}
			if merged.Residual != steps.Residual {
				t.Errorf("residual %g merged, %g with steps", merged.Residual, steps.Residual)
			}
		})
	}
}

// Uncontended pivot exchanges time the pivot search differently, not its
// data: on real data every grid height from 1 to 9 (a hypercube, and its
// extra ranks past a power of two) solves the system with the pivots and
// the residual HPL's messages give, to the bit.
func TestResidualUncontendedPivots(t *testing.T) {
	var cases []Params
	for P := 1; P <= 9; P++ {
		for _, pf := range []Fact{Left, Crout, Right} {
			cases = append(cases, Params{N: 120 + 7*P, NB: 2 + P%4, P: P, Q: 1 + P%3, PFact: pf, RFact: Fact((P + int(pf)) % 3),
				NBMin: 2, NDiv: 2, BCast: BCast(P % 6), Depth: P % 2, Swap: Swap(P % 3), SwapThreshold: 8,
				L1Transposed: P%2 == 0, Equilibration: true, Alignment: 8, Threshold: 16})
		}
	}
	for i, p := range cases {
		if testing.Short() && i%4 != 0 {
			continue
		}
		name := fmt.Sprintf("%s_%dx%d_N%d_NB%d", p.Variant(), p.P, p.Q, p.N, p.NB)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			msgRec, uncRec := NewPivots(p.N), NewPivots(p.N)
			msgs := runHPL(t, p, kernels.Real, Options{Record: msgRec}, 0)
			unc := runHPL(t, p, kernels.Real, Options{Record: uncRec, PivotExchange: PivotUncontended}, 0)
			if !unc.Passed || !unc.Checked {
				t.Fatalf("uncontended: residual %g (info %d)", unc.Residual, unc.Info)
			}
			if unc.Residual != msgs.Residual {
				t.Errorf("residual %g uncontended, %g with messages", unc.Residual, msgs.Residual)
			}
			for c := range p.N {
				a, _ := msgRec.Row(c)
				b, _ := uncRec.Row(c)
				if a != b {
					t.Fatalf("column %d: pivot row %d uncontended, %d with messages", c, b, a)
				}
			}
			if unc.PivotExchange != "uncontended" || msgs.PivotExchange != "" {
				t.Errorf("Result.PivotExchange %q and %q, want \"uncontended\" and \"\"", unc.PivotExchange, msgs.PivotExchange)
			}
			t.Logf("Time %.6g s uncontended, %.6g s with messages (%+.2f%%)", unc.Time, msgs.Time, 100*(unc.Time/msgs.Time-1))
		})
	}
}
