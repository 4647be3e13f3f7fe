package hpl

import "slices"

// HPL's local row-copy kernels (HPL_dlaswp00N … 10N; hpl.md §12). Rows are n
// columns long. A row la is local trailing row la of the panel from its current
// column pointer; a U row r is row r of the jb×n U (N form) or column r of the
// n×jb U (T form). Each call charges rows × n: to dlaswp for interchanges
// with rows of A, to dgather or dscatter for copies out of or into them, to
// duswp for moves within U, W or the panel's top block; data moves only in
// real mode.

// rowRef locates one row: element c is at base + c·stride of its slice.
type rowRef struct {
	x      []float64
	base   int
	stride int
}

func (r rowRef) get(c int) float64    { return r.x[r.base+c*r.stride] }
func (r rowRef) set(c int, v float64) { r.x[r.base+c*r.stride] = v }

// swapCtx carries what one swap call works on.
type swapCtx struct {
	pn *panel
	n  int       // columns of this call
	u  []float64 // U buffer (nil in model mode)
}

func (w swapCtx) aRow(la int) rowRef {
	s := w.pn.s
	return rowRef{s.a, w.pn.aoff(la, 0), s.lda}
}

func (w swapCtx) uRow(r int) rowRef {
	if w.pn.s.p.UTransposed {
		return rowRef{w.u, r * w.n, 1}
	}
	return rowRef{w.u, r, w.pn.jb}
}

// wRow is row i of the W buffer: slot 0 holds the destination, then n values.
func (w swapCtx) wRow(wb []float64, i int) rowRef { return rowRef{wb, i*(w.n+1) + 1, 1} }

func (w swapCtx) real() bool { return w.pn.s.real }

// charge bills rows moved between U or W buffers; chargeA rows of A, which
// lie anywhere among the panel's local rows (kernels.Laswp explains why they
// are two kernels). r is HPL's routine, named by form for the U form, whose
// own model is used where a models file has one (per-routine calibrations
// such as the Dahu study's).
func (w swapCtx) charge(r routine, rows int) {
	w.pn.s.routine(r).uswp.charge(rows, w.n, 0)
}
func (w swapCtx) chargeA(r routine, rows int) {
	w.pn.s.routine(r).laswp.charge(rows, w.n, w.pn.mp)
}

// own reports whether the models give HPL's routine r a model of its own:
// such a per-routine calibration (SMPI's on Dahu) charges each call's rows
// alike, so the call is billed whole with it, not by moves.
func (w swapCtx) own(r routine) bool { return w.pn.s.routine(r).own }

// top reports whether local row la of A lies in the panel's top block: on
// the diagonal process row its first jb rows are adjacent, so a row moved out
// of or into them costs what a move within U does, while any other row of A
// is one cold cache line per element.
func (w swapCtx) top(la int) bool { return w.pn.s.g.myrow == w.pn.prow && la < w.pn.jb }

// moves tallies one call's row copies by the memory they touch: the rows of
// A outside the top block that it reads and that it writes, each one cold
// cache line per element, and the copies that touch neither. A copy is not
// an interchange: it reads or writes one scattered row where dlaswp reads
// and writes one, so a row only read is billed as dgather and a row only
// written as dscatter. But HPL_dlaswp01T on the diagonal process row copies
// each local pivot row into U and then the displaced top row into it, in the
// same block of columns, so that row's line is written while still cached:
// a row both read and written costs one interchange (dlaswp). Billed so, that
// routine's calls in a real 2×1 run of HPL 2.3 on the project's VM (N = 6,000,
// NB = 96) read 2.6-3.0 ns per element moved, as its interchanges did 6.1-6.9
// (validation/testdata/realhpl/vm-2026-11-28, TestRowCopiesAgainstRealHPL).
type moves struct {
	w           swapCtx
	read, write []int // rows of A outside the top block (the solver's scratch)
	compact     int   // copies between U, W and the top block
}

func (w swapCtx) moves() moves {
	sc := &w.pn.s.swap
	return moves{w: w, read: sc.readRows[:0], write: sc.writeRows[:0]}
}

// copyOf tallies one copy from row src of A (or of a buffer, src < 0) into
// row dst of A (or of a buffer, dst < 0).
func (mv *moves) copyOf(src, dst int) {
	cold := func(la int) bool { return la >= 0 && !mv.w.top(la) }
	s, d := cold(src), cold(dst)
	if s {
		mv.read = append(mv.read, src)
	}
	if d {
		mv.write = append(mv.write, dst)
	}
	if !s && !d {
		mv.compact++
	}
}

// bill charges the tallied copies, rows of A over the panel's local rows.
func (mv *moves) bill() {
	w := mv.w
	slices.Sort(mv.read)
	slices.Sort(mv.write)
	both := 0
	for i, j := 0, 0; i < len(mv.read) && j < len(mv.write); {
		switch r, c := mv.read[i], mv.write[j]; {
		case r < c:
			i++
		case r > c:
			j++
		default:
			both++
			i++
			j++
		}
	}
	s := w.pn.s
	s.charge(cpLaswp, both, w.n, w.pn.mp)
	s.charge(cpGather, len(mv.read)-both, w.n, w.pn.mp)
	s.charge(cpScatter, len(mv.write)-both, w.n, w.pn.mp)
	s.charge(cpUswp, mv.compact, w.n, 0)
	sc := &w.pn.s.swap
	sc.readRows, sc.writeRows = mv.read, mv.write
}

