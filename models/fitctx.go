package models

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
)

// fitContext holds what every fit of one kernel shares: its term sets.
type fitContext struct {
	kernel    string
	opts      FitOptions
	product   term   // M1's term
	poly      []term // M2's terms, without the constant
	sigma     []term // N2's σ terms, without the constant
	breakVars []int  // Mp's candidate variables
	// pieceTerms are the terms of each Mp piece: the product, and for the
	// level-3 kernels the output term (see PieceTerms).
	pieceTerms []term
	// minPiece is the fewest samples an Mp piece holds (0: segMinSamples).
	minPiece int
}

// fitResult is one fitted family.
type fitResult struct {
	spec   Spec
	q      Quality
	mean   MeanKind
	noise  NoiseKind
	model  *model
	pieces int // Mp: pieces found
	modes  int // Nmix: modes found
	sepd   bool
	// meanOut flags the samples the mean's robust fit rejected, out those
	// the family leaves out (Nmix: the members of modes too small to be
	// modes); nil when none.
	meanOut, out []bool
	rw           robustWeights // the robust mean's last weights, for CV
}

func newFitContext(kernel string, samples []Sample, opts FitOptions) (*fitContext, error) {
	fc := &fitContext{kernel: kernel, opts: opts}
	// Variables the data varies in: the fallback term set of a kernel we do
	// not know, and the candidates for breakpoints.
	var lo, hi [numVars]float64
	for j := range numVars {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
	}
	for i := range samples {
		for j := range numVars {
			x := samples[i].Vars.get(j)
			lo[j], hi[j] = math.Min(lo[j], x), math.Max(hi[j], x)
		}
	}
	var present []int
	for j := range 3 { // m, n, k
		if hi[j] > 0 {
			present = append(present, j)
		}
	}
	if len(present) == 0 && hi[3] > 0 {
		present = []int{3}
	}
	switch {
	case opts.Product != "":
		t, err := parseTerm(opts.Product)
		if err != nil {
			return nil, fmt.Errorf("product term: %w", err)
		}
		fc.product = t
	case ProductTerm(kernel) != "":
		fc.product, _ = parseTerm(ProductTerm(kernel))
	default:
		fc.product = productOf(present)
	}
	fc.pieceTerms = []term{fc.product}
	if opts.Product == "" {
		if names := PieceTerms(kernel); names != nil {
			ts, err := parseTerms(names)
			if err != nil {
				return nil, fmt.Errorf("piece terms%w", err)
			}
			fc.pieceTerms = ts
		}
	}
	polyNames := opts.Terms
	if polyNames == nil {
		polyNames = PolyTerms(kernel)
	}
	if polyNames != nil {
		ts, err := parseTerms(polyNames)
		if err != nil {
			return nil, fmt.Errorf("terms%w", err)
		}
		for _, t := range ts {
			if t.degree() > 0 {
				fc.poly = append(fc.poly, t)
			}
		}
	} else {
		for _, t := range multilinear(present) {
			if t.degree() > 0 {
				fc.poly = append(fc.poly, t)
			}
		}
	}
	if opts.SigmaTerms != nil {
		ts, err := parseTerms(opts.SigmaTerms)
		if err != nil {
			return nil, fmt.Errorf("sigma terms%w", err)
		}
		for _, t := range ts {
			if t.degree() > 0 {
				fc.sigma = append(fc.sigma, t)
			}
		}
	} else if fc.product.degree() > 0 {
		fc.sigma = []term{fc.product}
	}
	if opts.BreaksOn != "" {
		j := varIndex(opts.BreaksOn)
		if j < 0 {
			return nil, fmt.Errorf("breaks_on %q: want m, n, k or w", opts.BreaksOn)
		}
		fc.breakVars = []int{j}
	} else {
		for j, p := range fc.product {
			if p > 0 && hi[j] > lo[j] {
				fc.breakVars = append(fc.breakVars, j)
			}
		}
	}
	return fc, nil
}

// meanParams counts the mean part's parameters (breakpoints included).
func meanParams(m *model) int {
	if m.pieces == nil {
		return len(m.base.terms) + 1
	}
	k := len(m.pieces) - 1
	for _, p := range m.pieces {
		k += len(p.terms) + 1
	}
	return k
}

// fitPolyMean fits one polynomial of a mean: with the intercept kept ≥ 0
// under the robust loss, plain least squares under LossSquares.
func (fc *fitContext) fitPolyMean(data []Sample, terms []term, w []float64) (poly, error) {
	if fc.opts.Loss == LossSquares {
		return fitPoly(data, terms, w)
	}
	return fitPolyNonneg(data, terms, w)
}

// fitMean fits the mean part of kind with optional weights (one weighted
// least-squares solve; meanFit is the robust fit built on it).
func (fc *fitContext) fitMean(kind MeanKind, data []Sample, w []float64) (Spec, *model, error) {
	return fc.fitMeanSeg(kind, data, w, nil)
}

