package models

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
)

// autoCVSlack: family "auto" keeps the candidates whose cross-validated
// error (autoScore) is at most this fraction above the best one's, or
// autoCVSlackAbs (a fraction of a call's time: half a percent, below what
// any timing resolves) above it, then takes the lowest BIC among them (BIC
// is consistent: with enough samples it picks the generating family, and it
// pays for every extra term, piece and mode).
const (
	autoCVSlack    = 0.10
	autoCVSlackAbs = 0.005
)

// auto fits every family that makes sense for the data and picks one. No
// family whose cross-validated error is worse than the rate's (Mr: seconds =
// median(seconds/product) × product) is chosen: when none beats it, the rate
// is the model.
func (fc *fitContext) auto(data []Sample) (fitResult, error) {
	means := []MeanKind{M0, M1, M2, Mp}
	// Exact data (no noise up to rounding): the simplest exact mean, N0.
	yRMS := rms(durations(data))
	for _, mk := range means {
		_, m, _, err := fc.meanFit(mk, data)
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
			return res, fc.setCV(data, &res, nil, res.out)
		}
	}
	var cands []fitResult
	for _, mk := range append(means, Mr) {
		if mk == M2 && slices.Equal(fc.poly, []term{fc.product}) {
			continue // M2 is M1 for this kernel
		}
		noises := []NoiseKind{N1, N2, Nmix}
		if mk == Mr {
			noises = []NoiseKind{N0, N1, N2}
		}
		for _, nk := range noises {
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
			cands = append(cands, res)
		}
	}
	// Held-out predictions, once per distinct mean fit.
	preds := map[cvKey][]float64{}
	var ok []fitResult
	for _, c := range cands {
		k := fc.cvKeyOf(c.mean, c.noise)
		if _, done := preds[k]; !done {
			p, err := fc.cvPredict(data, c.mean, c.noise, c.rw)
			if err != nil {
				continue // e.g. too few samples for pieces
			}
			preds[k] = p
		}
		ok = append(ok, c)
	}
	cands = ok
	if len(cands) == 0 {
		return fitResult{}, errors.New("no family could be fitted")
	}
	// The outliers every candidate is scored without: those of the mean
	// that predicts held-out calls best by median relative error (which
	// outliers do not move).
	var skip []bool
	bestMed := math.Inf(1)
	for _, c := range cands {
		if _, med, _ := cvScores(data, preds[fc.cvKeyOf(c.mean, c.noise)], nil); med < bestMed {
			bestMed, skip = med, c.meanOut
		}
	}
	score := make([]float64, len(cands))
	rate := math.Inf(1)
	for i := range cands {
		c := &cands[i]
		c.q.CVRMSE, c.q.CVRel, c.q.CVTotal = cvScores(data, preds[fc.cvKeyOf(c.mean, c.noise)], skip)
		score[i] = autoScore(c.q)
		// Cross-validation scores Nmix's mean before the mixture sets the
		// expected duration (the mixture is not refitted per fold), so the
		// model as built must also keep its own calls' total: a mixture
		// that reads a size effect as a second mode charges the mean ratio
		// of small and large calls to both, and missed a 2-rank HPL run's
		// dgemm total by 20%.
		if c.noise == Nmix {
			if e := totalError(data, c.model, skip); e > c.q.CVTotal {
				score[i] += e - c.q.CVTotal
			}
		}
		if c.mean == Mr {
			rate = math.Min(rate, score[i])
		}
	}
	best := math.Inf(1)
	for i, c := range cands {
		if score[i] <= rate || c.mean == Mr {
			best = math.Min(best, score[i])
		}
	}
	pick := -1
	for i, c := range cands {
		if score[i] > rate && c.mean != Mr || score[i] > math.Max((1+autoCVSlack)*best, best+autoCVSlackAbs) {
			continue
		}
		if pick < 0 || c.q.BIC < cands[pick].q.BIC {
			pick = i
		}
	}
	res := cands[pick]
	// Report the chosen fit's errors over its own inliers, as Fit does for
	// a family given by name.
	res.q.CVRMSE, res.q.CVRel, res.q.CVTotal = cvScores(data, preds[fc.cvKeyOf(res.mean, res.noise)], res.out)
	return res, nil
}

// totalError is |Σ Mean − Σ seconds| / Σ seconds over the samples not in
// skip, a fraction as CVTotal.
func totalError(data []Sample, m *model, skip []bool) float64 {
	var sy, sm float64
	for i, d := range data {
		if skip != nil && skip[i] {
			continue
		}
		sy += d.Seconds
		sm += m.Mean(d.Vars)
	}
	if sy <= 0 {
		return 0
	}
	return math.Abs(sm-sy) / sy
}

