package models

import (
	"math"
	"math/rand/v2"
)

// Model gives the duration of one kernel call.
type Model interface {
	// Mean is the expected duration in seconds (never negative).
	Mean(v Vars) float64
	// Sample draws one duration in seconds from rng; never negative, and
	// equal to Mean when the model has no noise (N0). It does not allocate.
	Sample(v Vars, rng *rand.Rand) float64
}

// poly is intercept + Σ coef·term.
type poly struct {
	terms     []term
	coef      []float64
	intercept float64
	// factors lists, term after term, the variable index of every factor
	// (m*n*k → 0 1 2), and nfactors each term's count: the hot path then
	// does one load and one multiply per factor. Set by newPoly.
	factors  []uint8
	nfactors []uint8
}

// newPoly builds a poly with its factor lists.
func newPoly(terms []term, coef []float64, intercept float64) poly {
	p := poly{terms: terms, coef: coef, intercept: intercept, nfactors: make([]uint8, len(terms))}
	for i, t := range terms {
		for j, pow := range t {
			for range pow {
				p.factors = append(p.factors, uint8(j))
			}
		}
		p.nfactors[i] = uint8(t.degree())
	}
	return p
}

// zero reports whether p is 0 for every v: no intercept and no coefficient.
func (p poly) zero() bool {
	if p.intercept != 0 {
		return false
	}
	for _, c := range p.coef {
		if c != 0 {
			return false
		}
	}
	return true
}

func (p *poly) eval(v *Vars) float64 {
	vals := [numVars]float64{v.M, v.N, v.K, v.W}
	x := p.intercept
	k := 0
	for i, c := range p.coef {
		y := 1.0 // the term's value first, then ·coef: same rounding as term.eval
		for range p.nfactors[i] {
			y *= vals[p.factors[k]&(numVars-1)]
			k++
		}
		x += c * y
	}
	return x
}

// piece is a poly that applies where the breaks_on variable is in [from, to).
type piece struct {
	from, to float64
	poly
}

type noiseKind uint8

const (
	noiseNone noiseKind = iota
	noiseGaussian
	noiseHetero
	noiseMixture
	noiseHalfNormal
)

// component is one mode of a mixture: mean·scale + offset with Gaussian
// spread sigma + sigmaScale·mean (seconds).
type component struct {
	cumWeight  float64 // cumulative weight, the last one is 1
	weight     float64
	scale      float64
	offset     float64
	sigma      float64
	sigmaScale float64
}

// model is the compiled form of a Spec; it is immutable and safe to share.
type model struct {
	base     poly
	breaksOn int // variable index of the pieces, -1 without pieces
	pieces   []piece

	noise      noiseKind
	sigma      float64 // N1, s
	sigmaPoly  poly    // N2: σ(v), s, clamped at 0; half-normal: σ(v), s, any sign
	components []component

	// For a mixture the expected duration is base·meanScale + meanOffset.
	meanScale, meanOffset float64
}

// center is the mean part before noise: the base polynomial or the piece the
// breaks_on variable falls in (the first piece below its range, the last
// above).
func (m *model) center(v *Vars) float64 {
	if m.pieces == nil {
		return m.base.eval(v)
	}
	x := v.get(m.breaksOn)
	i := 0
	for i < len(m.pieces)-1 && x >= m.pieces[i].to {
		i++
	}
	return m.pieces[i].eval(v)
}

// pieceAt is the index of the piece that applies at v, 0 without pieces.
func (m *model) pieceAt(v *Vars) int {
	if m.pieces == nil {
		return 0
	}
	x := v.get(m.breaksOn)
	i := 0
	for i < len(m.pieces)-1 && x >= m.pieces[i].to {
		i++
	}
	return i
}

// interceptAt is the constant part of the mean that applies at v: the
// intercept of the polynomial or piece, scaled as the mean is.
func (m *model) interceptAt(v *Vars) float64 {
	b := m.base.intercept
	if m.pieces != nil {
		b = m.pieces[m.pieceAt(v)].intercept
	}
	if m.noise == noiseMixture {
		b = b*m.meanScale + m.meanOffset
	}
	return b
}

func (m *model) Mean(v Vars) float64 {
	c := m.center(&v)
	if m.noise == noiseMixture {
		c = c*m.meanScale + m.meanOffset
	}
	return max(c, 0) // math.Max's value, inline (math.Max is a call on amd64)
}

func (m *model) Sample(v Vars, rng *rand.Rand) float64 {
	c := m.center(&v)
	var x float64
	switch m.noise {
	case noiseNone:
		x = c
	case noiseGaussian:
		x = c + spreadAt(c, m.sigma)*rng.NormFloat64()
	case noiseHetero:
		x = c + spreadAt(c, m.sigmaPoly.eval(&v))*rng.NormFloat64()
	case noiseHalfNormal:
		// The study's published semantics: no bound on σ, and a draw at or
		// below zero is not injected (costs 0, as the cut below does). A
		// fitted σ(v) can come out negative (Dahu's dahu-15 cpu1 at
		// dgemm(m, n ≤ 4, k) with m·k large, the empty calls among them):
		// SMPI's HPL fork then draws with s < 0,
		// the half-normal mirrored about the center (mean 0, SD |σ|), and so
		// does this, rather than dropping the noise.
		s := m.sigmaPoly.eval(&v) * halfNormalScale
		x = c + s*(math.Abs(rng.NormFloat64())-halfNormalMean)
	case noiseMixture:
		u := rng.Float64()
		j := 0
		for j < len(m.components)-1 && u >= m.components[j].cumWeight {
			j++
		}
		q := &m.components[j]
		mean := c*q.scale + q.offset
		x = mean + spreadAt(mean, q.sigma+q.sigmaScale*math.Abs(c))*rng.NormFloat64()
	}
	// A Gaussian tail can cross zero for tiny calls; a duration cannot.
	return max(x, 0) // math.Max's value, inline (math.Max is a call on amd64)
}

// A half-normal |Z| has mean √(2/π) and variance 1−2/π: X = s·(|Z|−√(2/π))
// with s = σ/√(1−2/π) has mean 0 and SD σ.
var (
	halfNormalMean  = math.Sqrt(2 / math.Pi)
	halfNormalScale = 1 / math.Sqrt(1-2/math.Pi)
)

// maxNoiseCV bounds a call's noise: σ at most this fraction of its mean
// duration, so the cut at zero (three σ away) leaves the mean as fitted.
// One σ for every size, fitted where the large calls are (7 ms for this
// VM's dgemms), drew µs calls from a Gaussian mostly below zero and charged
// each about 0.4σ: a 2-rank N = 4,000 run came out 48% long (issue 10).
const maxNoiseCV = 1.0 / 3

// spreadAt is the σ a call of the given mean is drawn with.
func spreadAt(mean, sigma float64) float64 {
	return min(max(sigma, 0), maxNoiseCV*max(mean, 0))
}
