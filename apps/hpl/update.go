package hpl

import (
	"math"

	"gonum.org/v1/gonum/blas"
)

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
	u := &s.chunkX
	*u = updChunks{s: s, pn: pn, n: n, nb: nb, mp: pn.mp - pn.jb, ipiv: u.ipiv[:0], uplo: blas.Lower, tr: blas.NoTrans}
	for i := range pn.jb {
		u.ipiv = append(u.ipiv, int(pn.dpiv[i])-pn.ii)
	}
	if s.p.L1Transposed {
		u.uplo, u.tr = blas.Upper, blas.Trans
	}
	pr.inChunks(u, chargesEmpty(s.k))
	*u = updChunks{ipiv: u.ipiv[:0]}
}

// updateRows is the P > 1 branch: row swap (which builds U), then trsm on U, gemm
// and, on the panel's process row, the copy of U back into A.
func (s *solver) updateRows(pr *prober, pn *panel, n, nb int) {
	if s.real {
		pn.u = make([]float64, pn.jb*n)
	} else {
		pn.u = nil
	}
	t0 := s.clk.now()
	if s.p.Swap == SpreadRoll || (s.p.Swap == Mix && n > s.p.SwapThreshold) {
		pn.swapSpreadRoll(pr, n)
	} else {
		pn.swapBinary(pr, n)
	}
	u := &s.chunkX
	*u = updChunks{s: s, pn: pn, n: n, nb: nb, rows: true, curr: pn.curr(), mp: pn.mp, ipiv: u.ipiv[:0]}
	if pr.owed { // the swap's time ends after its last poll, which the chunks make
		u.swapT0, u.swapOwed = t0, true
	} else {
		s.timed(&s.phases.Laswp, t0)
	}
	if u.curr {
		u.mp -= pn.jb
	}
	lt, ut := s.p.L1Transposed, s.p.UTransposed
	switch {
	case !lt && !ut:
		u.side, u.uplo, u.tr = blas.Left, blas.Lower, blas.NoTrans
	case !lt && ut:
		u.side, u.uplo, u.tr = blas.Right, blas.Lower, blas.Trans
	case lt && !ut:
		u.side, u.uplo, u.tr = blas.Left, blas.Upper, blas.Trans
	default:
		u.side, u.uplo, u.tr = blas.Right, blas.Upper, blas.NoTrans
	}
	pr.inChunks(u, chargesEmpty(s.k))
	*u = updChunks{ipiv: u.ipiv[:0]}
}

// updChunks is an update's kernels over its n columns (hpl.md §8), made
// chunk by chunk, as a ranks.Worker: Work applies the next chunk of nb
// columns (fewer at the end, none once they are out). It is the solver's
// (solver.chunkX), reused: ranks.Comm.IprobeWorks may run Work off the
// rank's coroutine, in its turn, which only charges kernels, reads the
// clock and moves the matrix's data.
type updChunks struct {
	s           *solver
	pn          *panel
	n, nb, done int  // columns, chunk width, columns done
	rows        bool // updateRows' chunk (trsm on U, gemm, U back in A), else updateOneRow's
	curr        bool // updateRows: the panel's process row
	mp          int  // the gemm's rows
	side        blas.Side
	uplo        blas.Uplo
	tr          blas.Transpose
	ipiv        []int // updateOneRow: the local interchanges, its array reused
	// swapOwed: the swap's time, from swapT0, is taken after its last
	// poll, which inChunks makes (prober.owed): before the first chunk.
	swapOwed bool
	swapT0   float64
}

// Work applies the next chunk.
func (u *updChunks) Work(int) {
	u.swapTimed()
	nn := min(u.nb, u.n-u.done)
	u.apply(u.done, nn)
	u.done += nn
}

// swapTimed takes the swap's time, if it is owed.
func (u *updChunks) swapTimed() {
	if u.swapOwed {
		u.swapOwed = false
		u.s.timed(&u.s.phases.Laswp, u.swapT0)
	}
}

