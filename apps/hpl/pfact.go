package hpl

import "gonum.org/v1/gonum/blas"

// Base panel factorizations (HPL_pdpanllN/T, HPL_pdpancrN/T, HPL_pdpanrlN/T;
// hpl.md §5.2): columns icoff … icoff+n−1, one pivot round each. m is the number
// of active rows; on the diagonal rank they start at trailing row icoff.

// pfact dispatches on PFACT.
func (pn *panel) pfact(m, n, icoff int, work []float64) {
	switch pn.s.p.PFact {
	case Left:
		pn.panLeft(m, n, icoff, work)
	case Crout:
		pn.panCrout(m, n, icoff, work)
	default:
		pn.panRight(m, n, icoff, work)
	}
}

// cursor holds the running row bookkeeping shared by the three base routines.
type cursor struct{ ii, iip1, m, mm1 int }

func (pn *panel) startCursor(m, icoff int) cursor {
	if pn.curr() {
		return cursor{ii: icoff, iip1: icoff + 1, m: m, mm1: m - 1}
	}
	return cursor{ii: 0, iip1: 0, m: m, mm1: m}
}

// advance drops the pivot row on the diagonal rank.
func (pn *panel) advance(c *cursor) {
	if pn.curr() {
		c.ii = c.iip1
		c.iip1++
		c.m = c.mm1
		c.mm1--
	}
}

// swapPivot agrees on column jj's pivot across the process column (which row,
// and its values into work) and moves that row into place.
func (pn *panel) swapPivot(c cursor, jj int, work []float64) {
	t0 := pn.s.clk.now()
	pn.mxswp(c.m, c.ii, jj, work)
	pn.s.timed(&pn.s.phases.MxSwp, t0)
	pn.locswp(c.ii, jj, work)
}

// lastColumn ends each base factorization: the last column has nothing to its
// right to update, so it only pivots and scales.
func (pn *panel) lastColumn(c cursor, jj int, work []float64) {
	pn.swapPivot(c, jj, work)
	pn.scalPivot(c, jj, work)
}

// scalPivot divides column jj below the pivot by the pivot (skipped when it is 0).
func (pn *panel) scalPivot(c cursor, jj int, work []float64) {
	if work[0] != 0 {
		pn.s.k.Dscal(c.mm1, 1/work[0], at(pn.s.a, pn.aoff(c.iip1, jj)), 1)
	}
}

// l1 returns L1 from offset (i, j) in its storage (nil in model mode).
func (pn *panel) l1at(i, j int) []float64 { return at(pn.l1, i+j*pn.jb) }

// a returns the local matrix from trailing entry (i, j) of the panel.
func (pn *panel) aat(i, j int) []float64 { return at(pn.s.a, pn.aoff(i, j)) }

func (pn *panel) panRight(m, n, icoff int, work []float64) {
	k, lda, n0 := pn.s.k, pn.s.lda, pn.jb
	t := pn.s.p.L1Transposed
	c := pn.startCursor(m, icoff)
	jj := icoff
	pn.locmax(c.m, c.ii, jj, work)
	for nm1 := n - 1; nm1 >= 1; nm1-- {
		pn.swapPivot(c, jj, work)
		pn.scalPivot(c, jj, work)
		u := work[4+jj+1] // U entry (jj, jj+1): from the pivot row (N) or L1 (T)
		if t && pn.l1 != nil {
			u = pn.l1[jj+1+jj*n0]
		}
		k.Daxpy(c.mm1, -u, pn.aat(c.iip1, jj), 1, pn.aat(c.iip1, jj+1), 1)
		pn.locmax(c.mm1, c.iip1, jj+1, work)
		if nm1 > 1 {
			y := at(work, 4+jj+2)
			if t {
				y = pn.l1at(jj+2, jj)
			}
			if !pn.s.real {
				y = nil
			}
			k.Dger(c.mm1, nm1-1, -1, pn.aat(c.iip1, jj), 1, y, 1, pn.aat(c.iip1, jj+2), lda)
		}
		pn.advance(&c)
		jj++
	}
	pn.lastColumn(c, jj, work)
}

func (pn *panel) panLeft(m, n, icoff int, work []float64) {
	k, lda, n0 := pn.s.k, pn.s.lda, pn.jb
	t := pn.s.p.L1Transposed
	c := pn.startCursor(m, icoff)
	jj := icoff
	pn.locmax(c.m, c.ii, jj, work)
	for nm1 := n - 1; nm1 > 0; nm1-- {
		pn.swapPivot(c, jj, work)
		kk := jj + 1 - icoff
		var l1p []float64
		inc := 1
		if t {
			l1p, inc = pn.l1at(jj+1, icoff), n0
			k.Dtrsv(blas.Upper, blas.Trans, blas.Unit, kk, pn.l1at(icoff, icoff), n0, l1p, n0)
		} else {
			l1p = pn.l1at(icoff, jj+1)
			k.Dtrsv(blas.Lower, blas.NoTrans, blas.Unit, kk, pn.l1at(icoff, icoff), n0, l1p, 1)
		}
		pn.scalPivot(c, jj, work)
		k.Dgemv(blas.NoTrans, c.mm1, kk, -1, pn.aat(c.iip1, icoff), lda, l1p, inc, 1, pn.aat(c.iip1, jj+1), 1)
		pn.locmax(c.mm1, c.iip1, jj+1, work)
		if pn.curr() {
			k.Dcopy(kk, l1p, inc, pn.aat(icoff, jj+1), 1)
		}
		pn.advance(&c)
		jj++
	}
	pn.lastColumn(c, jj, work)
}

func (pn *panel) panCrout(m, n, icoff int, work []float64) {
	k, lda, n0 := pn.s.k, pn.s.lda, pn.jb
	t := pn.s.p.L1Transposed
	c := pn.startCursor(m, icoff)
	jj := icoff
	kk := 0
	pn.locmax(c.m, c.ii, jj, work)
	for nm1 := n - 1; nm1 > 0; nm1-- {
		pn.swapPivot(c, jj, work)
		if kk > 0 {
			if t {
				l1p := pn.l1at(jj+1, jj)
				k.Dgemv(blas.NoTrans, nm1, kk, -1, pn.l1at(jj+1, icoff), n0, pn.l1at(icoff, jj), 1, 1, l1p, 1)
				if pn.curr() {
					k.Dcopy(nm1, l1p, 1, pn.aat(c.ii, jj+1), lda)
				}
			} else {
				l1p := pn.l1at(jj, jj+1)
				k.Dgemv(blas.Trans, kk, nm1, -1, pn.l1at(icoff, jj+1), n0, pn.l1at(jj, icoff), n0, 1, l1p, n0)
				if pn.curr() {
					k.Dcopy(nm1, l1p, n0, pn.aat(c.ii, jj+1), lda)
				}
			}
		}
		pn.scalPivot(c, jj, work)
		if t {
			k.Dgemv(blas.NoTrans, c.mm1, kk+1, -1, pn.aat(c.iip1, icoff), lda, pn.l1at(jj+1, icoff), n0, 1, pn.aat(c.iip1, jj+1), 1)
		} else {
			k.Dgemv(blas.NoTrans, c.mm1, kk+1, -1, pn.aat(c.iip1, icoff), lda, pn.l1at(icoff, jj+1), 1, 1, pn.aat(c.iip1, jj+1), 1)
		}
		pn.locmax(c.mm1, c.iip1, jj+1, work)
		pn.advance(&c)
		jj++
		kk++
	}
	pn.lastColumn(c, jj, work)
}
