package hpl

import "math"

// Options.MaxIterations = K emulates K of the ⌈N/NB⌉ panels and estimates the
// rest (model mode: no matrix, so any panel can be emulated without the ones
// before it).
//
// The K panels are taken as B = clamp(K/4, 1, 8) segments of L = K/B
// consecutive panels, evenly spaced from the first panel to the last; with
// look-ahead, L is at least 2·DEPTH. Each segment runs HPL's own driver loop
// from its first column (look-ahead prologue included), after a barrier; its
// panel iterations are timed on every rank. A segment's per-panel duration is
// the mean over its second half (the first half carries the pipeline's start),
// and never over the DEPTH prologue panels, which are factored but not yet
// applied to the trailing matrix. The duration of every panel of the run is then
// interpolated linearly in m², m = N − j the trailing order, between the segments'
// points (the end pieces extended beyond them), and summed. With one
// segment (K < 8) the per-panel duration is scaled by the update work m²·jb
// instead. Back substitution is then emulated whole (its messages and kernels do
// not depend on data) and its time added. The grid's Time is the maximum over
// ranks.

// The estimate's error bar (s.spread) is computed from the same panels, with no
// extra emulation, as the sum of three terms:
//   - sampling: each segment's mean per-panel duration has a standard error
//     (by batch means, relativeSE2; pivoting varies the panels' durations);
//     twice the segments' combined relative standard error, times the estimate.
//   - settling: the estimate again from each segment's last quarter instead of its
//     second half. A pipeline that has not settled within a segment (a ring
//     broadcast over many process columns) shows as a difference between the two.
//   - interpolation: the larger of two: the estimate again from every other
//     segment (the first and last always kept; of two segments, the first alone,
//     scaled by each panel's update work m²·jb), and the estimate interpolated
//     linearly in m instead of m² (a panel's messages and factorization grow as
//     m, its update as m²). A per-panel duration that is not piecewise linear in
//     m² at the segments' spacing shows as a difference.
// The last two are disagreements with the estimate, each a lower bound on what
// it detects; the sum is the error bar emu states (validated against whole
// runs: BenchmarkExtrapolationError).

// segmentPoint is one segment's measurement: trailing order and per-panel time.
type segmentPoint struct{ m, d float64 }

// sample runs the segments and leaves the estimate in s.estimate, its error bar
// in s.spread.
func (s *solver) sample() int {
	total := s.totalPanels()
	b, l := s.segments()
	ahead := s.lookaheadPanels()
	var points, late []segmentPoint
	emulated, se2 := 0, 0.0
	for i := range b {
		first := 0
		if b > 1 {
			first = i * (total - l) / (b - 1)
		}
		treeBarrier(s.g.all)
		s.marks = s.marks[:0]
		start := s.clk.now()
		emulated += s.factorize(first*s.nb, l)
		half := max(len(s.marks)/2, ahead)
		if p, ok := s.segmentPoint(start, half); ok {
			points = append(points, p)
			se2 += s.relativeSE2(half)
		}
		if p, ok := s.segmentPoint(start, max(len(s.marks)-max(len(s.marks)/4, 1), ahead)); ok {
			late = append(late, p)
		}
	}
	s.estimate = s.integrate(points)
	interp := max(math.Abs(s.integrate(everyOther(points))-s.estimate), math.Abs(s.integrateIn(points, linear)-s.estimate))
	sampling := 0.0
	if len(points) > 0 {
		sampling = 2 * s.estimate * math.Sqrt(se2) / float64(len(points))
	}
	s.spread = sampling + math.Abs(s.integrate(late)-s.estimate) + interp
	// back substitution does not depend on the factorization's data in model
	// mode: emulate it whole and add its time
	treeBarrier(s.g.all)
	start := s.clk.now()
	s.trsv()
	s.estimate += s.clk.now() - start
	return emulated
}

// segments is the sample's shape: b segments of l consecutive panels, B =
// clamp(K/4, 1, 8) and L = K/B. With look-ahead a segment starts with DEPTH
// prologue panels that are factored but not yet applied to the trailing
// matrix: they are not measured (sample), and a segment has at least as many
// iterations of the loop after them (2·DEPTH panels, segmentPanels).
// Otherwise K ≤ DEPTH, or a DEPTH of 3 against segments of 4, extrapolated the
// prologue's cheap panels: 2 to 30 times too fast.
func (s *solver) segments() (b, l int) {
	b = min(max(s.maxPanels/4, 1), 8)
	return b, max(s.maxPanels/b, s.segmentPanels())
}

// everyOther keeps points 0, 2, 4, ... and the last one; of two points, the
// first; of one, that one.
func everyOther(points []segmentPoint) []segmentPoint {
	if len(points) < 3 {
		return points[:min(len(points), 1)]
	}
	var out []segmentPoint
	for i := 0; i < len(points)-1; i += 2 {
		out = append(out, points[i])
	}
	return append(out, points[len(points)-1])
}

