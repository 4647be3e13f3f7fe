package hpl

import "slices"

// panel is HPL_T_panel: one panel's descriptor on one rank (hpl.md §4.1). Offsets
// are into the rank's local matrix s.a (column-major, leading dimension s.lda).
type panel struct {
	s *solver

	n      int // global columns left to this panel (PANEL->n; factor subtracts jb)
	ia, ja int // global row / column of the panel's first entry (ja advances in factor)
	jb     int // panel width
	prow   int
	pcol   int
	msgid  int // broadcast tag
	mp     int // local trailing rows
	nq     int // local trailing columns not yet updated by this panel (b included)
	ii, jj int // local row offset; local column of the first column not yet updated

	ml2  int // rows of L2 held by this rank
	ldl2 int
	l2   []float64 // L2: s.a on pcol (from l2off), a receive buffer elsewhere
	l2o  int

	// L1 (jb×jb, nil in model mode), DPIV (jb), DINFO: contiguous so they travel as
	// the tail of the broadcast.
	l1    []float64
	dpiv  []float64
	dinfo []float64

	u     []float64 // replicated row panel, P > 1; nil in model mode
	bcst  bcastState
	spare *payload // a released panel's broadcast buffer, for binit to reuse
	swp   swapIndex
}

// curr reports whether this rank holds the panel's diagonal block rows.
func (pn *panel) curr() bool { return pn.s.g.myrow == pn.prow }

// aoff is the offset in s.a of trailing entry (i, j) relative to the panel's
// current column pointer.
func (pn *panel) aoff(i, j int) int { return pn.ii + i + (pn.jj+j)*pn.s.lda }

// payloadLen is the broadcast length in doubles (hpl.md §6.1).
func (pn *panel) payloadLen() int { return pn.ml2*pn.jb + pn.jb*pn.jb + pn.jb + 1 }

// newPanel is HPL_pdpanel_init for the trailing matrix starting at global (j, j)
// with m = N−j rows, N−j+1 columns and width jb.
func (s *solver) newPanel(j, jb, tag int) *panel {
	g := s.g
	nb := s.nb
	m := s.n - j
	pn := s.reusePanel()
	*pn = panel{s: s, n: m + 1, ia: j, ja: j, jb: jb, msgid: tag,
		swp: pn.swp, dpiv: pn.dpiv, spare: pn.bcst.buf}
	pn.prow, pn.pcol = g2p(j, nb, g.p), g2p(j, nb, g.q)
	pn.mp = numrocI(m, j, nb, g.myrow, g.p)
	pn.nq = numrocI(m+1, j, nb, g.mycol, g.q)
	pn.ii = numroc(j, nb, g.myrow, g.p)
	pn.jj = numroc(j, nb, g.mycol, g.q)
	pn.ml2 = pn.mp
	if pn.curr() {
		pn.ml2 = max(0, pn.mp-jb)
	}
	pn.swp.iflag = -1
	tail := pn.dpiv[:cap(pn.dpiv)]
	if len(tail) < jb+1 {
		tail = make([]float64, jb+1)
	}
	tail = tail[:jb+1]
	clear(tail)
	pn.dpiv, pn.dinfo = tail[:jb], tail[jb:]
	if s.real {
		pn.l1 = make([]float64, jb*jb)
	}
	if g.mycol == pn.pcol {
		pn.l2, pn.l2o, pn.ldl2 = s.a, pn.aoff(0, 0), s.lda
		if pn.curr() {
			pn.l2o += jb
		}
	} else {
		pn.ldl2 = max(1, pn.ml2)
		if s.real {
			pn.l2 = make([]float64, pn.ldl2*jb)
		}
	}
	return pn
}

// reusePanel returns a released panel, or a new one. Only its swap index
// arrays, its DPIV/DINFO array and its broadcast buffer are kept: ranks copies
// the data of every message it is given at the call, so no other rank can
// still be reading them.
func (s *solver) reusePanel() *panel {
	if k := len(s.spare); k > 0 {
		pn := s.spare[k-1]
		s.spare[k-1] = nil
		s.spare = s.spare[:k-1]
		return pn
	}
	return new(panel)
}

// release copies DINFO into the solver's info flag (HPL_pdpanel_disp/free) and
// gives the panel to newPanel for reuse; the caller must not use it again.
func (pn *panel) release() {
	s := pn.s
	if s.info == 0 && pn.dinfo[0] != 0 {
		s.info = int(pn.dinfo[0])
	}
	if !slices.Contains(s.spare, pn) { // a panel released twice is kept once
		s.spare = append(s.spare, pn)
	}
}

// factor is HPL_pdfact (hpl.md §4.5).
func (pn *panel) factor() {
	jb := pn.jb
	pn.n -= jb
	pn.ja += jb
	if pn.s.g.mycol != pn.pcol || jb <= 0 {
		return
	}
	s := pn.s
	t0 := s.clk.now()
	if sh := s.shared; sh != nil {
		work := sh.takeWork(4 + 2*jb)
		pn.rfact(pn.mp, jb, 0, work)
		sh.putWork(work)
	} else {
		s.factWork = zeroed(s.factWork, 4+2*jb) // one panel is factored at a time
		pn.rfact(pn.mp, jb, 0, s.factWork)
	}
	s.timed(&s.phases.RFact, t0)
	pn.jj += jb
	pn.nq -= jb
}