func copyRow(dst, src rowRef, n int) {
	for c := range n {
		dst.set(c, src.get(c))
	}
}

func swapRows(a, b rowRef, n int) {
	for c := range n {
		x := a.get(c)
		a.set(c, b.get(c))
		b.set(c, x)
	}
}

// laswp01: the diagonal rank copies its m source rows into U slots, or into local
// A rows (negative destination −la).
func (w swapCtx) laswp01(m int, lindxA, lindxAU []int) {
	if w.own(dlaswp01) {
		w.chargeA(dlaswp01, m)
	} else {
		mv := w.moves()
		for i := range m {
			dst := -1 // lindxAU ≥ 0: a U slot
			if lindxAU[i] < 0 {
				dst = -lindxAU[i] // A row −lindxAU
			}
			mv.copyOf(lindxA[i], dst)
		}
		mv.bill()
	}
	if !w.real() {
		return
	}
	for i := range m {
		var dst rowRef
		if lindxAU[i] >= 0 {
			dst = w.uRow(lindxAU[i])
		} else {
			dst = w.aRow(-lindxAU[i])
		}
		copyRow(dst, w.aRow(lindxA[i]), w.n)
	}
}

// laswp02: pack m source rows into W with their U slots.
func (w swapCtx) laswp02(m int, wb []float64, lindxA, lindxAU []int) {
	if w.own(dlaswp02) {
		w.chargeA(dlaswp02, m)
	} else {
		mv := w.moves()
		for i := range m {
			mv.copyOf(lindxA[i], -1)
		}
		mv.bill()
	}
	if !w.real() {
		return
	}
	for i := range m {
		wb[i*(w.n+1)] = float64(lindxAU[i])
		copyRow(w.wRow(wb, i), w.aRow(lindxA[i]), w.n)
	}
}

// laswp03: write m W rows into their U slots.
func (w swapCtx) laswp03(m int, wb []float64) {
	w.charge(dlaswp03, m)
	if !w.real() {
		return
	}
	for i := range m {
		copyRow(w.uRow(int(wb[i*(w.n+1)])), w.wRow(wb, i), w.n)
	}
}

// laswp04: own rows m0: U slot → A, W → U slot; rows m0…m1−1: W → their U slots.
func (w swapCtx) laswp04(m0, m1 int, wb []float64, lindxA, lindxAU []int) {
	if w.own(dlaswp04) {
		w.chargeA(dlaswp04, m1)
	} else {
		mv := w.moves()
		mv.compact = m1 // every U slot written from W
		for i := range m0 {
			mv.copyOf(-1, lindxA[i])
		}
		mv.bill()
	}
	if !w.real() {
		return
	}
	for i := range m0 {
		u := w.uRow(lindxAU[i])
		copyRow(w.aRow(lindxA[i]), u, w.n)
		copyRow(u, w.wRow(wb, i), w.n)
	}
	for i := m0; i < m1; i++ {
		copyRow(w.uRow(int(wb[i*(w.n+1)])), w.wRow(wb, i), w.n)
	}
}

// laswp05: copy U slots into m local A rows.
func (w swapCtx) laswp05(m int, lindxA, lindxAU []int) {
	if w.own(dlaswp05) {
		w.chargeA(dlaswp05, m)
	} else {
		mv := w.moves()
		for i := range m {
			mv.copyOf(-1, lindxA[i])
		}
		mv.bill()
	}
	if !w.real() {
		return
	}
	for i := range m {
		copyRow(w.aRow(lindxA[i]), w.uRow(lindxAU[i]), w.n)
	}
}

// laswp06: swap m local A rows with U rows off … off+m−1.
func (w swapCtx) laswp06(m, off int, lindxA []int) {
	w.chargeA(dlaswp06, m)
	if !w.real() {
		return
	}
	for i := range m {
		swapRows(w.aRow(lindxA[i]), w.uRow(off+i), w.n)
	}
}

// laswpU applies jb sequential interchanges to U's rows (HPL_dlaswp00N on the N
// form, HPL_dlaswp10N on the T form).
func (w swapCtx) laswpU(ipiv []int) {
	w.charge(dlaswpU, len(ipiv))
	if !w.real() {
		return
	}
	for i, ip := range ipiv {
		if i != ip {
			swapRows(w.uRow(i), w.uRow(ip), w.n)
		}
	}
}

// lacpy copies the m×n matrix at a[ao] (lda) to b[bo] (ldb); latcpy copies the
// transpose of the n×m matrix at a[ao]. Both charge their kernel.
func (s *solver) lacpy(m, n int, a []float64, ao, lda int, b []float64, bo, ldb int) {
	s.charge(cpLacpy, m, n, 0)
	if !s.real {
		return
	}
	for j := range n {
		copy(b[bo+j*ldb:bo+j*ldb+m], a[ao+j*lda:ao+j*lda+m])
	}
}

func (s *solver) latcpy(m, n int, a []float64, ao, lda int, b []float64, bo, ldb int) {
	s.charge(cpLatcpy, m, n, 0)
	if !s.real {
		return
	}
	for j := range n {
		for i := range m {
			b[bo+i+j*ldb] = a[ao+j+i*lda]
		}
	}
}
