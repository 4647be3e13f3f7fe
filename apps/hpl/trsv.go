package hpl

import "gonum.org/v1/gonum/blas"

// trsv is HPL_pdtrsv (hpl.md §9): solve U x = y block by block from the last,
// y being the updated b in column N; x ends replicated in every process row.
func (s *solver) trsv() {
	defer s.timed(&s.phases.UpTrsv, s.clk.now())
	n := s.n
	if n <= 0 {
		return
	}
	g := s.g
	k, nb, lda := s.k, s.nb, s.lda
	P, Q, myrow, mycol := g.p, g.q, g.myrow, g.mycol
	rtag, ctag := tagTrsvBegin, tagTrsvBegin+1
	anp := numroc(n, nb, myrow, P)
	anq := numroc(n, nb, mycol, Q)
	tmp := (n - 1) / nb
	alrow, alcol := tmp%P, tmp%Q
	kb := n - tmp*nb
	xc := anq * lda // offset of the extra column (b / scratch)
	bcol := g2p(n, nb, Q)
	if anp > 0 && alcol != bcol {
		if mycol == bcol {
			sendD(g.row, alcol, anp, s.colData(xc, anp), rtag)
		} else if mycol == alcol {
			s.putCol(xc, recvD(g.row, bcol, anp, rtag))
		}
	}
	rtag = nextTrsvTag(rtag, tagTrsvBegin)
	if mycol != alcol && s.real {
		clear(s.a[xc : xc+anp])
	}
	n1 := max((Q-1)*nb, nb)
	anpprev := anp
	xdprev := 0 // offsets into s.x
	aptr := anq * lda
	aprev := aptr
	if myrow == alrow {
		anp -= kb
		anpprev = anp
	}
	if mycol == alcol {
		aptr -= lda * kb
		aprev = aptr
		anq -= kb
		xdprev = anq
		if myrow == alrow {
			k.Dtrsv(blas.Upper, blas.NoTrans, blas.NonUnit, kb, at(s.a, aptr+anp), lda, at(s.a, xc+anp), 1)
			k.Dcopy(kb, at(s.a, xc+anp), 1, at(s.x, anq), 1)
		}
	}
	// The last block row is done: the loop starts at the one before.
	c := trsvStep{n: n - kb, kb: nb, kbprev: kb, alrow: prevProc(alrow, P), alcol: prevProc(alcol, Q),
		rowprev: alrow, colprev: alcol, rtag: rtag, ctag: ctag}
	if c.n > 0 && !c.involves(myrow, mycol) {
		c.advance(nb, P, Q, myrow, mycol)
	}
	xd := 0
	for c.n > 0 {
		kb, kbprev := c.kb, c.kbprev
		if mycol == c.alcol {
			aptr -= lda * kb
			anq -= kb
			xd = anq
		}
		if myrow == c.alrow {
			anp -= kb
		}
		// The rows this rank holds of the n1 columns before the previous
		// block row (HPL's n1pprev): counted here, where they are read, and
		// not by every rank at every block row (numrocI's divisions were a
		// quarter of the back substitution's instructions).
		held := 0
		if mycol == c.colprev || mycol == c.alcol {
			t1 := c.n // HPL's t1 + t2, taken a block row ago: n − kb then
			t2 := min(t1, n1)
			held = numrocI(t2, max(0, t1-t2), nb, myrow, P)
		}
		if mycol == c.colprev {
			if myrow == c.rowprev {
				if P > 1 {
					g.col.send(modSub(myrow, 1, P), c.ctag, kbprev*bytesPerDouble, s.xData(xdprev, kbprev))
				}
			} else {
				s.putX(xdprev, g.col.recv(modAdd(myrow, 1, P), c.ctag))
			}
			if held > 0 {
				o := anpprev - held
				k.Dgemv(blas.NoTrans, held, kbprev, -1, at(s.a, aprev+o), lda, at(s.x, xdprev), 1, 1, at(s.a, xc+o), 1)
				if Q > 1 {
					g.row.send(c.alcol, c.rtag, held*bytesPerDouble, s.colData(xc+o, held))
				}
			}
			if myrow != c.rowprev && myrow != modAdd(c.rowprev, 1, P) {
				g.col.send(modSub(myrow, 1, P), c.ctag, kbprev*bytesPerDouble, s.xData(xdprev, kbprev))
			}
		} else if mycol == c.alcol {
			if held > 0 {
				w := g.row.recv(c.colprev, c.rtag)
				k.Daxpy(held, 1, w, 1, at(s.a, xc+anpprev-held), 1)
			}
		}
		if mycol == c.alcol && myrow == c.alrow {
			k.Dtrsv(blas.Upper, blas.NoTrans, blas.NonUnit, kb, at(s.a, aptr+anp), lda, at(s.a, xc+anp), 1)
			k.Dcopy(kb, at(s.a, xc+anp), 1, at(s.x, anq), 1)
		}
		if mycol == c.colprev {
			if o := anpprev - held; o > 0 {
				k.Dgemv(blas.NoTrans, o, kbprev, -1, at(s.a, aprev), lda, at(s.x, xdprev), 1, 1, at(s.a, xc), 1)
			}
		}
		if mycol == c.alcol {
			xdprev = xd
			aprev = aptr
		}
		if myrow == c.alrow {
			anpprev -= kb
		}
		c.advance(nb, P, Q, myrow, mycol)
	}
	if mycol == c.colprev {
		got := treeBcast(g.col, c.rowprev, s.xData(0, c.kbprev), c.kbprev, bytesPerDouble)
		if g.myrow != c.rowprev {
			s.putX(0, got)
		}
	}
}

