package hpl

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// indexPanel builds a panel of width nb at global row ia of an order-n system
// on a P-row grid, as seen by process row myrow, with legal random pivots; real
// selects real mode, where the indices that steer data are computed too.
func indexPanel(rng *rand.Rand, real bool, myrow, P, nb, ia, n int) *panel {
	s := &solver{n: n, nb: nb, real: real, g: &grid{p: P, q: 1, myrow: myrow}}
	pn := &panel{s: s, ia: ia, jb: nb, prow: g2p(ia, nb, P), ii: numroc(ia, nb, myrow, P)}
	pn.dpiv = randomPivots(rng, ia, nb, n)
	return pn
}

// indexAll is every swap index computation of one panel: what a spread-roll
// swap and then a binary-exchange swap of it compute (swap01.go, swap00.go).
func indexAll(pn *panel) {
	pn.swp.iflag = -1
	pn.moves()
	pn.plindx1()
	pn.plindx0()
}

// Once a rank has indexed one panel, indexing another of the same width
// allocates nothing: the arrays are the solver's scratch and the panel's own.
// Model-mode HPL indexes every panel on every rank, and the garbage these
// allocations made was once a quarter of its CPU.
func TestSwapIndexAllocatesNothingOnceWarm(t *testing.T) {
	const P, nb, n = 4, 64, 4096
	rng := rand.New(rand.NewPCG(3, 4))
	for _, real := range []bool{false, true} {
		for _, myrow := range []int{2, 3} { // the panel's process row (2) and another
			t.Run(fmt.Sprintf("real=%v/myrow%d", real, myrow), func(t *testing.T) {
				pn := indexPanel(rng, real, myrow, P, nb, 2*nb, n)
				other := randomPivots(rng, pn.ia, nb, n)
				allocs := testing.AllocsPerRun(50, func() {
					pn.dpiv, other = other, pn.dpiv // new pivots each time
					indexAll(pn)
				})
				if allocs != 0 {
					t.Fatalf("%v allocations per panel, want 0", allocs)
				}
			})
		}
	}
}

// BenchmarkSwapIndex measures one rank's model-mode swap index work per panel
// (NB = 128, P = 16, pivots spread over a 80,000-row matrix as the model rule
// spreads them).
func BenchmarkSwapIndex(b *testing.B) {
	const P, nb, n = 16, 128, 80000
	rng := rand.New(rand.NewPCG(5, 6))
	pn := indexPanel(rng, false, 1, P, nb, 16*nb, n)
	pn.dpiv = make([]float64, nb)
	for i := range pn.dpiv { // model pivots: anywhere below
		pn.dpiv[i] = float64(pn.ia + i + rng.IntN(n-pn.ia-i))
	}
	for b.Loop() {
		indexAll(pn)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "panels/s")
}

// BenchmarkSwapIndexShared is BenchmarkSwapIndex's panel as the P ranks of
// a process column index it (moves, then plindx1 and plindx0): "own", each
// alone; "shared", through one Shared, as runner runs HPL. It reports the
// cost per rank.
func BenchmarkSwapIndexShared(b *testing.B) {
	const P, nb, n = 16, 128, 80000
	rng := rand.New(rand.NewPCG(5, 6))
	dpiv := make([]float64, nb)
	ia := 16 * nb
	for i := range dpiv { // model pivots: anywhere below
		dpiv[i] = float64(ia + i + rng.IntN(n-ia-i))
	}
	column := make([]*panel, P)
	for myrow := range column {
		pn := indexPanel(rng, false, myrow, P, nb, ia, n)
		pn.dpiv = dpiv
		column[myrow] = pn
	}
	for _, shared := range []bool{false, true} {
		name := map[bool]string{false: "own", true: "shared"}[shared]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				var sh *Shared
				if shared {
					sh = NewShared() // a new panel's lists
				}
				for _, pn := range column {
					pn.s.shared = sh
					indexAll(pn)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N*P), "ns/rank-panel")
		})
	}
}
