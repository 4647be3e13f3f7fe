package hpl

import (
	"math/rand/v2"
	"testing"
)

// prevProc is modSub(a, 1, n) on every process index.
func TestPrevProcIsModSub(t *testing.T) {
	for n := 1; n <= 9; n++ {
		for a := range n {
			if got, want := prevProc(a, n), modSub(a, 1, n); got != want {
				t.Fatalf("prevProc(%d, %d) = %d, modSub %d", a, n, got, want)
			}
		}
	}
}

// trsvStep.advance is HPL_pdtrsv's end-of-block-row bookkeeping repeated
// until the rank takes part in a block row (or none is left): checked
// against the bookkeeping written out as HPL_pdtrsv does it, one block row
// at a time, from random states.
func TestTrsvAdvanceSkipsOnlyIdleBlockRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for range 2000 {
		P, Q, nb := 1+rng.IntN(9), 1+rng.IntN(9), 1+rng.IntN(70)
		myrow, mycol := rng.IntN(P), rng.IntN(Q)
		c := trsvStep{n: 1 + rng.IntN(40*nb), kb: nb, kbprev: 1 + rng.IntN(nb),
			alrow: rng.IntN(P), alcol: rng.IntN(Q), rowprev: rng.IntN(P), colprev: rng.IntN(Q),
			rtag: tagTrsvBegin + 2*rng.IntN(100), ctag: tagTrsvBegin + 1 + 2*rng.IntN(100)}
		want := c
		for {
			want.rowprev, want.colprev, want.kbprev = want.alrow, want.alcol, want.kb
			want.n -= want.kb
			want.kb = nb
			want.alrow, want.alcol = modSub(want.alrow, 1, P), modSub(want.alcol, 1, Q)
			want.rtag = nextTrsvTag(want.rtag, tagTrsvBegin)
			want.ctag = nextTrsvTag(want.ctag, tagTrsvBegin+1)
			if want.n <= 0 || want.involves(myrow, mycol) {
				break
			}
		}
		got := c
		got.advance(nb, P, Q, myrow, mycol)
		if got != want {
			t.Fatalf("from %+v (P %d Q %d nb %d, rank %d,%d): %+v, block row by block row %+v", c, P, Q, nb, myrow, mycol, got, want)
		}
	}
}