// relativeSE2 is the squared relative standard error of the mean duration of
// the segment's panels from index from on, by batch means: the durations are
// grouped in batches of lcm(P, Q) panels (one turn of the panel owners over
// the grid, whose costs alternate with it), and the batches' means vary as the
// sample would. 0 with fewer than two whole batches.
func (s *solver) relativeSE2(from int) float64 {
	batch := lcm(s.g.p, s.g.q)
	from = max(from, 1) // a duration is the time between two marks
	nb := (len(s.marks) - from) / batch
	if nb < 2 {
		return 0
	}
	var sum, sum2 float64
	for b := range nb {
		i0 := from + b*batch
		d := (s.marks[i0+batch-1].t - s.marks[i0-1].t) / float64(batch)
		sum += d
		sum2 += d * d
	}
	mean := sum / float64(nb)
	if mean <= 0 {
		return 0
	}
	v := max(0, sum2/float64(nb)-mean*mean) * float64(nb) / float64(nb-1)
	return v / (mean * mean * float64(nb))
}

// lcm is the least common multiple of two positive integers.
func lcm(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// segmentPoint reduces one segment's marks from index from on to (m, mean
// duration).
func (s *solver) segmentPoint(start float64, from int) (segmentPoint, bool) {
	k := len(s.marks)
	if k == 0 {
		return segmentPoint{}, false
	}
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

// A panel's duration against its trailing order m: the estimate takes it
// linear in m² (the update's work), the error bar compares with linear in m
// (the panel's messages and factorization).
type shape bool

const (
	squared shape = true
	linear  shape = false
)

// of is m² or m.
func (sh shape) of(m float64) float64 {
	if sh == squared {
		return m * m
	}
	return m
}

// integrate sums the interpolated per-panel durations over all panels.
func (s *solver) integrate(points []segmentPoint) float64 {
	return s.integrateIn(points, squared)
}

// integrateIn sums per-panel durations interpolated linearly in sh.of(m). The
// panels come in decreasing m, so the piece of the interpolation only moves
// forward (the choice interpolate makes by searching).
//
// Every rank integrates over every panel, four times a run (the estimate
// and its error bar): at Stampede's scale, 6,006 ranks × 3,785 panels. So
// what does not change from panel to panel is computed once per piece; the
// sums take the very same floating-point operations as line's.
func (s *solver) integrateIn(points []segmentPoint, sh shape) float64 {
	if len(points) == 0 {
		return 0
	}
	total := 0.0
	if len(points) == 1 {
		p := points[0]
		per := sh.of(p.m) * float64(s.nb)
		for j := 0; j < s.n; j += s.nb {
			jb := min(s.nb, s.n-j)
			total += p.d * (sh.of(float64(s.n-j)) * float64(jb)) / per
		}
		return total
	}
	piece := 1
	l := lineThrough(points[0], points[1], sh)
	for j := 0; j < s.n; j += s.nb {
		m := float64(s.n - j)
		for piece < len(points)-1 && m < points[piece].m {
			piece++
			l = lineThrough(points[piece-1], points[piece], sh)
		}
		total += l.at(m)
	}
	return total
}

// linePiece is line(a, b, ·, sh) with its constant parts computed.
type linePiece struct {
	sh            shape
	flat          bool    // a.m == b.m: b.d everywhere
	d, rise       float64 // b.d, a.d − b.d
	from, runover float64 // sh.of(b.m), sh.of(a.m) − sh.of(b.m)
}

func lineThrough(a, b segmentPoint, sh shape) linePiece {
	from := sh.of(b.m)
	return linePiece{sh: sh, flat: a.m == b.m, d: b.d, rise: a.d - b.d, from: from, runover: sh.of(a.m) - from}
}

// at is line(a, b, m, sh), to the bit.
func (l linePiece) at(m float64) float64 {
	if l.flat {
		return l.d
	}
	return max(0, l.d+l.rise*(l.sh.of(m)-l.from)/l.runover)
}

// interpolate is piecewise linear in m² (a panel's update work) over points
// sorted by decreasing m (segments run from the first panel to the last), and
// extends the first and last pieces beyond the ends, never below zero.
func interpolate(points []segmentPoint, m float64) float64 {
	if len(points) == 1 {
		return points[0].d
	}
	for i := 1; i < len(points); i++ {
		if m >= points[i].m || i == len(points)-1 {
			return line(points[i-1], points[i], m, squared)
		}
	}
	return points[len(points)-1].d
}

// line is the duration at m on the line through a and b, linear in sh.of(m),
// never below zero.
func line(a, b segmentPoint, m float64, sh shape) float64 {
	if a.m == b.m {
		return b.d
	}
	return max(0, b.d+(a.d-b.d)*(sh.of(m)-sh.of(b.m))/(sh.of(a.m)-sh.of(b.m)))
}
