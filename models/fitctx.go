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

// fitMean fits the mean part of kind with optional weights.
func (fc *fitContext) fitMean(kind MeanKind, data []Sample, w []float64) (Spec, *model, error) {
	var sp Spec
	switch kind {
	case M0:
		p, err := fitPoly(data, nil, w)
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
		p, err := fitPoly(data, terms, w)
		if err != nil {
			return sp, nil, err
		}
		sp.Terms, sp.Coef, sp.Intercept = termNames(p.terms), p.coef, p.intercept
	case Mp:
		var err error
		if sp, err = fc.fitPiecewise(data, w); err != nil {
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
	sp, m, err := fc.fitMean(mean, data, nil)
	if err != nil {
		return res, err
	}
	var nz noiseFit
	switch noise {
	case N0, N1:
		nz = fitGaussian(data, m, noise == N1)
	case N2:
		sp, m, nz, err = fc.fitHetero(data, mean, sp, m)
	case Nmix:
		// Mixture modes are relative (a mode 60% slower at every size), so
		// the mean is fitted in relative terms, weighted by 1/center².
		for range relativeIterations {
			if sp, m, err = fc.fitMean(mean, data, relativeWeights(data, m)); err != nil {
				return res, err
			}
		}
		nz, err = fc.fitMixture(data, m, &sp)
		if err == nil {
			m, err = sp.build() // the mean was rescaled onto the main mode
		}
	}
	if err != nil {
		return res, err
	}
	nz.apply(&sp)
	if res.model, err = sp.build(); err != nil {
		return res, fmt.Errorf("internal: fitted model does not build: %w", err)
	}
	res.spec = sp
	res.pieces, res.modes, res.sepd = len(sp.Pieces), nz.modes, nz.separated
	res.q = quality(data, res.model)
	res.q.Family = Family{Mean: mean, Noise: noise}.String()
	res.q.Params = meanParams(m) + nz.params
	res.q.LogLik = nz.logLik
	res.q.informationCriteria()
	return res, nil
}

// quality computes R² and RMSE of the model's mean against the data.
func quality(data []Sample, full *model) Quality {
	y := make([]float64, len(data))
	var sse float64
	for i := range data {
		y[i] = data[i].Seconds
		r := y[i] - full.Mean(data[i].Vars)
		sse += r * r
	}
	_, variance := stat.PopMeanVariance(y, nil)
	q := Quality{N: len(data), RMSE: math.Sqrt(sse / float64(len(data)))}
	q.R2 = 1
	if variance > 0 {
		q.R2 = 1 - sse/float64(len(data))/variance
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
