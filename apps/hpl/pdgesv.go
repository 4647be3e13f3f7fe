package hpl

// The factorization drivers (hpl.md §4): HPL_pdgesv0 (no look-ahead) and
// HPL_pdgesvK2 (look-ahead of any depth ≥ 1), then back substitution.
//
// Both can start at panel column j0 and stop after a number of panels: the
// sampling behind Options.MaxIterations (see extrapolate.go). A full run is
// j0 = 0 with no limit, HPL's own loop.

// pdgesv factors [A | b] and solves; it returns the number of panels emulated.
func (s *solver) pdgesv() int {
	if s.n <= 0 {
		return 0
	}
	s.info = 0
	if s.truncated() {
		return s.sample()
	}
	panels := s.factorize(0, 0)
	if s.info == 0 {
		s.trsv()
	}
	return panels
}

// totalPanels is ⌈N/NB⌉.
func (s *solver) totalPanels() int { return (s.n + s.nb - 1) / s.nb }

// truncated reports whether MaxIterations cuts the factorization short: K
// panels, at least one segment's (segmentPanels), and the sample's segments
// (segments) all fewer than the run's. Where the segments
// hold as many or more (K = 9 at DEPTH 3 makes two segments of 6 panels, of a
// run of 11), the run is emulated whole, exactly and for less: it sampled 12
// overlapping panels and extrapolated a Time 7% short.
func (s *solver) truncated() bool {
	if s.maxPanels <= 0 {
		return false
	}
	b, l := s.segments()
	total := s.totalPanels()
	return max(s.maxPanels, s.segmentPanels()) < total && b*l < total
}

// segmentPanels is the fewest panels a sampled segment has: 1, or with
// look-ahead the DEPTH prologue panels and as many iterations of the loop
// after them, the ones the sample measures (extrapolate.go).
func (s *solver) segmentPanels() int {
	return max(1, 2*s.lookaheadPanels())
}

// lookaheadPanels is the number of panels HPL_pdgesvK2 factors in its prologue
// before its loop, with no trailing update (DEPTH with look-ahead, 0 without:
// gesv0 has no prologue).
func (s *solver) lookaheadPanels() int {
	if s.p.Depth == 0 || s.g.q == 1 {
		return 0
	}
	return s.p.Depth
}

// factorize runs the driver from global column j0 for at most limit panels (0:
// to the end) and returns the number of panels factored.
func (s *solver) factorize(j0, limit int) int {
	if s.p.Depth == 0 || s.g.q == 1 {
		return s.gesv0(j0, limit)
	}
	return s.gesvK2(s.p.Depth, j0, limit)
}

func (s *solver) gesv0(j0, limit int) int {
	tag := tagFactBegin
	panels := 0
	for j := j0; j < s.n; j += s.nb {
		if limit > 0 && panels >= limit {
			break
		}
		jb := min(s.n-j, s.nb)
		pn := s.newPanel(j, jb, tag)
		pn.factor()
		pn.binit()
		bcastSpin(pn)
		s.update(nil, pn, -1)
		pn.release()
		tag = nextTag(tag)
		panels++
		s.mark(j, jb)
	}
	return panels
}

func (s *solver) gesvK2(depth, j0, limit int) int {
	g := s.g
	N, nb, Q := s.n, s.nb, g.q
	mycol := g.mycol
	panel := make([]*panel, depth+1)
	icur := g2p(j0, nb, Q)
	tag := tagFactBegin
	nq := numrocI(N+1-j0, j0, nb, mycol, Q)
	nn := N - j0
	jstart := j0
	for k := range depth {
		jb := min(nn, nb)
		panel[k] = s.newPanel(jstart, jb, tag)
		nn -= jb
		jstart += jb
		if mycol == icur {
			nq -= jb
		}
		icur = modAdd(icur, 1, Q)
		tag = nextTag(tag)
	}
	panel[depth] = s.newPanel(jstart, min(nn, nb), tag) // placeholder: its tag is never used
	tag = nextTag(tag)
	panels := 0
	j := j0
	for k := range depth {
		jb := min(jstart-j, nb)
		j += jb
		panel[k].factor()
		panel[k].binit()
		bcastSpin(panel[k])
		if k < depth-1 {
			s.update(nil, panel[k], numrocI(jstart-j, j, nb, mycol, Q))
		}
		if panel[k].jb > 0 {
			panels++
			s.mark(j-jb, jb)
		}
	}
	stopped := false
	for j := jstart; j < N; j += nb {
		if limit > 0 && panels >= limit {
			stopped = true
			break
		}
		n := N - j
		jb := min(n, nb)
		panel[depth].release()
		panel[depth] = s.newPanel(j, jb, tag)
		nn := 0
		if mycol == icur {
			nn = numrocI(jb, j, nb, mycol, Q)
			for k := range depth {
				s.update(nil, panel[k], nn)
			}
			panel[depth].factor()
		}
		panel[depth].binit()
		s.update(panel[depth], panel[0], nq-nn)
		p := panel[0]
		copy(panel, panel[1:])
		panel[depth] = p
		if mycol == icur {
			nq -= jb
		}
		icur = modAdd(icur, 1, Q)
		tag = nextTag(tag)
		panels++
		s.mark(j, jb)
	}
	if !stopped {
		nn := numrocI(1, N, nb, mycol, Q)
		for k := range depth {
			s.update(nil, panel[k], nn)
		}
	}
	for _, p := range panel {
		p.release()
	}
	return panels
}
