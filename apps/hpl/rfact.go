package hpl

import "gonum.org/v1/gonum/blas"

// Recursive panel factorizations (HPL_pdrpanllN/T, HPL_pdrpancrN/T,
// HPL_pdrpanrlN/T; hpl.md §5.1): split the n columns from icoff into chunks of
// b0 = ⌈⌈n/NBMIN⌉/NDIV⌉·NBMIN until a piece has ≤ NBMIN columns, which the base
// routine factors. The recursion itself sends nothing.

func (pn *panel) rfact(m, n, icoff int, work []float64) {
	s := pn.s
	nbmin, ndiv := s.p.NBMin, s.p.NDiv
	if n <= nbmin {
		t0 := s.clk.now()
		pn.pfact(m, n, icoff, work)
		s.timed(&s.phases.PFact, t0)
		return
	}
	k, lda, n0 := s.k, s.lda, pn.jb
	t := s.p.L1Transposed
	curr := pn.curr()
	nb := ((((n + nbmin - 1) / nbmin) + ndiv - 1) / ndiv) * nbmin
	jb := nb
	ii, jj := 0, 0
	// Aptr: the active rows of the range's first column; L1ptr: L1 at (icoff, icoff).
	arow := 0
	if curr {
		arow = icoff
	}
	aptr := func(i, j int) []float64 { return pn.aat(arow+i, icoff+j) }
	l1p := func(i, j int) []float64 { return pn.l1at(icoff+i, icoff+j) }
	// copyBack writes the first ioff rows of the chunk's L1 columns into A on the
	// diagonal rank (HPL_dlacpy in N form, HPL_dlatcpy in T form).
	copyBack := func(ioff, b int) {
		if !curr {
			return
		}
		if t {
			s.latcpy(ioff, b, pn.l1, ioff, n0, s.a, pn.aoff(0, ioff), lda)
		} else {
			s.lacpy(ioff, b, pn.l1, ioff*n0, n0, s.a, pn.aoff(0, ioff), lda)
		}
	}
	tB := blas.NoTrans
	if t {
		tB = blas.Trans
	}
	for {
		n -= jb
		ioff := icoff + jj
		switch s.p.RFact {
		case Left:
			if t {
				k.Dtrsm(blas.Right, blas.Upper, blas.NoTrans, blas.Unit, jb, jj, 1, l1p(0, 0), n0, l1p(jj, 0), n0)
				k.Dgemm(blas.NoTrans, tB, m, jb, jj, -1, aptr(ii, 0), lda, l1p(jj, 0), n0, 1, aptr(ii, jj), lda)
			} else {
				k.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, jj, jb, 1, l1p(0, 0), n0, l1p(0, jj), n0)
				k.Dgemm(blas.NoTrans, tB, m, jb, jj, -1, aptr(ii, 0), lda, l1p(0, jj), n0, 1, aptr(ii, jj), lda)
			}
			pn.rfact(m, jb, ioff, work)
			copyBack(ioff, jb)
			if curr {
				ii += jb
				m -= jb
			}
		case Crout:
			if t {
				k.Dgemm(blas.NoTrans, tB, m, jb, jj, -1, aptr(ii, 0), lda, l1p(jj, 0), n0, 1, aptr(ii, jj), lda)
			} else {
				k.Dgemm(blas.NoTrans, tB, m, jb, jj, -1, aptr(ii, 0), lda, l1p(0, jj), n0, 1, aptr(ii, jj), lda)
			}
			pn.rfact(m, jb, ioff, work)
			if n > 0 {
				if t {
					k.Dgemm(blas.NoTrans, blas.NoTrans, n, jb, jj, -1, l1p(jj+jb, 0), n0, l1p(0, jj), n0, 1, l1p(jj+jb, jj), n0)
					k.Dtrsm(blas.Right, blas.Upper, blas.NoTrans, blas.Unit, n, jb, 1, l1p(jj, jj), n0, l1p(jj+jb, jj), n0)
				} else {
					k.Dgemm(blas.NoTrans, blas.NoTrans, jb, n, jj, -1, l1p(jj, 0), n0, l1p(0, jj+jb), n0, 1, l1p(jj, jj+jb), n0)
					k.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, jb, n, 1, l1p(jj, jj), n0, l1p(jj, jj+jb), n0)
				}
			}
			copyBack(ioff, jb)
			if curr {
				ii += jb
				m -= jb
			}
		default: // right-looking
			pn.rfact(m, jb, ioff, work)
			if t {
				k.Dtrsm(blas.Right, blas.Upper, blas.NoTrans, blas.Unit, n, jb, 1, l1p(jj, jj), n0, l1p(jj+jb, jj), n0)
			} else {
				k.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, jb, n, 1, l1p(jj, jj), n0, l1p(jj, jj+jb), n0)
			}
			if curr {
				ii += jb
				m -= jb
			}
			if t {
				k.Dgemm(blas.NoTrans, tB, m, n, jb, -1, aptr(ii, jj), lda, l1p(jj+jb, jj), n0, 1, aptr(ii, jj+jb), lda)
			} else {
				k.Dgemm(blas.NoTrans, tB, m, n, jb, -1, aptr(ii, jj), lda, l1p(jj, jj+jb), n0, 1, aptr(ii, jj+jb), lda)
			}
			copyBack(ioff, jb)
		}
		jj += jb
		jb = min(n, nb)
		if n <= 0 {
			return
		}
	}
}
