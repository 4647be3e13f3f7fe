package hpl

import "gonum.org/v1/gonum/blas"

// Base panel factorizations (HPL_pdpanllN/T, HPL_pdpancrN/T, HPL_pdpanrlN/T;
// hpl.md §5.2): columns icoff … icoff+n−1, one pivot round each. m is the number
// of active rows; on the diagonal rank they start at trailing row icoff.
//
// Each is, as factRun runs it (rfact.go):
//
//	locmax(first column)
//	for each column jj but the last {
//		swapPivot(jj); the variant's column (rightColumn, leftColumn, croutColumn); advance
//	}
//	swapPivot(last); scalPivot(last)
//
// with swapPivot the column's pivot exchange (mxswp, timed as MxSwp), then locswp.

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

// startBase begins the base routine on m rows and columns icoff … icoff+n−1
// (PFACT's): the first column's local candidate.
func (f *factRun) startBase(m, n, icoff int) {
	pn := f.pn
	f.base, f.c, f.icoff, f.n, f.jj, f.pivoting = true, pn.startCursor(m, icoff), icoff, n, icoff, false
	pn.locmax(f.c.m, f.c.ii, f.jj, f.work)
}

// column runs the base routine up to column jj's pivot exchange (true) or
// to its end (false): after the exchange, the pivot row's move (locswp)
// and the column's update, or, for the last column, its scaling.
func (f *factRun) column() bool {
	pn := f.pn
	s := pn.s
	if f.pivoting {
		s.timed(&s.phases.MxSwp, f.tx)
		pn.locswp(f.c.ii, f.jj, f.work)
		nm1 := f.n - 1 - (f.jj - f.icoff) // columns to its right
		if nm1 == 0 {
			pn.scalPivot(f.c, f.jj, f.work)
			f.pivoting = false
			return false
		}
		switch s.p.PFact {
		case Left:
			pn.leftColumn(f.c, f.icoff, f.jj, f.work)
		case Crout:
			pn.croutColumn(f.c, f.icoff, f.jj, nm1, f.work)
		default:
			pn.rightColumn(f.c, f.jj, nm1, f.work)
		}
		pn.advance(&f.c)
		f.jj++
	}
	f.pivoting = true
	f.tx = s.clk.now()
	return true
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

// rightColumn is HPL_pdpanrlN/T's column jj after its pivot row is in
// place, nm1 columns to its right.
func (pn *panel) rightColumn(c cursor, jj, nm1 int, work []float64) {
	k, lda, n0 := pn.s.k, pn.s.lda, pn.jb
	t := pn.s.p.L1Transposed
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
}

// leftColumn is HPL_pdpanllN/T's column jj (of a routine from column
// icoff) after its pivot row is in place.
func (pn *panel) leftColumn(c cursor, icoff, jj int, work []float64) {
	k, lda, n0 := pn.s.k, pn.s.lda, pn.jb
	t := pn.s.p.L1Transposed
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
}

// croutColumn is HPL_pdpancrN/T's column jj (of a routine from column
// icoff) after its pivot row is in place, nm1 columns to its right.
func (pn *panel) croutColumn(c cursor, icoff, jj, nm1 int, work []float64) {
	k, lda, n0 := pn.s.k, pn.s.lda, pn.jb
	t := pn.s.p.L1Transposed
	kk := jj - icoff
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
}
