package hpl

// The factorization drivers (hpl.md §4): HPL_pdgesv0 (no look-ahead) and
// HPL_pdgesvK2 (look-ahead of any depth ≥ 1), then back substitution.

// pdgesv factors [A | b] and solves; it returns the number of panels emulated.
func (s *solver) pdgesv() int {
	if s.n <= 0 {
		return 0
	}
	s.info = 0
	var panels int
	if s.p.Depth == 0 || s.g.q == 1 {
		panels = s.gesv0()
	} else {
		panels = s.gesvK2(s.p.Depth)
	}
	if s.info == 0 && !s.truncated(panels) {
		s.trsv()
	}
	return panels
}

// truncated reports whether MaxIterations cut the factorization short.
func (s *solver) truncated(panels int) bool {
	return s.maxPanels > 0 && panels < (s.n+s.nb-1)/s.nb
}

// stop reports whether the panel count limit is reached.
func (s *solver) stop(panels int) bool { return s.maxPanels > 0 && panels >= s.maxPanels }

func (s *solver) gesv0() int {
	tag := tagFactBegin
	panels := 0
	for j := 0; j < s.n; j += s.nb {
		if s.stop(panels) {
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
	}
	return panels
}

func (s *solver) gesvK2(depth int) int {
	g := s.g
	N, nb, Q := s.n, s.nb, g.q
	mycol := g.mycol
	panel := make([]*panel, depth+1)
	icur := 0
	tag := tagFactBegin
	nq := numroc(N+1, nb, mycol, Q)
	nn := N
	jstart := 0
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
	j := 0
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
		}
	}
	for j := jstart; j < N; j += nb {
		if s.stop(panels) {
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
	}
	if !s.truncated(panels) {
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