// fitMeanSeg is fitMean with Mp's pieces cut on segw (nil: 1/y²), which
// may differ from the weights the pieces are then fitted with: the robust
// fit cuts on errors relative to the measured durations, outliers left out,
// since Huber's weights would hide a piece the last cut missed.
func (fc *fitContext) fitMeanSeg(kind MeanKind, data []Sample, w, segw []float64) (Spec, *model, error) {
	var sp Spec
	switch kind {
	case Mr:
		return fc.fitRate(data)
	case M0:
		p, err := fc.fitPolyMean(data, nil, w)
		if err != nil {
			return sp, nil, err
		}
		sp.Intercept = p.intercept
	case M1, M2:
		terms := []term{fc.product}
		if kind == M2 {
			terms = fc.poly
		}
		if fc.product.degree() == 0 {
			terms = nil
		}
		p, err := fc.fitPolyMean(data, terms, w)
		if err != nil {
			return sp, nil, err
		}
		sp.Terms, sp.Coef, sp.Intercept = termNames(p.terms), p.coef, p.intercept
	case Mp:
		var err error
		if sp, err = fc.fitPiecewise(data, w, segw); err != nil {
			return sp, nil, err
		}
	}
	m, err := sp.build()
	if err != nil {
		return sp, nil, fmt.Errorf("internal: fitted mean does not build: %w", err)
	}
	return sp, m, nil
}

