package models

import (
	"math"
)

// exactRel is the relative RMS residual (against the RMS duration) below
// which a fit is exact up to rounding: such data has no noise (N0), and σ is
// floored there so likelihoods stay finite.
const exactRel = 1e-9

// absResidualToSigma turns a mean absolute residual into σ: for a Gaussian,
// E|r| = σ·√(2/π).
var absResidualToSigma = math.Sqrt(math.Pi / 2)

// heteroIterations is how often N2 alternates between fitting σ(v) on the
// residuals and refitting the mean weighted by 1/σ(v)²; the estimates settle
// after two or three rounds.
const heteroIterations = 3

// noiseFit is a fitted noise part and the likelihood it gives the data.
type noiseFit struct {
	kind      NoiseKind
	sigma     float64
	sigmaPoly poly
	mixture   []Component
	params    int
	logLik    float64
	modes     int
	separated bool
	outliers  []bool // Nmix: samples in modes too small to be modes
}

// apply writes the noise part into a spec.
func (nz noiseFit) apply(sp *Spec) {
	switch nz.kind {
	case N0:
		sp.Noise = ""
	case N1:
		sp.Noise, sp.Sigma = NoiseGaussian, nz.sigma
	case N2:
		sp.Noise = NoiseHetero
		sp.SigmaTerms, sp.SigmaCoef, sp.SigmaIntercept = termNames(nz.sigmaPoly.terms), nz.sigmaPoly.coef, nz.sigmaPoly.intercept
	case Nmix:
		sp.Noise, sp.Mixture = NoiseMixture, nz.mixture
	}
}

func rms(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s / float64(len(x)))
}

func residuals(data []Sample, m *model) []float64 {
	r := make([]float64, len(data))
	for i := range data {
		r[i] = data[i].Seconds - m.Mean(data[i].Vars)
	}
	return r
}

// gaussLogPDF is log φ(r; 0, σ²).
func gaussLogPDF(r, sigma float64) float64 {
	z := r / sigma
	return -0.5*z*z - math.Log(sigma) - 0.5*math.Log(2*math.Pi)
}

// fitGaussian fits N1 (σ constant) or, with noisy false, N0. N0's
// likelihood is evaluated as N1's with the residual RMS as σ so that
// information criteria stay comparable; it adds no parameter.
func fitGaussian(data []Sample, m *model, noisy bool) noiseFit {
	r := residuals(data, m)
	sigma := math.Max(rms(r), exactRel*rms(durations(data)))
	nz := noiseFit{kind: N0}
	if noisy {
		n, p := len(data), meanParams(m)
		// Unbiased σ for the table; the likelihood uses the ML value.
		unbiased := rms(r)
		if n > p {
			unbiased *= math.Sqrt(float64(n) / float64(n-p))
		}
		nz = noiseFit{kind: N1, sigma: unbiased, params: 1}
	}
	for _, x := range r {
		nz.logLik += gaussLogPDF(x, sigma)
	}
	return nz
}

// fitHetero fits N2: σ(v) = a + Σ b·S(v) on the absolute residuals (S the
// σ terms, by default the product term), alternating with a mean refit
// weighted by 1/σ(v)², which is what makes the large, noisy calls stop
// dominating the small ones; it returns those weights too.
func (fc *fitContext) fitHetero(data []Sample, mean MeanKind, sp Spec, m *model) (Spec, *model, noiseFit, []float64, error) {
	sigmaTerms := fc.sigma
	var sp2 poly
	sig := make([]float64, len(data))
	abs := make([]float64, len(data))
	var w, meanW []float64
	for it := range heteroIterations + 1 {
		r := residuals(data, m)
		meanAbs := 0.0
		for i, x := range r {
			abs[i] = math.Abs(x) * absResidualToSigma
			meanAbs += abs[i] / float64(len(r))
		}
		var err error
		if sp2, err = fitPolyTo(data, sigmaTerms, abs, w); err != nil {
			return sp, m, noiseFit{}, nil, err
		}
		floor := math.Max(1e-2*meanAbs, exactRel*rms(durations(data)))
		w = make([]float64, len(data))
		for i := range data {
			sig[i] = math.Max(sp2.eval(&data[i].Vars), floor)
			w[i] = 1 / (sig[i] * sig[i])
		}
		if it == heteroIterations {
			break
		}
		if sp, m, err = fc.fitMean(mean, data, w); err != nil {
			return sp, m, noiseFit{}, nil, err
		}
		meanW = w
	}
	nz := noiseFit{kind: N2, sigmaPoly: sp2, params: len(sp2.terms) + 1}
	r := residuals(data, m)
	for i, x := range r {
		nz.logLik += gaussLogPDF(x, sig[i])
	}
	return sp, m, nz, meanW, nil
}
