package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// EM settings for the Gaussian mixture of N′ (Nmix).
const (
	emMaxIter  = 300
	emTol      = 1e-7 // stop when the log-likelihood gains less than emTol·n
	emRestarts = 2    // seeded random starts besides the quantile start
	// emSDFloor bounds a mode's σ below, relative to the data's σ, so a mode
	// cannot collapse onto one repeated value and claim infinite likelihood.
	emSDFloor = 1e-4
	// modeSeparation is Ashman's D above which two adjacent modes count as
	// distinct peaks; below it a "mixture" is one heavy-tailed mode, which
	// N2 describes better.
	modeSeparation = 2
	// emMaxPoints bounds the ratios the number of modes is chosen on; the
	// chosen mixture is then refined by EM on all of them. Choosing among
	// 1..4 modes with restarts on 100,000 points would dominate a fit.
	emMaxPoints = 2000
	// emDeadMode is the total responsibility (observations) below which a
	// mode has lost all its points: its mean and σ are left as they were
	// rather than divided by almost nothing, and its weight (a share of
	// the data) is pinned at emDeadWeight, not 0, so log w stays finite.
	emDeadMode   = 1e-12
	emDeadWeight = 1e-12
	// mixtureMinWeight is the smallest share of the samples a mode must
	// hold: fewer are outliers (six calls in 2,400 timed 300× too slow), not
	// a way the kernel behaves, and are left out of the noise part.
	mixtureMinWeight = 0.01
	// mixtureMinMembers is the fewest samples a mode must hold, whatever
	// their share: one call in twelve is no mode either.
	mixtureMinMembers = 10
)

// gmm is a one-dimensional Gaussian mixture.
type gmm struct {
	w, mu, sd []float64
	logLik    float64
}

// fitMixture fits the noise as a mixture over the ratio y/center, so a mode
// "10× slower" is one mode at every size; the number of modes is chosen by
// BIC. The mean is rescaled so that the heaviest mode sits on the center.
func (fc *fitContext) fitMixture(data []Sample, m *model, sp *Spec) (noiseFit, error) {
	ratios := make([]float64, 0, len(data))
	centers := make([]float64, 0, len(data))
	idx := make([]int, 0, len(data)) // the sample of each ratio
	for i := range data {
		if c := m.Mean(data[i].Vars); c > 0 {
			ratios = append(ratios, data[i].Seconds/c)
			centers = append(centers, c)
			idx = append(idx, i)
		}
	}
	if len(ratios) < minSamples || len(ratios) < len(data)/2 {
		return noiseFit{}, fmt.Errorf("mixture noise needs positive predicted durations; %d of %d samples have them", len(ratios), len(data))
	}
	rng := rand.New(rand.NewPCG(fc.opts.Seed, 0x6d6978)) // "mix"
	sub := ratios
	if len(ratios) > emMaxPoints {
		sub = make([]float64, emMaxPoints)
		for i, j := range rng.Perm(len(ratios))[:emMaxPoints] {
			sub[i] = ratios[j]
		}
	}
	n := float64(len(sub))
	var best gmm
	bestBIC := math.Inf(1)
	for k := 1; k <= fc.opts.MaxModes && k <= len(sub)/minSamples; k++ {
		g := fitGMM(sub, k, rng)
		bic := float64(3*k-1)*math.Log(n) - 2*g.logLik
		if bic >= bestBIC {
			break // one more mode no longer pays for itself
		}
		best, bestBIC = g, bic
	}
	if len(best.w) == 0 {
		return noiseFit{}, fmt.Errorf("mixture: no mode has a finite likelihood")
	}
	_, sdAll := stat.MeanStdDev(ratios, nil)
	floor := math.Max(emSDFloor*sdAll, 1e-300)
	if len(sub) < len(ratios) {
		em(ratios, &best, floor)
	}
	var outliers []bool
	if g, out, ok := dropSmallModes(ratios, best); ok {
		// The members of modes too small to be modes are outliers: the
		// kept modes are refitted without them.
		outliers = make([]bool, len(data))
		kr, kc := ratios[:0:0], centers[:0:0]
		for j, o := range out {
			if o {
				outliers[idx[j]] = true
			} else {
				kr, kc = append(kr, ratios[j]), append(kc, centers[j])
			}
		}
		em(kr, &g, floor)
		best, ratios, centers = g, kr, kc
	}
	main := 0
	for j := range best.w {
		if best.w[j] > best.w[main] {
			main = j
		}
	}
	s := best.mu[main]
	if s <= 0 {
		return noiseFit{}, fmt.Errorf("mixture: main mode at ratio %g", s)
	}
	scaleMean(sp, s)
	order := make([]int, len(best.w))
	for j := range order {
		order[j] = j
	}
	sort.Slice(order, func(a, b int) bool { return best.mu[order[a]] < best.mu[order[b]] })
	nz := noiseFit{kind: Nmix, params: 3*len(best.w) - 1, modes: len(best.w), separated: len(best.w) > 1, outliers: outliers}
	for i, j := range order {
		nz.mixture = append(nz.mixture, Component{Weight: best.w[j], MeanScale: best.mu[j] / s, SigmaScale: best.sd[j] / s})
		if i > 0 {
			a := order[i-1]
			d := math.Abs(best.mu[j]-best.mu[a]) / math.Sqrt((best.sd[j]*best.sd[j]+best.sd[a]*best.sd[a])/2)
			nz.separated = nz.separated && d > modeSeparation
		}
	}
	// Density of y is the density of y/c divided by c.
	nz.logLik = best.logLik
	for _, c := range centers {
		nz.logLik -= math.Log(c)
	}
	return nz, nil
}

