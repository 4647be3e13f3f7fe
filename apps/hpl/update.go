package hpl

import "gonum.org/v1/gonum/blas"

// update is HPL_pdupdateNN/NT/TN/TT (hpl.md §8): apply panel pn to the next nn of
// its remaining local columns (all when nn < 0), driving the broadcast of pb (nil
// for none) at HPL's probe points.
func (s *solver) update(pb, pn *panel, nn int) {
	defer s.timed(&s.phases.Update, s.clk.now())
	nb, jb := s.nb, pn.jb
	n := pn.nq
	if nn >= 0 {
		n = min(nn, n)
	}
	if n <= 0 || jb <= 0 {
		if pb != nil {
			bcastSpin(pb)
		}
		return
	}
	p := newProber(pb)
	pr := &p
	pr.poll()
	if s.g.p == 1 {
		s.updateOneRow(pr, pn, n, nb)
	} else {
		s.updateRows(pr, pn, n, nb)
	}
	pn.jj += n
	pn.nq -= n
}

// updateOneRow is the P = 1 branch: local interchanges, trsm and gemm in NB-wide
// chunks while the broadcast is pending.
func (s *solver) updateOneRow(pr *prober, pn *panel, n, nb int) {
	k, lda, jb := s.k, s.lda, pn.jb
	mp := pn.mp - jb
	ipiv := make([]int, jb)
	for i := range jb {
		ipiv[i] = int(pn.dpiv[i]) - pn.ii
	}
	uplo, tr := blas.Lower, blas.NoTrans
	if s.p.L1Transposed {
		uplo, tr = blas.Upper, blas.Trans
	}
	apply := func(col, nn int) {
		t0 := s.clk.now()
		s.k.charge(kLaswp, "dlaswp00N", jb, nn, pn.mp)
		if s.real {
			for i, ip := range ipiv {
				if i != ip {
					a, b := pn.aoff(i, col), pn.aoff(ip, col)
					for c := range nn {
						s.a[a+c*lda], s.a[b+c*lda] = s.a[b+c*lda], s.a[a+c*lda]
					}
				}
			}
		}
		s.timed(&s.phases.Laswp, t0)
		k.Dtrsm(blas.Left, uplo, tr, blas.Unit, jb, nn, 1, pn.l1, jb, pn.aat(0, col), lda)
		k.Dgemm(blas.NoTrans, blas.NoTrans, mp, nn, jb, -1, at(pn.l2, pn.l2o), pn.ldl2, pn.aat(0, col), lda, 1, pn.aat(jb, col), lda)
	}
	pr.inChunks(n, nb, chargesEmpty(s.k), apply)
}

// updateRows is the P > 1 branch: row swap (which builds U), then trsm on U, gemm
// and, on the panel's process row, the copy of U back into A.
func (s *solver) updateRows(pr *prober, pn *panel, n, nb int) {
	k, lda, jb := s.k, s.lda, pn.jb
	if s.real {
		pn.u = make([]float64, jb*n)
	} else {
		pn.u = nil
	}
	t0 := s.clk.now()
	if s.p.Swap == SpreadRoll || (s.p.Swap == Mix && n > s.p.SwapThreshold) {
		pn.swapSpreadRoll(pr, n)
	} else {
		pn.swapBinary(pr, n)
	}
	s.timed(&s.phases.Laswp, t0)
	curr := pn.curr()
	mp := pn.mp
	if curr {
		mp -= jb
	}
	lt, ut := s.p.L1Transposed, s.p.UTransposed
	apply := func(col, nn int) {
		var side blas.Side
		var uplo blas.Uplo
		var tr blas.Transpose
		switch {
		case !lt && !ut:
			side, uplo, tr = blas.Left, blas.Lower, blas.NoTrans
		case !lt && ut:
			side, uplo, tr = blas.Right, blas.Lower, blas.Trans
		case lt && !ut:
			side, uplo, tr = blas.Left, blas.Upper, blas.Trans
		default:
			side, uplo, tr = blas.Right, blas.Upper, blas.NoTrans
		}
		var uo, ldu int
		tB := blas.NoTrans
		if ut {
			uo, ldu, tB = col, n, blas.Trans
			k.Dtrsm(side, uplo, tr, blas.Unit, nn, jb, 1, pn.l1, jb, at(pn.u, uo), ldu)
		} else {
			uo, ldu = col*jb, jb
			k.Dtrsm(side, uplo, tr, blas.Unit, jb, nn, 1, pn.l1, jb, at(pn.u, uo), ldu)
		}
		dst := 0
		if curr {
			dst = jb
		}
		k.Dgemm(blas.NoTrans, tB, mp, nn, jb, -1, at(pn.l2, pn.l2o), pn.ldl2, at(pn.u, uo), ldu, 1, pn.aat(dst, col), lda)
		if curr {
			if ut {
				s.latcpy(jb, nn, pn.u, uo, ldu, s.a, pn.aoff(0, col), lda)
			} else {
				s.lacpy(jb, nn, pn.u, uo, ldu, s.a, pn.aoff(0, col), lda)
			}
		}
	}
	pr.inChunks(n, nb, chargesEmpty(s.k), apply)
}

// inChunks applies the update to n columns as HPL's update routines do: nb
// columns at a time with a probe of the broadcast after each chunk while it is
// pending, then the rest in one call once it is done. Once the columns are
// exhausted, HPL keeps polling between empty calls (nn = 0): where those
// cost time (emptyCosts, kernels.Config.ChargeEmpty) they are made, one per
// poll, as HPL makes them; otherwise the rank spins on the broadcast alone.
func (pr *prober) inChunks(n, nb int, emptyCosts bool, apply func(col, nn int)) {
	done := 0
	for !pr.done {
		c := min(nb, n-done)
		if c == 0 && !emptyCosts {
			pr.spin()
			break
		}
		apply(done, c)
		done += c
		pr.poll()
	}
	if n-done > 0 {
		apply(done, n-done)
	}
}

// chargesEmpty reports whether k charges calls with an empty dimension
// (kernels.Set.ChargesEmpty); a kernel set that cannot say does not.
func chargesEmpty(k kern) bool {
	e, ok := k.(interface{ ChargesEmpty() bool })
	return ok && e.ChargesEmpty()
}
