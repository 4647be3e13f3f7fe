package hpl

// HPL's local row-copy kernels (HPL_dlaswp00N … 10N; hpl.md §12). Rows are n
// columns long. A row la is local trailing row la of the panel from its current
// column pointer; a U row r is row r of the jb×n U (N form) or column r of the
// n×jb U (T form). Each call charges "dlaswp" for rows × n; data moves only in
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
// are two kernels). variant is HPL's routine ("dlaswp01", completed by
// form with N or T), whose own model is used where a models file has one
// (per-routine calibrations such as the Dahu study's).
func (w swapCtx) charge(variant string, rows int) {
	w.pn.s.k.charge(kUswp, w.form(variant), rows, w.n, 0)
}
func (w swapCtx) chargeA(variant string, rows int) {
	w.pn.s.k.charge(kLaswp, w.form(variant), rows, w.n, w.pn.mp)
}

// form completes a routine name with the U form: HPL_dlaswp01T works on a
// transposed U, HPL_dlaswp01N on a plain one. A name already ending in N or
// T (HPL_dlaswp02N has one form) is kept.
func (w swapCtx) form(variant string) string {
	switch variant[len(variant)-1] {
	case 'N', 'T':
		return variant
	}
	if w.pn.s.p.UTransposed {
		return variant + "T"
	}
	return variant + "N"
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
	w.chargeA("dlaswp01", m)
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
	w.chargeA("dlaswp02N", m)
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
	w.charge("dlaswp03", m)
	if !w.real() {
		return
	}
	for i := range m {
		copyRow(w.uRow(int(wb[i*(w.n+1)])), w.wRow(wb, i), w.n)
	}
}

// laswp04: own rows m0: U slot → A, W → U slot; rows m0…m1−1: W → their U slots.
func (w swapCtx) laswp04(m0, m1 int, wb []float64, lindxA, lindxAU []int) {
	w.chargeA("dlaswp04", m1)
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
	w.chargeA("dlaswp05", m)
	if !w.real() {
		return
	}
	for i := range m {
		copyRow(w.aRow(lindxA[i]), w.uRow(lindxAU[i]), w.n)
	}
}

// laswp06: swap m local A rows with U rows off … off+m−1.
func (w swapCtx) laswp06(m, off int, lindxA []int) {
	w.chargeA("dlaswp06", m)
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
	variant := "dlaswp00N"
	if w.pn.s.p.UTransposed {
		variant = "dlaswp10N"
	}
	w.charge(variant, len(ipiv))
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
	s.k.charge(kLacpy, "", m, n, 0)
	if !s.real {
		return
	}
	for j := range n {
		copy(b[bo+j*ldb:bo+j*ldb+m], a[ao+j*lda:ao+j*lda+m])
	}
}

func (s *solver) latcpy(m, n int, a []float64, ao, lda int, b []float64, bo, ldb int) {
	s.k.charge(kLatcpy, "", m, n, 0)
	if !s.real {
		return
	}
	for j := range n {
		for i := range m {
			b[bo+i+j*ldb] = a[ao+j+i*lda]
		}
	}
}
