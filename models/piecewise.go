package models

import (
	"errors"
	"math"
	"sort"
)

// Segmented regression for Mp (the study's M′): sort the samples by the
// breaks_on variable, then choose cut points that minimise the total squared
// error of a separate a·S + b fit (S the product term) on each segment —
// discontinuities allowed. Errors are relative (weights 1/y²): breakpoints
// of small calls are as visible as those of large ones, which absolute errors
// would drown. A dynamic programme over a coarse grid of cut candidates finds
// the best K-piece split, each cut is then refined over every sample position
// between its neighbours, and BIC chooses K.
const (
	segCandidates  = 128 // coarse grid of cut positions for the dynamic programme
	segRefineIters = 3   // rounds of refining each cut with the others fixed
	segMinFraction = 100 // a piece holds at least n/segMinFraction samples ...
	segMinSamples  = 8   // ... and at least this many
	// segExactRel is the relative RMS error below which segments count as
	// exact: the prefix-sum errors lose digits to cancellation, so a tighter
	// floor would let BIC chase rounding noise with extra pieces. No timer
	// measures a duration to a part in a million.
	segExactRel = 1e-6
)

// segSums are weighted prefix sums over the sorted samples, so the
// least-squares error of a·t + b on any range comes in O(1).
type segSums struct {
	s0, st, stt, sy, sty, syy []float64
}

func newSegSums(t, y, w []float64) *segSums {
	n := len(t)
	s := &segSums{make([]float64, n+1), make([]float64, n+1), make([]float64, n+1),
		make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)}
	for i := range n {
		wi := w[i]
		s.s0[i+1] = s.s0[i] + wi
		s.st[i+1] = s.st[i] + wi*t[i]
		s.stt[i+1] = s.stt[i] + wi*t[i]*t[i]
		s.sy[i+1] = s.sy[i] + wi*y[i]
		s.sty[i+1] = s.sty[i] + wi*t[i]*y[i]
		s.syy[i+1] = s.syy[i] + wi*y[i]*y[i]
	}
	return s
}

// constantTTol is the share of s0·stt (dimensionless) below which the
// determinant s0·stt − st² of a segment's normal equations counts as zero:
// by Cauchy–Schwarz it is 0 exactly when t is constant on the segment, and
// rounding leaves a few ulps of s0·stt there instead.
const constantTTol = 1e-12

// sse is the weighted residual sum of squares of the best a·t + b on [i, j).
func (s *segSums) sse(i, j int) float64 {
	s0, st, stt := s.s0[j]-s.s0[i], s.st[j]-s.st[i], s.stt[j]-s.stt[i]
	sy, sty, syy := s.sy[j]-s.sy[i], s.sty[j]-s.sty[i], s.syy[j]-s.syy[i]
	if s0 <= 0 {
		return 0
	}
	det := s0*stt - st*st
	var e float64
	if det <= constantTTol*s0*stt { // t constant on the range: intercept only
		e = syy - sy*sy/s0
	} else {
		a := (s0*sty - st*sy) / det
		b := (stt*sy - st*sty) / det
		e = syy - a*sty - b*sy
	}
	return math.Max(e, 0)
}

// segmentation is the best split of the samples on one variable.
type segmentation struct {
	variable int
	order    []int     // sample indices sorted by the variable
	cuts     []int     // positions in order where a new piece starts
	breaks   []float64 // the variable's value at each cut
	bic      float64
}

var errTooFewForPieces = errors.New("too few samples for a piecewise model")

func (fc *fitContext) segment(data []Sample, variable int) (segmentation, error) {
	return fc.segmentWeighted(data, variable, nil)
}

// segmentWeighted finds the cuts on one variable; lsw are the samples'
// least-squares weights (nil: 1/y², errors relative to the measured
// durations), the robust fit's, in which an outlier weighs nothing.
func (fc *fitContext) segmentWeighted(data []Sample, variable int, lsw []float64) (segmentation, error) {
	n := len(data)
	sg := segmentation{variable: variable, order: make([]int, n)}
	for i := range sg.order {
		sg.order[i] = i
	}
	x := func(p int) float64 { return data[sg.order[p]].Vars.get(variable) }
	sort.SliceStable(sg.order, func(a, b int) bool {
		return data[sg.order[a]].Vars.get(variable) < data[sg.order[b]].Vars.get(variable)
	})
	t, y, w := make([]float64, n), make([]float64, n), make([]float64, n)
	eps := durationFloor(data) // zero durations must not get infinite weight
	for p, i := range sg.order {
		v := data[i].Vars
		t[p], y[p] = fc.product.eval(&v), data[i].Seconds
		d := math.Max(y[p], eps)
		w[p] = 1 / (d * d)
		if lsw != nil {
			w[p] = lsw[i]
		}
	}
	sums := newSegSums(t, y, w)
	minPiece := fc.minPiece
	if minPiece <= 0 {
		minPiece = segMinSamples
	}
	minSeg := max(minPiece, n/segMinFraction)
	// Valid cut positions: where the variable changes, leaving room for pieces.
	var valid []int
	for p := minSeg; p <= n-minSeg; p++ {
		if x(p) != x(p-1) {
			valid = append(valid, p)
		}
	}
	grid := valid
	if len(grid) > segCandidates {
		grid = make([]int, segCandidates)
		for c := range grid {
			grid[c] = valid[c*len(valid)/segCandidates]
		}
	}
	sseFloor := float64(n) * segExactRel * segExactRel
	bestBIC := math.Inf(1)
	for k := 1; k <= fc.opts.MaxPieces; k++ {
		cuts, ok := bestCuts(sums, grid, n, k, minSeg)
		if !ok {
			break
		}
		cuts = refineCuts(sums, valid, cuts, n, minSeg)
		total := 0.0
		bounds := append(append([]int{0}, cuts...), n)
		for i := 0; i+1 < len(bounds); i++ {
			total += sums.sse(bounds[i], bounds[i+1])
		}
		bic := float64(n)*math.Log(math.Max(total, sseFloor)/float64(n)) + float64(3*k-1)*math.Log(float64(n))
		if bic < bestBIC {
			bestBIC, sg.cuts = bic, cuts
		}
	}
	if math.IsInf(bestBIC, 1) {
		return sg, errTooFewForPieces
	}
	sg.bic = bestBIC
	for _, c := range sg.cuts {
		sg.breaks = append(sg.breaks, (x(c-1)+x(c))/2)
	}
	return sg, nil
}

