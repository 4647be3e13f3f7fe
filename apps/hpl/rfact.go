package hpl

import (
	"gonum.org/v1/gonum/blas"

	"github.com/emu-hpc/emu/ranks"
)

// Recursive panel factorizations (HPL_pdrpanllN/T, HPL_pdrpancrN/T,
// HPL_pdrpanrlN/T; hpl.md §5.1): split the n columns from icoff into chunks of
// b0 = ⌈⌈n/NBMIN⌉/NDIV⌉·NBMIN until a piece has ≤ NBMIN columns, which the base
// routine factors. The recursion itself sends nothing.
//
// factRun is one panel's factorization, the recursion and its base
// routines (pfact.go), as a run that stops before each column's pivot
// exchange (HPL_pdmxswp): run goes on up to the next one and returns true,
// or to the end (false). Between two exchanges it only charges kernels and
// reads the clock, so that the exchanges and the work between them can be
// one task of the rank (ranks.Comm.SendRecvsRounds, Next): the rank's
// coroutine then parks once a panel where it parked once a column. The
// recursion's calls are frames on a stack; run resumes the innermost.
type factRun struct {
	pn    *panel
	work  []float64
	stack []rframe // rfact's calls, the innermost last; reused
	// The base routine that runs (base): its rows, its first column and
	// width, the column jj it is at, when it began (PFact) and when jj's
	// pivot exchange began (MxSwp).
	base     bool
	c        cursor
	icoff, n int
	jj       int
	t0, tx   float64
	pivoting bool // jj's pivot exchange is next, or under way: run resumes after it
	cube     bool // Next's: jj's hypercube exchange is under way (pivotDone follows)
}

// rframe is one call rfact(m, n, icoff) of the recursion, at chunk jj of
// width jb; back says the chunk's inner call has returned.
type rframe struct {
	m, n, icoff    int // the call's arguments, m and n as its chunks move them
	nb, jb, ii, jj int
	back           bool
}

// begin starts the factorization of pn's m rows and n columns from icoff,
// with work as HPL's WORK.
func (f *factRun) begin(pn *panel, m, n, icoff int, work []float64) {
	f.pn, f.work, f.stack, f.base, f.cube = pn, work, f.stack[:0], false, false
	f.call(m, n, icoff)
}

// end drops the references to the panel and its workspace.
func (f *factRun) end() { f.pn, f.work = nil, nil }

// call is rfact(m, n, icoff): the base routine for n ≤ NBMIN, else a frame.
func (f *factRun) call(m, n, icoff int) {
	s := f.pn.s
	nbmin, ndiv := s.p.NBMin, s.p.NDiv
	if n <= nbmin {
		f.t0 = s.clk.now()
		f.startBase(m, n, icoff)
		return
	}
	nb := ((((n + nbmin - 1) / nbmin) + ndiv - 1) / ndiv) * nbmin
	f.stack = append(f.stack, rframe{m: m, n: n, icoff: icoff, nb: nb, jb: nb})
}

// run factors up to the next column's pivot exchange (true) or to the end
// of the panel (false). After true, the caller makes the exchange
// (pn.mxswp(f.c.m, f.c.ii, f.jj, f.work)) before it calls run again.
func (f *factRun) run() bool {
	s := f.pn.s
	for {
		if f.base {
			if f.column() {
				return true
			}
			f.base = false
			s.timed(&s.phases.PFact, f.t0)
			continue
		}
		top := len(f.stack) - 1
		if top < 0 {
			return false
		}
		fr := &f.stack[top]
		if fr.back {
			f.chunkAfter(fr)
			fr.back = false
			fr.jj += fr.jb
			fr.jb = min(fr.n, fr.nb)
			if fr.n <= 0 {
				f.stack = f.stack[:top]
				continue
			}
		}
		fr.n -= fr.jb
		f.chunkBefore(fr)
		fr.back = true
		f.call(fr.m, fr.jb, fr.icoff+fr.jj) // may move the stack: fr's last use
	}
}

// Next is run for ranks.Comm.SendRecvsRounds: each round ends with a
// column's pivot exchange as the hypercube's steps (P a power of two,
// pivotRounds), the exchange's end (pivotDone) beginning the next round.
func (f *factRun) Next() (int, ranks.Exchanger, bool) {
	pn := f.pn
	if f.cube {
		f.cube = false
		pn.pivotDone(f.jj, f.work)
	}
	if !f.run() {
		return 0, nil, false
	}
	f.cube = true
	return pn.pivotCube(f.c.m, f.c.ii, f.work), &pn.s.pivotX, true
}

// aptr is the active rows of frame fr's first column, from (i, j): Aptr.
func (f *factRun) aptr(fr *rframe, i, j int) []float64 {
	pn := f.pn
	if pn.curr() {
		i += fr.icoff
	}
	return pn.aat(i, fr.icoff+j)
}

// l1p is L1 from (i, j) of frame fr's range: L1ptr.
func (f *factRun) l1p(fr *rframe, i, j int) []float64 {
	return f.pn.l1at(fr.icoff+i, fr.icoff+j)
}