// apply updates nn columns from col.
func (u *updChunks) apply(col, nn int) {
	s, pn := u.s, u.pn
	k, lda, jb := s.k, s.lda, pn.jb
	if !u.rows {
		t0 := s.clk.now()
		s.charge(cpLaswp00N, jb, nn, pn.mp)
		if s.real {
			for i, ip := range u.ipiv {
				if i != ip {
					a, b := pn.aoff(i, col), pn.aoff(ip, col)
					for c := range nn {
						s.a[a+c*lda], s.a[b+c*lda] = s.a[b+c*lda], s.a[a+c*lda]
					}
				}
			}
		}
		s.timed(&s.phases.Laswp, t0)
		k.Dtrsm(blas.Left, u.uplo, u.tr, blas.Unit, jb, nn, 1, pn.l1, jb, pn.aat(0, col), lda)
		k.Dgemm(blas.NoTrans, blas.NoTrans, u.mp, nn, jb, -1, at(pn.l2, pn.l2o), pn.ldl2, pn.aat(0, col), lda, 1, pn.aat(jb, col), lda)
		return
	}
	ut := s.p.UTransposed
	var uo, ldu int
	tB := blas.NoTrans
	if ut {
		uo, ldu, tB = col, u.n, blas.Trans
		k.Dtrsm(u.side, u.uplo, u.tr, blas.Unit, nn, jb, 1, pn.l1, jb, at(pn.u, uo), ldu)
	} else {
		uo, ldu = col*jb, jb
		k.Dtrsm(u.side, u.uplo, u.tr, blas.Unit, jb, nn, 1, pn.l1, jb, at(pn.u, uo), ldu)
	}
	dst := 0
	if u.curr {
		dst = jb
	}
	k.Dgemm(blas.NoTrans, tB, u.mp, nn, jb, -1, at(pn.l2, pn.l2o), pn.ldl2, at(pn.u, uo), ldu, 1, pn.aat(dst, col), lda)
	if u.curr {
		if ut {
			s.latcpy(jb, nn, pn.u, uo, ldu, s.a, pn.aoff(0, col), lda)
		} else {
			s.lacpy(jb, nn, pn.u, uo, ldu, s.a, pn.aoff(0, col), lda)
		}
	}
}

// inChunks applies the update to u's columns as HPL's update routines do:
// nb columns at a time with a probe of the broadcast after each chunk while
// it is pending, then the rest in one call once it is done. Once the
// columns are exhausted, HPL keeps polling between empty calls (nn = 0):
// where those cost time (emptyCosts, kernels.Config.ChargeEmpty) they are
// made, one per poll, as HPL makes them; otherwise the rank spins on the
// broadcast alone.
//
// While a ring receiver's probe is armed (most chunks), the chunks after
// the first (all, after the swap's last poll where the swap owes it:
// prober.owed) and their probes, up to the probe that sees the broadcast,
// are one call (iprobeWorks: ranks.Comm.IprobeWorks), which makes them as the
// loop would without resuming the rank between them.
func (pr *prober) inChunks(u *updChunks, emptyCosts bool) {
	if pr.owed { // the swap's last poll first, then as below
		pr.owed = false
		if steps := u.steps(emptyCosts); pr.chunksThenSpin(u, steps, emptyCosts) {
			pr.seen()
		} else if pr.row.iprobeWorks(steps, u, pr.from, pr.tag) {
			pr.seen()
		}
		u.swapTimed() // seen at once: after its bcastStep, as the swap's end
	}
	for !pr.done {
		if u.done == u.n && !emptyCosts {
			pr.spin()
			break
		}
		u.Work(0)
		if !pr.armed {
			pr.poll()
			continue
		}
		if steps := u.steps(emptyCosts); pr.chunksThenSpin(u, steps, emptyCosts) {
			pr.seen()
		} else if pr.row.iprobeWorks(steps, u, pr.from, pr.tag) {
			pr.seen()
		}
	}
	if u.done < u.n {
		u.apply(u.done, u.n-u.done)
	}
}

// chunksThenSpin makes the armed probe's steps of chunks and, where the
// columns run out before a probe sees the broadcast, the spin on it that
// inChunks's next round makes (prober.spin: bcastSpin's probe, then its
// Probe), as one call (ranks.Comm.IprobeWorksProbe), and reports whether
// it did: the broadcast is then seen. It does not where empty calls cost
// time (no spin follows: the polls go on between them) nor, after the
// swap, without a chunk (the swap's time is taken between that poll and
// the spin).
func (pr *prober) chunksThenSpin(u *updChunks, steps int, emptyCosts bool) bool {
	if emptyCosts || steps == 0 && u.swapOwed {
		return false
	}
	pr.row.iprobeWorksProbe(steps, u, pr.from, pr.tag)
	return true
}

// steps is the chunks left to make between polls: those of the columns
// left, or, where empty calls cost time, as many as the polls need.
func (u *updChunks) steps(emptyCosts bool) int {
	if emptyCosts {
		return math.MaxInt // empty calls, until a poll sees the broadcast
	}
	return (u.n - u.done + u.nb - 1) / u.nb
}

// chargesEmpty reports whether k charges calls with an empty dimension
// (kernels.Set.ChargesEmpty); a kernel set that cannot say does not.
func chargesEmpty(k kern) bool {
	e, ok := k.(interface{ ChargesEmpty() bool })
	return ok && e.ChargesEmpty()
}
