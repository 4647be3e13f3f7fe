package fluid

// The solver's bottleneck heap: links ordered by (saturation level, id),
// each link knowing its index so a level change re-positions it.

func (s *System) heapLess(i, j int) bool {
	h := s.solver.heap
	a, b := s.level(h[i]), s.level(h[j])
	if a != b {
		return a < b
	}
	return h[i] < h[j]
}

func (s *System) heapSwap(i, j int) {
	h := s.solver.heap
	h[i], h[j] = h[j], h[i]
	s.links[h[i]].heapIdx = int32(i)
	s.links[h[j]].heapIdx = int32(j)
}

func (s *System) heapPush(l LinkID) {
	s.links[l].heapIdx = int32(len(s.solver.heap))
	s.solver.heap = append(s.solver.heap, l)
	s.heapUp(len(s.solver.heap) - 1)
}

func (s *System) heapRemove(l LinkID) {
	i := int(s.links[l].heapIdx)
	last := len(s.solver.heap) - 1
	if i != last {
		s.heapSwap(i, last)
	}
	s.solver.heap = s.solver.heap[:last]
	s.links[l].heapIdx = -1
	if i != last {
		s.heapFix1(i)
	}
}

func (s *System) heapFix(l LinkID) { s.heapFix1(int(s.links[l].heapIdx)) }

func (s *System) heapFix1(i int) {
	if !s.heapDown(i) {
		s.heapUp(i)
	}
}

func (s *System) heapUp(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !s.heapLess(i, p) {
			return
		}
		s.heapSwap(i, p)
		i = p
	}
}

func (s *System) heapDown(i int) bool {
	start, n := i, len(s.solver.heap)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && s.heapLess(r, c) {
			c = r
		}
		if !s.heapLess(c, i) {
			break
		}
		s.heapSwap(i, c)
		i = c
	}
	return i > start
}
