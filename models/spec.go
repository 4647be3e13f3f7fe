package models

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Spec is one kernel model in its TOML table form, e.g.
//
//	[kernels.dgemm]
//	terms = ["m*n*k", "m*n"]
//	coef = [1.03e-11, 2.1e-10]
//	intercept = 1.9e-6
//	noise = "hetero"
//	sigma_terms = ["m*n*k"]
//	sigma_coef = [4e-13]
//	sigma_intercept = 1e-7
//
// The mean is intercept + Σ coef[i]·terms[i] (seconds) unless pieces are
// given, in which case the piece whose [from, to) range holds the breaks_on
// variable applies (the first piece below its range, the last above; the last
// piece's to may be 0 for "no upper bound"). Noise is one of
//
//	"none" (or absent)  Sample = Mean
//	"gaussian"          + N(0, sigma²)
//	"hetero"            + N(0, σ(v)²), σ(v) = sigma_intercept + Σ sigma_coef·sigma_terms
//	"mixture"           mode j with probability weight: center·mean_scale + offset
//	                    + N(0, (sigma + sigma_scale·center)²)
//	"halfnormal"        + X, the shifted half-normal of the SMPI/HPL study:
//	                    X = s·|Z| − s·√(2/π), s = σ/√(1−2/π), so E[X] = 0 and
//	                    SD[X] = σ; σ is sigma, or σ(v) as for "hetero"; a draw
//	                    ≤ 0 costs 0 (the study injects no call), and unlike the
//	                    Gaussian families σ is not bounded by the mean; a σ(v)
//	                    below 0 gives s < 0, X mirrored (SMPI's HPL fork)
//
// Host holds per-host overrides ([kernels.dgemm.host.NAME]); each replaces the
// whole platform-wide model for that host and may not nest further hosts. A
// key "NAME/cpuS" ([kernels.dgemm.host."dahu-3/cpu1"]) is the override of
// socket S of host NAME, looked up before NAME's (Set.ForCPU).
type Spec struct {
	Terms     []string  `toml:"terms,omitempty"`
	Coef      []float64 `toml:"coef,omitempty"`
	Intercept float64   `toml:"intercept"`

	Noise          string      `toml:"noise,omitempty"`
	Sigma          float64     `toml:"sigma,omitzero"`
	SigmaTerms     []string    `toml:"sigma_terms,omitempty"`
	SigmaCoef      []float64   `toml:"sigma_coef,omitempty"`
	SigmaIntercept float64     `toml:"sigma_intercept,omitzero"`
	Mixture        []Component `toml:"mixture,omitempty"`

	BreaksOn string  `toml:"breaks_on,omitempty"`
	Pieces   []Piece `toml:"piece,omitempty"`

	Host map[string]Spec `toml:"host,omitempty"`
}

// Component is one mode of a Gaussian mixture. In TOML an absent mean_scale
// means 1 (the mode sits on the model's center); in Go, set it explicitly.
type Component struct {
	Weight     float64 `toml:"weight"`               // probability, the weights sum to 1
	MeanScale  float64 `toml:"mean_scale"`           // multiplies the center
	Offset     float64 `toml:"offset,omitzero"`      // s, added to the center
	Sigma      float64 `toml:"sigma,omitzero"`       // s, constant spread
	SigmaScale float64 `toml:"sigma_scale,omitzero"` // spread as a fraction of the center
}

// Piece is the model within [From, To) of the breaks_on variable.
type Piece struct {
	From      float64   `toml:"from"`
	To        float64   `toml:"to,omitzero"` // 0 on the last piece: no upper bound
	Terms     []string  `toml:"terms,omitempty"`
	Coef      []float64 `toml:"coef,omitempty"`
	Intercept float64   `toml:"intercept"`
}

// Noise names accepted in Spec.Noise.
const (
	NoiseNone     = "none"
	NoiseGaussian = "gaussian"
	NoiseHetero   = "hetero"
	NoiseMixture  = "mixture"
	// NoiseHalfNormal is the study's published noise (shared/peers/dahu).
	NoiseHalfNormal = "halfnormal"
)

// weightSumTol is how far mixture weights may sum from 1 (rounding in
// hand-written files); they are renormalised.
const weightSumTol = 1e-3