// dropSmallModes removes the modes of g lighter than mixtureMinWeight (or
// of fewer than mixtureMinMembers samples) and
// flags the ratios whose most likely mode was one of them; ok is false when
// no mode is removed (or every mode would be).
func dropSmallModes(x []float64, g gmm) (kept gmm, out []bool, ok bool) {
	minW := math.Max(mixtureMinWeight, mixtureMinMembers/float64(len(x)))
	var keep []int
	for j, w := range g.w {
		if w >= minW {
			keep = append(keep, j)
		}
	}
	if len(keep) == len(g.w) || len(keep) == 0 {
		return g, nil, false
	}
	out = make([]bool, len(x))
	for i, xi := range x {
		bestJ, bestLP := 0, math.Inf(-1)
		for j := range g.w {
			d := (xi - g.mu[j]) / g.sd[j]
			if lp := math.Log(g.w[j]) - math.Log(g.sd[j]) - 0.5*d*d; lp > bestLP {
				bestJ, bestLP = j, lp
			}
		}
		out[i] = g.w[bestJ] < minW
	}
	total := 0.0
	for _, j := range keep {
		total += g.w[j]
	}
	for _, j := range keep {
		kept.w = append(kept.w, g.w[j]/total)
		kept.mu = append(kept.mu, g.mu[j])
		kept.sd = append(kept.sd, g.sd[j])
	}
	return kept, out, true
}

// scaleMean multiplies the mean part of sp by s.
func scaleMean(sp *Spec, s float64) {
	sp.Coef = scaled(sp.Coef, s)
	sp.Intercept *= s
	for i := range sp.Pieces {
		sp.Pieces[i].Coef = scaled(sp.Pieces[i].Coef, s)
		sp.Pieces[i].Intercept *= s
	}
}

func scaled(x []float64, s float64) []float64 {
	if x == nil {
		return nil
	}
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v * s
	}
	return out
}

// fitGMM runs EM with k modes from a quantile start and emRestarts random
// starts and keeps the most likely result.
func fitGMM(x []float64, k int, rng *rand.Rand) gmm {
	sorted := append([]float64(nil), x...)
	sort.Float64s(sorted)
	_, sdAll := stat.MeanStdDev(x, nil)
	floor := math.Max(emSDFloor*sdAll, 1e-300)
	var best gmm
	best.logLik = math.Inf(-1)
	for start := 0; start <= emRestarts; start++ {
		g := gmm{w: make([]float64, k), mu: make([]float64, k), sd: make([]float64, k)}
		for j := range k {
			g.w[j] = 1 / float64(k)
			if start == 0 { // quantile start: the centre of the j-th k-quantile
				lo, hi := j*len(sorted)/k, (j+1)*len(sorted)/k
				g.mu[j], g.sd[j] = stat.MeanStdDev(sorted[lo:hi], nil)
			} else {
				g.mu[j], g.sd[j] = x[rng.IntN(len(x))], sdAll/float64(k)
			}
			g.sd[j] = math.Max(g.sd[j], floor)
		}
		em(x, &g, floor)
		if g.logLik > best.logLik {
			best = g
		}
	}
	return best
}

// em improves g in place until the log-likelihood settles.
func em(x []float64, g *gmm, floor float64) {
	k, n := len(g.w), len(x)
	resp := make([]float64, n*k)
	logp, cst, half := make([]float64, k), make([]float64, k), make([]float64, k)
	prev := math.Inf(-1)
	for range emMaxIter {
		// E step, in logs so that far points do not underflow to 0/0.
		// log(w_j φ(x; μ_j, σ_j)) = c_j − (x − μ_j)²·h_j.
		for j := range k {
			cst[j] = math.Log(g.w[j]) - math.Log(g.sd[j]) - 0.5*math.Log(2*math.Pi)
			half[j] = 0.5 / (g.sd[j] * g.sd[j])
		}
		ll := 0.0
		for i, xi := range x {
			mx := math.Inf(-1)
			for j := range k {
				d := xi - g.mu[j]
				logp[j] = cst[j] - d*d*half[j]
				if logp[j] > mx {
					mx = logp[j]
				}
			}
			sum := 0.0
			for j := range k {
				logp[j] = math.Exp(logp[j] - mx)
				sum += logp[j]
			}
			for j := range k {
				resp[i*k+j] = logp[j] / sum
			}
			ll += mx + math.Log(sum)
		}
		g.logLik = ll
		if ll-prev < emTol*float64(n) {
			return
		}
		prev = ll
		// M step.
		for j := range k {
			var nj, s, ss float64
			for i, xi := range x {
				r := resp[i*k+j]
				nj += r
				s += r * xi
			}
			if nj < emDeadMode {
				g.w[j] = emDeadWeight
				continue
			}
			mu := s / nj
			for i, xi := range x {
				d := xi - mu
				ss += resp[i*k+j] * d * d
			}
			g.w[j], g.mu[j], g.sd[j] = nj/float64(n), mu, math.Max(math.Sqrt(ss/nj), floor)
		}
	}
}
