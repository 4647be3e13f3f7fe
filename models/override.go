package models

import (
	"errors"
	"slices"
	"strings"
)

// Override returns s with the keys of an overriding table set over it, key by
// key, as a scenario's inline [kernels.NAME] table (or a --set) comes over a
// models file's: over is the table decoded, given the table itself (as the
// TOML decoder reads it), whose keys say which of over's fields it sets. A
// host table (host.NAME) overrides s's table of that host key by key; one s
// lacks starts empty, a whole model there, as in a models file.
//
// A model has two parts, each of one form: its mean a polynomial (terms,
// coef, intercept) or pieces (breaks_on, piece), its noise a family (noise,
// "none" when absent) with the keys of that family. A table that gives a part
// another form — piece over a polynomial, terms over pieces, a noise of
// another family; for "halfnormal", sigma over σ(dims) or the reverse —
// replaces that part whole (s's keys of it are dropped, never mixed in) and
// keeps the other part. A key of the table that does not belong to its part's
// form (intercept beside pieces, sigma under noise = "hetero") is an error
// naming the key, relative to the table ("host.n1.sigma: ...").
//
// Override neither builds nor validates the result (Set does) and does not
// modify s: its slices and host map are shared with the result, read-only.
func (s Spec) Override(over Spec, given map[string]any) (Spec, error) {
	out, err := s.overrideEntry(over, given)
	if err != nil {
		return Spec{}, err
	}
	out.Host = s.Host
	hosts, _ := given["host"].(map[string]any)
	if len(hosts) == 0 {
		return out, nil
	}
	out.Host = make(map[string]Spec, len(s.Host)+len(hosts))
	for h, hs := range s.Host {
		out.Host[h] = hs
	}
	for _, h := range sortedKeys(hosts) {
		table, _ := hosts[h].(map[string]any)
		entry, err := s.Host[h].overrideEntry(over.Host[h], table)
		if err != nil {
			var se *specError
			if errors.As(err, &se) {
				return Spec{}, bad("host."+h+"."+se.key, "%s", se.msg)
			}
			return Spec{}, err
		}
		out.Host[h] = entry
	}
	return out, nil
}

// Keys of a model's two parts, by form.
var (
	polyKeys  = []string{"terms", "coef", "intercept"}
	pieceKeys = []string{"breaks_on", "piece"}
	// noiseKeys are the keys each noise family takes, beside noise itself.
	noiseKeys = map[string][]string{
		NoiseNone:       nil,
		NoiseGaussian:   {"sigma"},
		NoiseHetero:     {"sigma_terms", "sigma_coef", "sigma_intercept"},
		NoiseHalfNormal: {"sigma", "sigma_terms", "sigma_coef", "sigma_intercept"},
		NoiseMixture:    {"mixture"},
	}
	sigmaDimsKeys = []string{"sigma_terms", "sigma_coef", "sigma_intercept"}
)

// overrideEntry is Override for one table, a host's or the platform-wide
// one, without its host tables.
func (s Spec) overrideEntry(over Spec, given map[string]any) (Spec, error) {
	has := func(keys ...string) bool {
		for _, k := range keys {
			if _, ok := given[k]; ok {
				return true
			}
		}
		return false
	}
	out := s

	// The mean: the table's piece makes it piecewise, its terms a polynomial.
	// An empty piece list would make it neither, a mean of 0 s a call.
	if has("piece") && len(over.Pieces) == 0 {
		return Spec{}, bad("piece", "an empty list, which would make every call cost 0 s; give [[piece]] tables (with breaks_on), or terms for a polynomial")
	}
	wasPieces := len(s.Pieces) > 0 || s.BreaksOn != ""
	pieces := wasPieces
	switch {
	case has("piece"):
		pieces = true
	case has("terms"):
		pieces = false
	}
	if pieces != wasPieces {
		out.Terms, out.Coef, out.Intercept, out.BreaksOn, out.Pieces = nil, nil, 0, "", nil
	}
	for _, k := range polyKeys {
		if pieces && has(k) {
			return Spec{}, bad(k, "the model's mean is piecewise (breaks_on and [[piece]]), which takes terms, coef and intercept in each piece; give terms too to make it a polynomial")
		}
	}
	if !pieces && has("breaks_on") {
		return Spec{}, bad("breaks_on", "the model's mean is a polynomial (terms, coef, intercept); give piece too to make it piecewise")
	}
	if has("terms") {
		out.Terms = over.Terms
	}
	if has("coef") {
		out.Coef = over.Coef
	}
	if has("intercept") {
		out.Intercept = over.Intercept
	}
	if has("breaks_on") {
		out.BreaksOn = over.BreaksOn
	}
	if has("piece") {
		out.Pieces = over.Pieces
	}

	// The noise: the table's noise of another family replaces s's.
	family := noiseFamily(s.Noise)
	if has("noise") && noiseFamily(over.Noise) != family {
		family = noiseFamily(over.Noise)
		out.Noise, out.Sigma, out.SigmaTerms, out.SigmaCoef, out.SigmaIntercept, out.Mixture = over.Noise, 0, nil, nil, 0, nil
	} else if has("noise") {
		out.Noise = over.Noise
	}
	if family == NoiseHalfNormal {
		// σ constant or σ(dims): the one the table gives replaces the other.
		switch {
		case has("sigma") && !has(sigmaDimsKeys...):
			out.SigmaTerms, out.SigmaCoef, out.SigmaIntercept = nil, nil, 0
		case has(sigmaDimsKeys...) && !has("sigma"):
			out.Sigma = 0
		}
	}
	if takes, known := noiseKeys[family]; known {
		for _, k := range []string{"sigma", "sigma_terms", "sigma_coef", "sigma_intercept", "mixture"} {
			if has(k) && !slices.Contains(takes, k) {
				return Spec{}, noiseKeyError(k, family, takes)
			}
		}
	} // an unknown family is Build's error, at noise
	if has("sigma") {
		out.Sigma = over.Sigma
	}
	if has("sigma_terms") {
		out.SigmaTerms = over.SigmaTerms
	}
	if has("sigma_coef") {
		out.SigmaCoef = over.SigmaCoef
	}
	if has("sigma_intercept") {
		out.SigmaIntercept = over.SigmaIntercept
	}
	if has("mixture") {
		out.Mixture = over.Mixture
	}
	if has("host") {
		out.Host = over.Host // in a host's table, Set refuses it; Override merges the platform-wide one's
	}
	return out, nil
}

// noiseFamily is a noise name with "" read as "none".
func noiseFamily(noise string) string {
	if noise == "" {
		return NoiseNone
	}
	return noise
}

func noiseKeyError(key, family string, takes []string) error {
	if len(takes) == 0 {
		return bad(key, "the model has no noise (noise = %q); give noise too to set one", family)
	}
	return bad(key, "not a key of noise = %q, which takes %s; give noise too to change the family", family, strings.Join(takes, ", "))
}
