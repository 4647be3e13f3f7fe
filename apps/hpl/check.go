package hpl

import (
	"math"

	"gonum.org/v1/gonum/blas"
)

// The residual check (hpl.md §10.2), untimed. Its messages are HPL's tree
// collectives; in model mode they travel without data and the numbers are zero.

// eps is the relative machine precision HPL uses (2⁻⁵³).
const eps = 1.0 / (1 << 53)

type normKind uint8

const (
	norm1 normKind = iota // max column sum
	normI                 // max row sum
)

// pdlange is HPL_pdlange for the one and infinity norms of an m×n distributed
// matrix whose local part is at a[off:] with leading dimension ld.
func (s *solver) pdlange(kind normKind, m, n int, a []float64, off, ld int) float64 {
	g := s.g
	nb := s.nb
	mp := numroc(m, nb, g.myrow, g.p)
	nq := numroc(n, nb, g.mycol, g.q)
	if min(m, n) == 0 {
		return 0
	}
	v0 := []float64{0}
	if !s.real {
		v0 = nil
	}
	// The two norms are one computation with the grid's roles swapped: the
	// one norm sums |a| down each local column, adds those sums over the
	// process column and takes their max on process row 0 across the process
	// row; the infinity norm sums along local rows, adds over the process row
	// and takes the max on process column 0 across the process column.
	sums, sumOver, maxOver, first := nq, g.col, g.row, g.myrow == 0
	if kind == normI {
		sums, sumOver, maxOver, first = mp, g.row, g.col, g.mycol == 0
	}
	if sums > 0 {
		var work []float64
		if s.real {
			work = make([]float64, sums)
			for j := range nq {
				for i := range mp {
					v := math.Abs(a[off+i+j*ld])
					if kind == norm1 {
						work[j] += v
					} else {
						work[i] += v
					}
				}
			}
		}
		work = treeReduce(sumOver, 0, work, sums, bytesPerDouble, opSum)
		if first && s.real {
			v0[0] = maxAbs(work)
		}
	}
	if first {
		v0 = treeReduce(maxOver, 0, v0, 1, bytesPerDouble, opMax)
	}
	v0 = treeBcast(g.all, 0, v0, 1, bytesPerDouble)
	if v0 == nil {
		return 0
	}
	return v0[0]
}

func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// checkResult holds the norms HPL prints on failure.
type checkResult struct {
	resid                                         float64
	rnorm, anormI, anorm1, xnormI, xnorm1, bnormI float64
}

// check regenerates [A | b] and computes the scaled residual.
func (s *solver) check() checkResult {
	g := s.g
	n, nb := s.n, s.nb
	if s.real {
		clear(s.a)
		matgen(s.a, s.lda, n, nb, g, s.mp, s.nq)
	}
	var r checkResult
	r.anorm1 = s.pdlange(norm1, n, n, s.a, 0, s.lda)
	r.anormI = s.pdlange(normI, n, n, s.a, 0, s.lda)
	r.xnormI = s.pdlange(norm1, 1, n, s.x, 0, 1)
	r.xnorm1 = s.pdlange(normI, 1, n, s.x, 0, 1)
	bo := s.nq * s.lda
	bcol := g2p(n, nb, g.q)
	var bn []float64
	if s.real {
		bn = []float64{0}
	}
	if g.mycol == bcol {
		if s.mp > 0 && s.real {
			bn[0] = maxAbs(s.a[bo : bo+s.mp])
		}
		bn = treeAllreduce(g.col, bn, 1, bytesPerDouble, opMax)
	}
	bn = treeBcast(g.row, bcol, bn, 1, bytesPerDouble)
	if bn != nil {
		r.bnormI = bn[0]
	}
	switch {
	case g.mycol == bcol:
		s.k.Dgemv(blas.NoTrans, s.mp, s.nq, -1, s.a, s.lda, s.x, 1, 1, at(s.a, bo), 1)
	case s.nq > 0:
		s.k.Dgemv(blas.NoTrans, s.mp, s.nq, -1, s.a, s.lda, s.x, 1, 0, at(s.a, bo), 1)
	default:
		if s.real {
			clear(s.a[bo : bo+s.mp])
		}
	}
	if s.mp > 0 {
		var col []float64
		if s.real {
			col = s.a[bo : bo+s.mp]
		}
		if red := treeReduce(g.row, 0, col, s.mp, bytesPerDouble, opSum); s.real {
			copy(s.a[bo:], red)
		}
	}
	r.rnorm = s.pdlange(normI, n, 1, s.a, bo, s.lda)
	if n > 0 {
		r.resid = r.rnorm / (eps * (r.anormI*r.xnormI + r.bnormI) * float64(n))
	}
	return r
}