// autoScore is the cross-validated error auto compares families by: the
// median relative error of a held-out call plus the relative error of the
// held-out calls' total, what a run's prediction sums.
func autoScore(q Quality) float64 { return q.CVRel + q.CVTotal }

// cvKey names a distinct mean fit: the noise matters only where N2
// refits the mean with 1/σ² weights (Mr's mean is the rate whatever its
// noise).
type cvKey struct {
	mean MeanKind
	n2   bool
}

func (fc *fitContext) cvKeyOf(mean MeanKind, noise NoiseKind) cvKey {
	return cvKey{mean, noise == N2 && mean != Mr}
}

// fitCV fits one family and fills its cross-validated errors (over the
// samples it does not reject).
func (fc *fitContext) fitCV(data []Sample, mean MeanKind, noise NoiseKind) (fitResult, error) {
	res, err := fc.fit(data, mean, noise)
	if err != nil {
		return res, err
	}
	return res, fc.setCV(data, &res, nil, res.out)
}

// setCV fills res's CV errors from pred (computed when nil), skipping skip.
func (fc *fitContext) setCV(data []Sample, res *fitResult, pred []float64, skip []bool) error {
	if pred == nil {
		var err error
		if pred, err = fc.cvPredict(data, res.mean, res.noise, res.rw); err != nil {
			return err
		}
	}
	res.q.CVRMSE, res.q.CVRel, res.q.CVTotal = cvScores(data, pred, skip)
	return nil
}

// cvPredict is k-fold cross-validation: each sample's mean as predicted by
// the mean fitted without its fold. The mean is fitted as fit fits it:
// under least squares with N2's 1/σ²-weighted refit, Nmix's relative refit
// left out (it would rerun EM per fold); a robust mean is refitted on each
// fold's samples in one solve with the last weights of the fit of all
// samples, rw (which calls are outliers and how much each counts, not the
// coefficients), not by a dozen IRLS rounds per fold. Folds are a
// permutation seeded by FitOptions.Seed.
func (fc *fitContext) cvPredict(data []Sample, kind MeanKind, noise NoiseKind, rw robustWeights) ([]float64, error) {
	if fc.opts.Loss == LossRobust && kind != Mr && rw.w == nil {
		var err error
		if _, _, _, rw, err = fc.fitRobust(kind, data); err != nil {
			return nil, err
		}
	}
	n := len(data)
	folds := min(fc.opts.Folds, n)
	perm := rand.New(rand.NewPCG(fc.opts.Seed, 0x6376)).Perm(n) // "cv"
	pred := make([]float64, n)
	train := make([]Sample, 0, n)
	var tw, tsegw []float64
	for f := range folds {
		train, tw, tsegw = train[:0], tw[:0], tsegw[:0]
		for i, j := range perm {
			if i%folds != f {
				train = append(train, data[j])
				if rw.w != nil {
					tw, tsegw = append(tw, rw.w[j]), append(tsegw, rw.segw[j])
				}
			}
		}
		var m *model
		if rw.w != nil {
			var err error
			if _, m, err = fc.fitMeanSeg(kind, train, tw, tsegw); err != nil {
				return nil, err
			}
		} else if fc.cvKeyOf(kind, noise).n2 {
			res, err := fc.fit(train, kind, noise)
			if err != nil {
				return nil, err
			}
			m = res.model
		} else {
			var err error
			if _, m, _, err = fc.meanFit(kind, train); err != nil {
				return nil, err
			}
		}
		for i, j := range perm {
			if i%folds == f {
				pred[j] = m.Mean(data[j].Vars)
			}
		}
	}
	return pred, nil
}

// cvScores turns held-out predictions into the RMSE (s), the median of
// |pred/y − 1| (samples of positive duration) and |Σ pred / Σ y − 1|, all
// over the samples not skipped.
func cvScores(data []Sample, pred []float64, skip []bool) (rmse, medRel, total float64) {
	var sse, sy, sp float64
	var rel []float64
	k := 0
	for i := range data {
		if skip != nil && skip[i] {
			continue
		}
		y := data[i].Seconds
		r := y - pred[i]
		sse += r * r
		sy += y
		sp += pred[i]
		k++
		if y > 0 {
			rel = append(rel, math.Abs(pred[i]/y-1))
		}
	}
	if k == 0 {
		return 0, 0, 0
	}
	rmse = math.Sqrt(sse / float64(k))
	if len(rel) > 0 {
		slices.Sort(rel)
		medRel = rel[len(rel)/2]
		if len(rel)%2 == 0 {
			medRel = (rel[len(rel)/2-1] + medRel) / 2
		}
	}
	if sy > 0 {
		total = math.Abs(sp/sy - 1)
	}
	return rmse, medRel, total
}