// bestCuts is the dynamic programme: the k−1 cuts from grid minimising the
// summed error of k pieces, each at least minSeg long.
func bestCuts(s *segSums, grid []int, n, k, minSeg int) ([]int, bool) {
	if k == 1 {
		return nil, true
	}
	pts := append(append([]int{0}, grid...), n) // node 0 is the start, the last the end
	m := len(pts)
	inf := math.Inf(1)
	cost := make([]float64, m) // best cost of covering [0, pts[c]) with the pieces so far
	from := make([][]int, k)
	for c := range cost {
		cost[c] = inf
		if c > 0 && pts[c] >= minSeg {
			cost[c] = s.sse(0, pts[c])
		}
	}
	for piece := 1; piece < k; piece++ {
		next := make([]float64, m)
		from[piece] = make([]int, m)
		for c := range next {
			next[c] = inf
			for b := 1; b < c; b++ {
				if cost[b] == inf || pts[c]-pts[b] < minSeg || b == m-1 {
					continue
				}
				if v := cost[b] + s.sse(pts[b], pts[c]); v < next[c] {
					next[c], from[piece][c] = v, b
				}
			}
		}
		cost = next
	}
	if cost[m-1] == inf {
		return nil, false
	}
	cuts := make([]int, k-1)
	c := m - 1
	for piece := k - 1; piece >= 1; piece-- {
		c = from[piece][c]
		cuts[piece-1] = pts[c]
	}
	return cuts, true
}

// refineCuts moves each cut, the others fixed, to the valid position between
// its neighbours with the least error.
func refineCuts(s *segSums, valid, cuts []int, n, minSeg int) []int {
	cuts = append([]int(nil), cuts...)
	for range segRefineIters {
		for i := range cuts {
			lo, hi := 0, n
			if i > 0 {
				lo = cuts[i-1]
			}
			if i+1 < len(cuts) {
				hi = cuts[i+1]
			}
			best, bestErr := cuts[i], s.sse(lo, cuts[i])+s.sse(cuts[i], hi)
			start := sort.SearchInts(valid, lo+minSeg)
			for _, p := range valid[start:] {
				if p > hi-minSeg {
					break
				}
				if e := s.sse(lo, p) + s.sse(p, hi); e < bestErr {
					best, bestErr = p, e
				}
			}
			cuts[i] = best
		}
	}
	return cuts
}

// fitPiecewise segments on the best candidate variable (cutting on weights
// segw, nil for 1/y²) and fits each piece (weighted by w when given).
func (fc *fitContext) fitPiecewise(data []Sample, w, segw []float64) (Spec, error) {
	if len(fc.breakVars) == 0 {
		return Spec{}, errors.New("piecewise model: no variable varies in the data")
	}
	var best segmentation
	best.bic = math.Inf(1)
	for _, v := range fc.breakVars {
		sg, err := fc.segmentWeighted(data, v, segw)
		if err != nil {
			return Spec{}, err
		}
		if sg.bic < best.bic {
			best = sg
		}
	}
	sp := Spec{BreaksOn: varNames[best.variable]}
	bounds := append(append([]int{0}, best.cuts...), len(data))
	terms := fc.pieceTerms
	// Where the product has variables besides the one broken on, a piece
	// spans small and large calls alike (k ∈ [48, 160) holds 64×64×64 and
	// 4000×2000×64 dgemms), so its intercept is a fixed cost charged to
	// every call in it and is held at what the kernel's smallest calls
	// measure, not the piece's: held at its own smallest calls' (1.7 ms,
	// none of them small), that piece of a dgemm fit charged 1.7 ms per
	// update call and a 2-rank N = 4,000, NB = 64 run came out 48% long
	// (issue 10). Broken on its only variable, a piece's calls are all as
	// large as its range, and its intercept is only where its line meets 0.
	limit := math.Inf(1)
	for j, e := range fc.product {
		if e > 0 && j != best.variable {
			limit = smallCallsBound(data, terms, w)
			break
		}
	}
	for i := 0; i+1 < len(bounds); i++ {
		seg := make([]Sample, 0, bounds[i+1]-bounds[i])
		var sw []float64
		for _, j := range best.order[bounds[i]:bounds[i+1]] {
			seg = append(seg, data[j])
			if w != nil {
				sw = append(sw, w[j])
			}
		}
		var p poly
		var err error
		if fc.opts.Loss == LossSquares {
			p, err = fitPoly(seg, terms, sw)
		} else {
			p, err = fitPolyNonnegBelow(seg, terms, sw, limit)
		}
		if err != nil {
			return Spec{}, err
		}
		pc := Piece{Terms: termNames(p.terms), Coef: p.coef, Intercept: p.intercept}
		if i > 0 {
			pc.From = best.breaks[i-1]
		}
		if i < len(best.breaks) {
			pc.To = best.breaks[i]
		}
		sp.Pieces = append(sp.Pieces, pc)
	}
	return sp, nil
}
