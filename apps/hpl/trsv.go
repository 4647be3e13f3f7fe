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
	t1 := n - kb
	t2 := min(t1, n1)
	t1 -= t2
	// The rows of the next n1 columns' block rows this rank holds: read two
	// iterations on, and only by the ranks of two process columns, so kept
	// as numrocI's arguments and counted where read (its divisions, for every
	// rank and block, were a quarter of the back substitution's instructions).
	n1pprev := rowRange{t2, max(0, t1)}
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
	rowprev, colprev := alrow, alcol
	alrow, alcol = prevProc(alrow, P), prevProc(alcol, Q)
	kbprev := kb
	n -= kb
	kb = nb
	t1 = n - kb
	t2 = min(t1, n1)
	t1 -= t2
	n1p := rowRange{t2, max(0, t1)}
	xd := 0
	for n > 0 {
		if mycol == alcol {
			aptr -= lda * kb
			anq -= kb
			xd = anq
		}
		if myrow == alrow {
			anp -= kb
		}
		held := 0 // n1pprev's rows on this rank, counted where they are read
		if mycol == colprev || mycol == alcol {
			held = n1pprev.on(nb, myrow, P)
		}
		if mycol == colprev {
			if myrow == rowprev {
				if P > 1 {
					g.col.send(modSub(myrow, 1, P), ctag, kbprev*bytesPerDouble, s.xData(xdprev, kbprev))
				}
			} else {
				s.putX(xdprev, g.col.recv(modAdd(myrow, 1, P), ctag))
			}
			if held > 0 {
				o := anpprev - held
				k.Dgemv(blas.NoTrans, held, kbprev, -1, at(s.a, aprev+o), lda, at(s.x, xdprev), 1, 1, at(s.a, xc+o), 1)
				if Q > 1 {
					g.row.send(alcol, rtag, held*bytesPerDouble, s.colData(xc+o, held))
				}
			}
			if myrow != rowprev && myrow != modAdd(rowprev, 1, P) {
				g.col.send(modSub(myrow, 1, P), ctag, kbprev*bytesPerDouble, s.xData(xdprev, kbprev))
			}
		} else if mycol == alcol {
			if held > 0 {
				w := g.row.recv(colprev, rtag)
				k.Daxpy(held, 1, w, 1, at(s.a, xc+anpprev-held), 1)
			}
		}
		if mycol == alcol && myrow == alrow {
			k.Dtrsv(blas.Upper, blas.NoTrans, blas.NonUnit, kb, at(s.a, aptr+anp), lda, at(s.a, xc+anp), 1)
			k.Dcopy(kb, at(s.a, xc+anp), 1, at(s.x, anq), 1)
		}
		if mycol == colprev {
			if o := anpprev - held; o > 0 {
				k.Dgemv(blas.NoTrans, o, kbprev, -1, at(s.a, aprev), lda, at(s.x, xdprev), 1, 1, at(s.a, xc), 1)
			}
		}
		if mycol == alcol {
			xdprev = xd
			aprev = aptr
		}
		if myrow == alrow {
			anpprev -= kb
		}
		rowprev, colprev = alrow, alcol
		n1pprev = n1p
		kbprev = kb
		n -= kb
		alrow, alcol = prevProc(alrow, P), prevProc(alcol, Q)
		kb = nb
		t1 = n - kb
		t2 = min(t1, n1)
		t1 -= t2
		n1p = rowRange{t2, max(0, t1)}
		rtag = nextTrsvTag(rtag, tagTrsvBegin)
		ctag = nextTrsvTag(ctag, tagTrsvBegin+1)
	}
	if mycol == colprev {
		got := treeBcast(g.col, rowprev, s.xData(0, kbprev), kbprev, bytesPerDouble)
		if g.myrow != rowprev {
			s.putX(0, got)
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
