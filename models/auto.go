package models

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
)

// autoCVSlack: family "auto" first drops every candidate whose
// cross-validated RMSE is more than this fraction above the best one's (a
// mean structure that predicts unseen calls clearly worse), then takes the
// lowest BIC among the rest (BIC is consistent: with enough samples it picks
// the generating family, and it pays for every extra term, piece and mode).
const autoCVSlack = 0.10

// auto fits every family that makes sense for the data and picks one.
func (fc *fitContext) auto(data []Sample) (fitResult, error) {
	means := []MeanKind{M0, M1, M2, Mp}
	// Exact data (no noise up to rounding): the simplest exact mean, N0.
	yRMS := rms(durations(data))
	for _, mk := range means {
		_, m, err := fc.fitMean(mk, data, nil)
		if err != nil {
			continue
		}
		if rms(residuals(data, m)) <= exactRel*yRMS {
			res, err := fc.fit(data, mk, N0)
			if err != nil {
				return res, err
			}
			if res.q.Params >= len(data) {
				continue // exact only because it has a parameter per sample
			}
			res.q.CVRMSE, err = fc.crossValidate(data, mk, N0)
			return res, err
		}
	}
	var cands []fitResult
	for _, mk := range means {
		if mk == M2 && slices.Equal(fc.poly, []term{fc.product}) {
			continue // M2 is M1 for this kernel
		}
		for _, nk := range []NoiseKind{N1, N2, Nmix} {
			if nk == N2 && len(fc.sigma) == 0 {
				continue
			}
			res, err := fc.fit(data, mk, nk)
			if err != nil {
				continue
			}
			if mk == Mp && res.pieces < 2 || nk == Nmix && !res.sepd {
				continue // one piece is M1; one mode, or overlapping ones, is not multi-modal
			}
			if res.q.Params >= len(data) {
				continue // as many parameters as samples: it interpolates, it tells nothing
			}
			if res.q.CVRMSE, err = fc.crossValidate(data, mk, nk); err != nil {
				continue // e.g. too few samples for pieces
			}
			cands = append(cands, res)
		}
	}
	if len(cands) == 0 {
		return fitResult{}, errors.New("no family could be fitted")
	}
	bestCV := math.Inf(1)
	for _, c := range cands {
		bestCV = math.Min(bestCV, c.q.CVRMSE)
	}
	best := -1
	for i, c := range cands {
		if c.q.CVRMSE > (1+autoCVSlack)*bestCV {
			continue
		}
		if best < 0 || c.q.BIC < cands[best].q.BIC {
			best = i
		}
	}
	return cands[best], nil
}

// crossValidate is the k-fold cross-validated RMSE of the mean of family
// (kind, noise), seconds: N2's mean is refitted with 1/σ² weights as fit
// does, the others' is the least-squares one (Nmix's relative refit is left
// out: it would rerun EM per fold). Folds are a permutation seeded by
// FitOptions.Seed.
func (fc *fitContext) crossValidate(data []Sample, kind MeanKind, noise NoiseKind) (float64, error) {
	n := len(data)
	folds := min(fc.opts.Folds, n)
	perm := rand.New(rand.NewPCG(fc.opts.Seed, 0x6376)).Perm(n) // "cv"
	var sse float64
	train := make([]Sample, 0, n)
	for f := range folds {
		train = train[:0]
		for i, j := range perm {
			if i%folds != f {
				train = append(train, data[j])
			}
		}
		var m *model
		if noise == N2 {
			res, err := fc.fit(train, kind, noise)
			if err != nil {
				return 0, err
			}
			m = res.model
		} else {
			var err error
			if _, m, err = fc.fitMean(kind, train, nil); err != nil {
				return 0, err
			}
		}
		for i, j := range perm {
			if i%folds == f {
				r := data[j].Seconds - m.Mean(data[j].Vars)
				sse += r * r
			}
		}
	}
	return math.Sqrt(sse / float64(n)), nil
}