// chunkBefore is what rfact's loop does for chunk jj before its inner call.
func (f *factRun) chunkBefore(fr *rframe) {
	s := f.pn.s
	k, lda, n0 := s.k, s.lda, f.pn.jb
	t := s.p.L1Transposed
	m, jb, jj, ii := fr.m, fr.jb, fr.jj, fr.ii
	switch s.p.RFact {
	case Left:
		if t {
			k.Dtrsm(blas.Right, blas.Upper, blas.NoTrans, blas.Unit, jb, jj, 1, f.l1p(fr, 0, 0), n0, f.l1p(fr, jj, 0), n0)
			k.Dgemm(blas.NoTrans, blas.Trans, m, jb, jj, -1, f.aptr(fr, ii, 0), lda, f.l1p(fr, jj, 0), n0, 1, f.aptr(fr, ii, jj), lda)
		} else {
			k.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, jj, jb, 1, f.l1p(fr, 0, 0), n0, f.l1p(fr, 0, jj), n0)
			k.Dgemm(blas.NoTrans, blas.NoTrans, m, jb, jj, -1, f.aptr(fr, ii, 0), lda, f.l1p(fr, 0, jj), n0, 1, f.aptr(fr, ii, jj), lda)
		}
	case Crout:
		if t {
			k.Dgemm(blas.NoTrans, blas.Trans, m, jb, jj, -1, f.aptr(fr, ii, 0), lda, f.l1p(fr, jj, 0), n0, 1, f.aptr(fr, ii, jj), lda)
		} else {
			k.Dgemm(blas.NoTrans, blas.NoTrans, m, jb, jj, -1, f.aptr(fr, ii, 0), lda, f.l1p(fr, 0, jj), n0, 1, f.aptr(fr, ii, jj), lda)
		}
	}
}

// chunkAfter is what rfact's loop does for chunk jj after its inner call.
func (f *factRun) chunkAfter(fr *rframe) {
	pn := f.pn
	s := pn.s
	k, n0 := s.k, pn.jb
	t := s.p.L1Transposed
	curr := pn.curr()
	n, jb, jj := fr.n, fr.jb, fr.jj
	ioff := fr.icoff + jj
	tB := blas.NoTrans
	if t {
		tB = blas.Trans
	}
	switch s.p.RFact {
	case Left:
		f.copyBack(ioff, jb)
	case Crout:
		if n > 0 {
			if t {
				k.Dgemm(blas.NoTrans, blas.NoTrans, n, jb, jj, -1, f.l1p(fr, jj+jb, 0), n0, f.l1p(fr, 0, jj), n0, 1, f.l1p(fr, jj+jb, jj), n0)
				k.Dtrsm(blas.Right, blas.Upper, blas.NoTrans, blas.Unit, n, jb, 1, f.l1p(fr, jj, jj), n0, f.l1p(fr, jj+jb, jj), n0)
			} else {
				k.Dgemm(blas.NoTrans, blas.NoTrans, jb, n, jj, -1, f.l1p(fr, jj, 0), n0, f.l1p(fr, 0, jj+jb), n0, 1, f.l1p(fr, jj, jj+jb), n0)
				k.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, jb, n, 1, f.l1p(fr, jj, jj), n0, f.l1p(fr, jj, jj+jb), n0)
			}
		}
		f.copyBack(ioff, jb)
	default: // right-looking
		if t {
			k.Dtrsm(blas.Right, blas.Upper, blas.NoTrans, blas.Unit, n, jb, 1, f.l1p(fr, jj, jj), n0, f.l1p(fr, jj+jb, jj), n0)
		} else {
			k.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, jb, n, 1, f.l1p(fr, jj, jj), n0, f.l1p(fr, jj, jj+jb), n0)
		}
		if curr {
			fr.ii += jb
			fr.m -= jb
		}
		if t {
			k.Dgemm(blas.NoTrans, tB, fr.m, n, jb, -1, f.aptr(fr, fr.ii, jj), s.lda, f.l1p(fr, jj+jb, jj), n0, 1, f.aptr(fr, fr.ii, jj+jb), s.lda)
		} else {
			k.Dgemm(blas.NoTrans, tB, fr.m, n, jb, -1, f.aptr(fr, fr.ii, jj), s.lda, f.l1p(fr, jj, jj+jb), n0, 1, f.aptr(fr, fr.ii, jj+jb), s.lda)
		}
		f.copyBack(ioff, jb)
		return
	}
	if curr {
		fr.ii += jb
		fr.m -= jb
	}
}

// copyBack writes the first ioff rows of a chunk's b L1 columns into A on
// the diagonal rank (HPL_dlacpy in N form, HPL_dlatcpy in T form).
func (f *factRun) copyBack(ioff, b int) {
	pn := f.pn
	s := pn.s
	if !pn.curr() {
		return
	}
	if s.p.L1Transposed {
		s.latcpy(ioff, b, pn.l1, ioff, pn.jb, s.a, pn.aoff(0, ioff), s.lda)
	} else {
		s.lacpy(ioff, b, pn.l1, ioff*pn.jb, pn.jb, s.a, pn.aoff(0, ioff), s.lda)
	}
}
