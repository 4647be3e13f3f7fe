package hpl

// Options.MaxIterations = K emulates K of the ⌈N/NB⌉ panels and estimates the
// rest (model mode: no matrix, so any panel can be emulated without the ones
// before it).
//
// The K panels are taken as B = clamp(K/4, 1, 8) segments of L = K/B
// consecutive panels, evenly spaced from the first panel to the last. Each
// segment runs HPL's own driver loop from its first column (look-ahead prologue
// included), after a barrier; its panel iterations are timed on every rank. A
// segment's per-panel duration is the mean over its second half (the first half
// carries the pipeline's start). The duration of every panel of the run is then
// interpolated linearly in m², m = N − j the trailing order, between the segments'
// points (the end pieces extended beyond them), and summed. With one
// segment (K < 8) the per-panel duration is scaled by the update work m²·jb
// instead. Back substitution is then emulated whole (its messages and kernels do
// not depend on data) and its time added. The grid's Time is the maximum over
// ranks.

// segmentPoint is one segment's measurement: trailing order and per-panel time.
type segmentPoint struct{ m, d float64 }

// sample runs the segments and leaves the estimate in s.estimate.
func (s *solver) sample() int {
	total := s.totalPanels()
	k := s.maxPanels
	b := min(max(k/4, 1), 8)
	l := max(k/b, 1)
	var points []segmentPoint
	emulated := 0
	for i := range b {
		first := 0
		if b > 1 {
			first = i * (total - l) / (b - 1)
		}
		treeBarrier(s.g.all)
		s.marks = s.marks[:0]
		start := s.clk.now()
		emulated += s.factorize(first*s.nb, l)
		if p, ok := s.segmentPoint(start); ok {
			points = append(points, p)
		}
	}
	s.estimate = s.integrate(points)
	// back substitution does not depend on the factorization's data in model
	// mode: emulate it whole and add its time
	treeBarrier(s.g.all)
	start := s.clk.now()
	s.trsv()
	s.estimate += s.clk.now() - start
	return emulated
}

// segmentPoint reduces one segment's marks to (m, mean duration).
func (s *solver) segmentPoint(start float64) (segmentPoint, bool) {
	k := len(s.marks)
	if k == 0 {
		return segmentPoint{}, false
	}
	from := k / 2
	t0 := start
	if from > 0 {
		t0 = s.marks[from-1].t
	}
	d := (s.marks[k-1].t - t0) / float64(k-from)
	// with look-ahead, the iteration that factors panel j mostly applies the
	// panel DEPTH places earlier: attribute its time to that panel's order
	shift := 0
	if s.p.Depth > 0 && s.g.q > 1 {
		shift = s.p.Depth * s.nb
	}
	m := 0.0
	for _, mk := range s.marks[from:] {
		m += float64(min(s.n, s.n-mk.j+shift))
	}
	return segmentPoint{m: m / float64(k-from), d: d}, true
}

// integrate sums the interpolated per-panel durations over all panels.
func (s *solver) integrate(points []segmentPoint) float64 {
	if len(points) == 0 {
		return 0
	}
	total := 0.0
	for j := 0; j < s.n; j += s.nb {
		jb := min(s.nb, s.n-j)
		m := float64(s.n - j)
		if len(points) == 1 {
			p := points[0]
			total += p.d * (m * m * float64(jb)) / (p.m * p.m * float64(s.nb))
			continue
		}
		total += interpolate(points, m)
	}
	return total
}

// interpolate is piecewise linear in m² (a panel's update work) over points
// sorted by decreasing m (segments run from the first panel to the last), and
// extends the first and last pieces beyond the ends, never below zero.
func interpolate(points []segmentPoint, m float64) float64 {
	line := func(a, b segmentPoint) float64 {
		if a.m == b.m {
			return b.d
		}
		return max(0, b.d+(a.d-b.d)*(m*m-b.m*b.m)/(a.m*a.m-b.m*b.m))
	}
	if len(points) == 1 {
		return points[0].d
	}
	for i := 1; i < len(points); i++ {
		if m >= points[i].m || i == len(points)-1 {
			return line(points[i-1], points[i])
		}
	}
	return points[len(points)-1].d
}
