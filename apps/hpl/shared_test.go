package hpl

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/emu-hpc/emu/kernels"
)

// A run whose ranks share one Shared gives every result a run without it
// gives, float for float: real and model mode, each swap algorithm, with
// look-ahead (ranks a panel apart use the Shared's lists in turn).
func TestSharedChangesNothing(t *testing.T) {
	for _, mode := range []kernels.Mode{kernels.Real, kernels.Model} {
		for _, swap := range []Swap{BinaryExchange, SpreadRoll, Mix} {
			t.Run(fmt.Sprintf("mode%d/swap%d", mode, swap), func(t *testing.T) {
				p := DefaultParams()
				p.N, p.NB, p.P, p.Q, p.Swap, p.SwapThreshold, p.Depth = 200, 8, 3, 2, swap, 40, 1
				alone := runHPL(t, p, mode, Options{}, 1e-6)
				shared := runHPL(t, p, mode, Options{Shared: NewShared()}, 1e-6)
				if alone.Time != shared.Time || alone.Residual != shared.Residual || alone.Phases != shared.Phases {
					t.Fatalf("with a Shared %+v, without %+v", shared, alone)
				}
			})
		}
	}
}

// A Shared computes a panel's list once and hands it to every rank with
// the same panel and pivots; other pivots get a list of their own.
func TestSharedComputesOnce(t *testing.T) {
	sh := NewShared()
	k := moveKey{ia: 16, jb: 8, nb: 8, p: 3, prow: 2}
	dpiv := []float64{40, 17, 18, 90, 20, 21, 30, 23}
	a, b := sh.moves(k, dpiv), sh.moves(k, append([]float64(nil), dpiv...))
	if a != b {
		t.Fatal("the same panel and pivots gave two lists")
	}
	var sc swapScratch
	ipid, _, owner := computeMoves(&sc, k, dpiv, nil, nil, nil)
	if fmt.Sprint(a.ipid, a.owner) != fmt.Sprint(ipid, owner) {
		t.Fatalf("shared list %v %v, a rank's own %v %v", a.ipid, a.owner, ipid, owner)
	}
	dpiv[0] = 41
	if c := sh.moves(k, dpiv); c == a || fmt.Sprint(c.ipid) == fmt.Sprint(a.ipid) {
		t.Fatal("other pivots gave the same list")
	}
}

// BenchmarkSharedMoves is a panel's list of moves as the ranks of a grid
// get it (NB = 1024, P = 77: Stampede's panels): "own", each of 64 ranks
// computes it, as before Shared; "shared", the first computes it and the
// others find it in one Shared.
func BenchmarkSharedMoves(b *testing.B) {
	const P, nb, n, ranks = 77, 1024, 3875000, 64
	rng := rand.New(rand.NewPCG(5, 6))
	pn := indexPanel(rng, false, 1, P, nb, 16*nb, n)
	for i := range pn.dpiv { // model pivots: anywhere below
		pn.dpiv[i] = float64(pn.ia + i + rng.IntN(n-pn.ia-i))
	}
	b.Run("own", func(b *testing.B) {
		for b.Loop() {
			for range ranks {
				x := &pn.swp
				x.ipid, x.next, x.owner = computeMoves(&pn.s.swap, pn.moveKey(), pn.dpiv, x.ipid, x.next, x.owner)
			}
		}
		b.ReportMetric(float64(b.N*ranks)/b.Elapsed().Seconds(), "rank-panels/s")
	})
	b.Run("shared", func(b *testing.B) {
		sh := NewShared()
		for b.Loop() {
			sh.recent = [sharedLists]*moveList{} // a new panel
			for range ranks {
				sh.moves(pn.moveKey(), pn.dpiv)
			}
		}
		b.ReportMetric(float64(b.N*ranks)/b.Elapsed().Seconds(), "rank-panels/s")
	})
}

// The binary-exchange index arrays (plindx0) of a panel are computed once
// per process row with a Shared: the ranks of one row get the same arrays,
// equal to those a rank computes alone, and other rows get their own.
func TestSharedIndexOncePerRow(t *testing.T) {
	const P, nb, n = 5, 16, 1000
	for _, real := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(7, 8))
		pivots := randomPivots(rng, 3*nb, nb, n)
		sh := NewShared()
		rank := func(myrow int, shared *Shared) *panel {
			pn := indexPanel(rng, real, myrow, P, nb, 3*nb, n)
			pn.dpiv = append([]float64(nil), pivots...)
			pn.s.shared = shared
			pn.swp.iflag = -1
			pn.moves()
			pn.plindx0()
			return pn
		}
		moving := 0
		for myrow := range P {
			a, b, alone := rank(myrow, sh), rank(myrow, sh), rank(myrow, nil)
			if unsafe.SliceData(a.swp.lindxAU) != unsafe.SliceData(b.swp.lindxAU) || unsafe.SliceData(a.swp.llen) != unsafe.SliceData(b.swp.llen) {
				t.Errorf("real=%v row %d: two ranks of the row computed their arrays apart", real, myrow)
			}
			if len(a.swp.lindxA) > 0 {
				moving++
			}
			got := fmt.Sprint(a.swp.llen, a.swp.lindxA, a.swp.lindxAU)
			if want := fmt.Sprint(alone.swp.llen, alone.swp.lindxA, alone.swp.lindxAU); got != want {
				t.Errorf("real=%v row %d: shared %s, alone %s", real, myrow, got, want)
			}
		}
		if moving < 2 {
			t.Fatalf("real=%v: rows with moves %d, want a test with several", real, moving)
		}
		if l := sh.recent[0]; l == nil || len(l.rows) != P || l.rows[0] == l.rows[1] {
			t.Errorf("real=%v: the list holds no row arrays of its own per row", real)
		}
	}
}