// trsvStep is where HPL_pdtrsv's loop stands: the block row to solve (its
// process row and column, its width kb, n columns up to its end), the
// previous block row's, and the two message tags.
type trsvStep struct {
	n, kb, kbprev                  int
	alrow, alcol, rowprev, colprev int
	rtag, ctag                     int
}

// involves reports whether the rank in process row myrow and column mycol
// takes part in the block row: it is in its process row or column, or in
// the previous block row's column.
func (c *trsvStep) involves(myrow, mycol int) bool {
	return takesPart(myrow, mycol, c.alrow, c.alcol, c.colprev)
}

// takesPart is involves on the step's values, for advance's locals.
func takesPart(myrow, mycol, alrow, alcol, colprev int) bool {
	return mycol == alcol || mycol == colprev || myrow == alrow
}

// advance steps to the block row before, as every rank does after each,
// and on past the block rows the rank takes no part in — most of them: it
// only counts them down, in locals rather than through c.
func (c *trsvStep) advance(nb, P, Q, myrow, mycol int) {
	n, kb, alrow, alcol, rtag, ctag := c.n, c.kb, c.alrow, c.alcol, c.rtag, c.ctag
	for {
		rowprev, colprev, kbprev := alrow, alcol, kb
		n -= kb
		kb = nb
		alrow, alcol = prevProc(alrow, P), prevProc(alcol, Q)
		rtag, ctag = nextTrsvTag(rtag, tagTrsvBegin), nextTrsvTag(ctag, tagTrsvBegin+1)
		if n <= 0 || takesPart(myrow, mycol, alrow, alcol, colprev) {
			*c = trsvStep{n: n, kb: kb, kbprev: kbprev, alrow: alrow, alcol: alcol,
				rowprev: rowprev, colprev: colprev, rtag: rtag, ctag: ctag}
			return
		}
	}
}

func nextTrsvTag(t, begin int) int {
	if t+2 > tagTrsvEnd {
		return begin
	}
	return t + 2
}

// colData / xData copy a piece of the local matrix or of x for sending (nil in
// model mode); putCol / putX store a received piece.
func (s *solver) colData(off, n int) []float64 {
	if !s.real {
		return nil
	}
	return append([]float64(nil), s.a[off:off+n]...)
}

func (s *solver) xData(off, n int) []float64 {
	if !s.real {
		return nil
	}
	return append([]float64(nil), s.x[off:off+n]...)
}

func (s *solver) putCol(off int, d []float64) {
	if s.real {
		copy(s.a[off:], d)
	}
}

func (s *solver) putX(off int, d []float64) {
	if s.real {
		copy(s.x[off:], d)
	}
}