// specError is a validation error tied to a key relative to the spec's table
// (e.g. "piece[1].coef"), so ParseSet can name the key and find its line.
type specError struct {
	key string
	msg string
}

func (e *specError) Error() string { return e.key + ": " + e.msg }

func bad(key, format string, args ...any) error {
	return &specError{key: key, msg: fmt.Sprintf(format, args...)}
}

// Build validates the spec and compiles its platform-wide model (Host
// overrides are built by Set).
func (s Spec) Build() (Model, error) {
	m, err := s.build()
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (s Spec) build() (*model, error) {
	m := &model{breaksOn: -1}
	var err error
	if m.base, err = buildPoly("", s.Terms, s.Coef, s.Intercept); err != nil {
		return nil, err
	}
	if err := s.buildPieces(m); err != nil {
		return nil, err
	}
	if err := s.buildNoise(m); err != nil {
		return nil, err
	}
	return m, nil
}

func buildPoly(prefix string, terms []string, coef []float64, intercept float64) (poly, error) {
	var p poly
	if len(terms) != len(coef) {
		return p, bad(prefix+"coef", "%d coefficients for %d terms", len(coef), len(terms))
	}
	ts, err := parseTerms(terms)
	if err != nil {
		return p, bad(prefix+"terms", "%v", err)
	}
	for i, c := range coef {
		if !finite(c) {
			return p, bad(prefix+"coef", "[%d] is %v", i, c)
		}
	}
	if !finite(intercept) {
		return p, bad(prefix+"intercept", "is %v", intercept)
	}
	return newPoly(ts, append([]float64(nil), coef...), intercept), nil
}

func (s Spec) buildPieces(m *model) error {
	if len(s.Pieces) == 0 {
		if s.BreaksOn != "" {
			return bad("breaks_on", "given without any [[piece]]")
		}
		return nil
	}
	if len(s.Terms) > 0 || s.Intercept != 0 {
		return bad("terms", "a piecewise model takes its terms, coef and intercept in each [[piece]], not at the top")
	}
	m.breaksOn = varIndex(s.BreaksOn)
	if m.breaksOn < 0 {
		return bad("breaks_on", "is %q, want one of m, n, k, w", s.BreaksOn)
	}
	for i, pc := range s.Pieces {
		key := fmt.Sprintf("piece[%d].", i)
		p, err := buildPoly(key, pc.Terms, pc.Coef, pc.Intercept)
		if err != nil {
			return err
		}
		last := i == len(s.Pieces)-1
		to := pc.To
		if last && to == 0 {
			to = math.Inf(1)
		}
		if !finite(pc.From) || math.IsNaN(to) || to <= pc.From {
			return bad(key+"to", "range [%v, %v) is empty", pc.From, pc.To)
		}
		if i > 0 && pc.From != s.Pieces[i-1].To {
			return bad(key+"from", "is %v but the previous piece ends at %v (pieces must be sorted and contiguous)", pc.From, s.Pieces[i-1].To)
		}
		m.pieces = append(m.pieces, piece{from: pc.From, to: to, poly: p})
	}
	return nil
}

func (s Spec) buildNoise(m *model) error {
	hasSigma := s.Sigma != 0
	hasHetero := len(s.SigmaTerms) > 0 || len(s.SigmaCoef) > 0 || s.SigmaIntercept != 0
	hasMix := len(s.Mixture) > 0
	unexpected := func(kind string) error {
		switch {
		case hasSigma && kind != NoiseGaussian && kind != NoiseHalfNormal:
			return bad("sigma", "only applies to noise = %q or %q, not %q", NoiseGaussian, NoiseHalfNormal, kind)
		case hasHetero && kind != NoiseHetero && kind != NoiseHalfNormal:
			return bad("sigma_terms", "sigma_terms/sigma_coef/sigma_intercept only apply to noise = %q or %q, not %q", NoiseHetero, NoiseHalfNormal, kind)
		case hasSigma && hasHetero:
			return bad("sigma", "give either sigma or sigma_terms/sigma_coef/sigma_intercept, not both")
		case hasMix && kind != NoiseMixture:
			return bad("mixture", "only applies to noise = %q, not %q", NoiseMixture, kind)
		}
		return nil
	}
	switch s.Noise {
	case "", NoiseNone:
		m.noise = noiseNone
		return unexpected(NoiseNone)
	case NoiseGaussian:
		m.noise = noiseGaussian
		if s.Sigma == 0 {
			return bad("sigma", "missing or 0: noise = %q needs a σ > 0 in seconds (leave noise out for none)", NoiseGaussian)
		}
		if !finite(s.Sigma) || s.Sigma < 0 {
			return bad("sigma", "is %v, want a finite σ > 0 in seconds", s.Sigma)
		}
		m.sigma = s.Sigma
	case NoiseHetero:
		m.noise = noiseHetero
		p, err := buildPoly("sigma_", s.SigmaTerms, s.SigmaCoef, s.SigmaIntercept)
		if err != nil {
			return err
		}
		if p.zero() {
			return bad("sigma_intercept", "missing or 0, and so is every sigma_coef: noise = %q needs σ(v) = sigma_intercept + Σ sigma_coef·sigma_terms (leave noise out for none)", NoiseHetero)
		}
		m.sigmaPoly = p
	case NoiseMixture:
		m.noise = noiseMixture
		if err := buildMixture(m, s.Mixture); err != nil {
			return err
		}
	case NoiseHalfNormal:
		m.noise = noiseHalfNormal
		if !finite(s.Sigma) || s.Sigma < 0 {
			return bad("sigma", "is %v, want a finite σ ≥ 0 in seconds", s.Sigma)
		}
		p, err := buildPoly("sigma_", s.SigmaTerms, s.SigmaCoef, s.SigmaIntercept+s.Sigma)
		if err != nil {
			return err
		}
		if p.zero() {
			return bad("sigma", "missing or 0, and so is σ(v): noise = %q needs sigma, or sigma_terms with sigma_coef (leave noise out for none)", NoiseHalfNormal)
		}
		m.sigmaPoly = p
	default:
		return bad("noise", "is %q, want %q, %q, %q, %q or %q", s.Noise, NoiseNone, NoiseGaussian, NoiseHetero, NoiseMixture, NoiseHalfNormal)
	}
	return unexpected(s.Noise)
}

func buildMixture(m *model, comps []Component) error {
	if len(comps) == 0 {
		return bad("mixture", "noise = %q needs at least one {weight, mean_scale, sigma} mode", NoiseMixture)
	}
	total := 0.0
	for i, c := range comps {
		for _, f := range []struct {
			name string
			v    float64
		}{{"weight", c.Weight}, {"mean_scale", c.MeanScale}, {"offset", c.Offset}, {"sigma", c.Sigma}, {"sigma_scale", c.SigmaScale}} {
			if !finite(f.v) {
				return bad(fmt.Sprintf("mixture[%d].%s", i, f.name), "is %v", f.v)
			}
		}
		if c.Weight <= 0 || c.Sigma < 0 || c.SigmaScale < 0 {
			return bad(fmt.Sprintf("mixture[%d]", i), "weight must be > 0 and sigma, sigma_scale ≥ 0")
		}
		total += c.Weight
	}
	if math.Abs(total-1) > weightSumTol {
		return bad("mixture", "weights sum to %v, want 1", total)
	}
	cum := 0.0
	for _, c := range comps {
		w := c.Weight / total
		cum += w
		m.components = append(m.components, component{cumWeight: cum, weight: w, scale: c.MeanScale,
			offset: c.Offset, sigma: c.Sigma, sigmaScale: c.SigmaScale})
		m.meanScale += w * c.MeanScale
		m.meanOffset += w * c.Offset
	}
	m.components[len(m.components)-1].cumWeight = 1
	return nil
}

// validateHosts checks the per-host overrides of a platform-wide spec.
func (s Spec) validateHosts() error {
	for _, h := range sortedKeys(s.Host) {
		if h == "" {
			return bad("host", "empty host name")
		}
		if _, _, ok := SplitCPUKey(h); !ok {
			return bad("host", "%q: an override is keyed by a host name or HOST/cpuS (S the socket, from 0)", h)
		}
		hs := s.Host[h]
		if len(hs.Host) > 0 {
			return bad("host."+h+".host", "per-host overrides cannot nest")
		}
		if _, err := hs.build(); err != nil {
			var se *specError
			if errors.As(err, &se) {
				return bad("host."+h+"."+se.key, "%s", se.msg)
			}
			return err
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