func termNames(ts []term) []string {
	if len(ts) == 0 {
		return nil
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return out
}

// fit fits one family on data.
func (fc *fitContext) fit(data []Sample, mean MeanKind, noise NoiseKind) (fitResult, error) {
	res := fitResult{mean: mean, noise: noise}
	sp, m, out, rw, err := fc.meanFitWeights(mean, data)
	if err != nil {
		return res, err
	}
	res.meanOut, res.rw = out, rw
	inl := inliers(data, out)
	robust := fc.opts.Loss == LossRobust
	var nz noiseFit
	switch noise {
	case N0, N1:
		nz = fitGaussian(inl, m, noise == N1)
	case N2:
		// The mean is refitted on the inliers with 1/σ(v)² weights, the
		// weights N2's own noise model asks for; cross-validation refits
		// each fold with them.
		var hw []float64
		sp, m, nz, hw, err = fc.fitHetero(inl, mean, sp, m)
		if err == nil && robust && mean != Mr {
			res.rw = robustWeights{w: spread(hw, out), segw: res.rw.segw}
		}
	case Nmix:
		// Mixture modes are relative (a mode 60% slower at every size), so
		// the mean is fitted in relative terms, weighted by 1/center²; the
		// robust mean is relative already.
		for i := 0; !robust && i < relativeIterations; i++ {
			if sp, m, err = fc.fitMean(mean, data, relativeWeights(data, m)); err != nil {
				return res, err
			}
		}
		nz, err = fc.fitMixture(data, m, &sp)
		if err == nil {
			m, err = sp.build() // the mean was rescaled onto the main mode
			out = nz.outliers
		}
		if err == nil {
			sp, m, nz, err = fc.refitMainMode(data, mean, sp, m, nz)
			out = nz.outliers
		}
	}
	if err != nil {
		return res, err
	}
	nz.apply(&sp)
	if res.model, err = sp.build(); err != nil {
		return res, fmt.Errorf("internal: fitted model does not build: %w", err)
	}
	res.spec, res.out = sp, out
	res.pieces, res.modes, res.sepd = len(sp.Pieces), nz.modes, nz.separated
	res.q = quality(data, res.model, out)
	res.q.Family = Family{Mean: mean, Noise: noise}.String()
	res.q.Params = meanParams(m) + nz.params
	if mean == Mr {
		res.q.Params = 1 + nz.params // the rate; no intercept
	}
	res.q.LogLik = nz.logLik + float64(res.q.Outliers)*contaminationLogPDF(data)
	res.q.informationCriteria()
	res.q.Intercept, res.q.SmallCalls = fc.smallCalls(data, res.model, out)
	return res, nil
}

// spread puts the values of the inliers (x, in order) back at their
// samples' places, 0 at the outliers'.
func spread(x []float64, out []bool) []float64 {
	if countTrue(out) == 0 {
		return x
	}
	full := make([]float64, len(out))
	k := 0
	for i, o := range out {
		if !o {
			full[i] = x[k]
			k++
		}
	}
	return full
}

// inliers is data without the flagged samples (data itself when none is).
func inliers(data []Sample, out []bool) []Sample {
	k := countTrue(out)
	if k == 0 {
		return data
	}
	in := make([]Sample, 0, len(data)-k)
	for i := range data {
		if !out[i] {
			in = append(in, data[i])
		}
	}
	return in
}

// smallCallShare is the share of the samples (the smallest by product term)
// whose durations an intercept is checked against.
const smallCallShare = 20 // 1/20th, 5%

// smallCalls compares each intercept of the mean with the median duration
// of the smallest inlying calls it applies to (the 1/smallCallShare of the
// piece's inliers with the least product term), and returns the pair where
// the intercept is largest against the calls, s: an intercept above what
// those calls measure is charged to every tiny call of a run.
func (fc *fitContext) smallCalls(data []Sample, m *model, out []bool) (intercept, median float64) {
	byPiece := map[int][]int{}
	for _, i := range fc.sizeOrder(data) {
		if out == nil || !out[i] {
			p := m.pieceAt(&data[i].Vars)
			byPiece[p] = append(byPiece[p], i)
		}
	}
	worst := math.Inf(-1)
	for p := range len(m.pieces) + 1 {
		idx := byPiece[p]
		if len(idx) == 0 {
			continue
		}
		idx = idx[:max(1, len(idx)/smallCallShare)]
		ys := make([]float64, len(idx))
		for j, i := range idx {
			ys[j] = data[i].Seconds
		}
		b := m.interceptAt(&data[idx[0]].Vars)
		med := medianOf(ys)
		if r := b - (1+InterceptSlack)*med; r > worst {
			worst, intercept, median = r, b, med
		}
	}
	return intercept, median
}

// medianOf is the median of x (sorted in place; 0 when empty).
func medianOf(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return median(x)
}

// quality computes R² and RMSE of the model's mean against the data,
// leaving out the samples flagged as outliers (they are counted).
func quality(data []Sample, full *model, out []bool) Quality {
	y := make([]float64, 0, len(data))
	var sse float64
	for i := range data {
		if out != nil && out[i] {
			continue
		}
		y = append(y, data[i].Seconds)
		r := data[i].Seconds - full.Mean(data[i].Vars)
		sse += r * r
	}
	q := Quality{N: len(data), Outliers: len(data) - len(y)}
	if len(y) == 0 {
		return q
	}
	_, variance := stat.PopMeanVariance(y, nil)
	q.RMSE = math.Sqrt(sse / float64(len(y)))
	q.R2 = 1
	if variance > 0 {
		q.R2 = 1 - sse/float64(len(y))/variance
	}
	return q
}

// relativeIterations is how often a relative (1/center²-weighted) mean fit is
// repeated with the centers of the previous one.
const relativeIterations = 2

// relativeWeights are 1/center² with centers from m, floored at a small
// fraction of the largest so that near-zero predictions do not take over.
func relativeWeights(data []Sample, m *model) []float64 {
	w := make([]float64, len(data))
	top := 0.0
	for i := range data {
		w[i] = m.Mean(data[i].Vars)
		top = math.Max(top, w[i])
	}
	floor := math.Max(top*1e-9, math.SmallestNonzeroFloat64)
	for i, c := range w {
		c = math.Max(c, floor)
		w[i] = 1 / (c * c)
	}
	return w
}

// refitMainMode fits the mean again on the samples of the mixture's main
// mode alone (relative weights, 1/center²) and the mixture on that mean. The
// first mean is fitted on every sample, the other modes' among them, and
// lands off the main mode's shape (a dgemm with one call in five 1.5×
// slower: its intercept 9% low, its slope 0.7% high), so the ratios it
// leaves spread with the call's size: each mode came out wider than drawn
// (σ 11-16% high) and 4,000 samples grew a spurious third mode. Where the
// refit fails, or leaves the main mode with too few samples, the first fit
// stands.
func (fc *fitContext) refitMainMode(data []Sample, mean MeanKind, sp Spec, m *model, nz noiseFit) (Spec, *model, noiseFit, error) {
	if len(nz.mixture) < 2 {
		return sp, m, nz, nil
	}
	main := 0
	for j, c := range nz.mixture {
		if c.Weight > nz.mixture[main].Weight {
			main = j
		}
	}
	var members []Sample
	for i := range data {
		if nz.outliers != nil && nz.outliers[i] {
			continue
		}
		c := m.center(&data[i].Vars)
		if !(c > 0) {
			continue
		}
		r := data[i].Seconds / c
		best, bestLP := 0, math.Inf(-1)
		for j, q := range nz.mixture {
			sd := q.SigmaScale + q.Sigma/c
			if !(sd > 0) {
				continue
			}
			d := (r - q.MeanScale) / sd
			if lp := math.Log(q.Weight) - math.Log(sd) - 0.5*d*d; lp > bestLP {
				best, bestLP = j, lp
			}
		}
		if best == main {
			members = append(members, data[i])
		}
	}
	if len(members) < minSamples {
		return sp, m, nz, nil
	}
	sp2, m2, err := fc.fitMean(mean, members, relativeWeights(members, m))
	if err != nil {
		return sp, m, nz, nil
	}
	nz2, err := fc.fitMixture(data, m2, &sp2)
	if err != nil {
		return sp, m, nz, nil
	}
	m2, err = sp2.build()
	if err != nil {
		return sp, m, nz, err
	}
	return sp2, m2, nz2, nil
}
