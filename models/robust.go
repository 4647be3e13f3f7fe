package models

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Loss is how Fit estimates a mean part.
type Loss uint8

const (
	// LossRobust (the default) fits every mean by iteratively reweighted
	// least squares on the relative residual (y − ŷ)/ŷ, weighted by
	// duration (see below): a call hundreds of times slower than its
	// neighbours gets weight 0 and is counted as an outlier, the fit keeps
	// the other calls' total time, and intercepts are kept between 0 and
	// what the smallest calls measure.
	LossRobust Loss = iota
	// LossSquares is plain least squares on absolute residuals (every
	// sample counts, the largest calls most), as emu fitted before issue 10.
	LossSquares
)

// String is the loss's name as ParseLoss reads it.
func (l Loss) String() string {
	if l == LossSquares {
		return "squares"
	}
	return "robust"
}

// ParseLoss reads "robust" or "squares" (also "ls").
func ParseLoss(s string) (Loss, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "robust", "":
		return LossRobust, nil
	case "squares", "ls", "least-squares":
		return LossSquares, nil
	}
	return 0, fmt.Errorf("unknown loss %q: want robust or squares", s)
}

// Robust fitting: IRLS on the relative residuals r = (y − ŷ)/ŷ, each
// standardised as u = r/s, where s is the spread of the relative residuals
// of calls of similar duration (MADs over blocks of the samples sorted by
// the first fit's prediction): the relative noise of a 1 µs call and of a
// 1 s call differ by orders of magnitude. Each round solves weighted least
// squares with weights h/ŷ: a call's squared relative error counts in
// proportion to its duration, Σ h·ŷ·r² = Σ h·(y − ŷ)²/ŷ (the quasi-Poisson
// deviance). h is Huber's ψ(u)/u in the first rounds, which find where the
// bulk of the calls lies; then 1 for every call and 0 for an outlier: a
// call beyond Tukey's bisquare cut-off (|u| ≥ bisquareC) that is also
// grossly off, more than robustGross times slower or faster than its
// prediction. Both conditions are needed: the noise of calls of one
// duration is not one Gaussian (a flat dgemm is far steadier than a cubic
// one of the same time), so |u| alone would reject honest samples, and
// |ln(y/ŷ)| alone would reject the noise of tiny calls.
//
// Two properties follow. A big call's noise cannot buy an intercept that
// small calls do not show: a 2.5 ms intercept on 2 µs calls costs
// (2.5 ms)²/2 µs each. And for a mean linear in its coefficients the normal
// equations sum, coefficient by coefficient, to Σ (y − ŷ) = 0 over the
// inliers: the fit reproduces the inliers' total time, what a prediction
// sums, even where the mean cannot follow every size, and it estimates the
// mean duration, slow calls included, not a typical one (interference that
// slows calibration calls slows the run's too). Weights 1/ŷ² (every call's
// relative error alike) did not: on this machine's dgemm samples their Mp
// fit read the largest fifth of the calls 7% low and HPL 6-8% low
// (TestCalibrationPredictsTimedHPL); Huber's weights to the end missed
// the total by 1% (TestRobustFitKeepsTotal's data, M1).
const (
	huberK    = 1.345 // Huber's tuning constant: 95% efficiency under Gaussian noise
	bisquareC = 4.685 // Tukey's bisquare cut-off (95% efficiency): no weight beyond it
	// robustGross is the factor (either way) between a call's time and its
	// prediction beyond which, with |u| ≥ bisquareC, it is an outlier.
	robustGross = 2.0
	// madToSigma turns a median absolute residual into σ for Gaussian
	// noise: 1/Φ⁻¹(3/4).
	madToSigma = 1.4826
	// robustHuberRounds are the first rounds, weighted by Huber's ψ(u)/u,
	// which find where the bulk of the calls lies before outliers are
	// judged against it; the later rounds weigh every inlier alike.
	robustHuberRounds = 2
	// robustMaxRounds bounds the IRLS rounds; robustTol (relative change
	// of any prediction between rounds) ends them earlier.
	robustMaxRounds = 12
	robustTol       = 1e-7
	// robustScaleFloor is the smallest relative scale s: no timer measures
	// a kernel call to a part in a million, and exact synthetic data must
	// not turn rounding residuals into outliers.
	robustScaleFloor = 1e-6
	// A scale block holds at least robustBlockMin samples (a MAD of fewer
	// is itself noise); there are at most robustBlocks blocks.
	robustBlockMin = 30
	robustBlocks   = 50
	// robustMaxOutliers is the largest share of the samples a fit may
	// reject (the farthest first): more calls that far off are structure
	// the mean has not captured yet (a piece, a mode) or noise, and most of
	// them must stay for the fit to see it.
	robustMaxOutliers = 0.05
)

// huberWeight is ψ(u)/u for Huber's loss.
func huberWeight(u float64) float64 {
	if a := math.Abs(u); a > huberK {
		return huberK / a
	}
	return 1
}

// isOutlier says whether a call measured y where its prediction is c, its
// standardised relative residual u, is an outlier.
func isOutlier(y, c, u float64) bool {
	return math.Abs(u) >= bisquareC && (y > robustGross*c || y*robustGross < c)
}

// outliers flags the samples that isOutlier rejects given predictions c,
// relative residuals r and scales s; when more than robustMaxOutliers of
// them qualify, only that many, the farthest (largest |u|), are flagged.
func outliers(data []Sample, c, r, s []float64) []bool {
	out := make([]bool, len(data))
	var cand []int
	// A call measured at 0 s among calls that took time is no structure
	// the mean missed: it is out, whatever the share of such calls.
	zeroOut := durationFloor(data) > math.SmallestNonzeroFloat64
	for i := range out {
		if zeroOut && data[i].Seconds <= 0 {
			out[i] = true
			continue
		}
		if isOutlier(data[i].Seconds, c[i], r[i]/s[i]) {
			cand = append(cand, i)
		}
	}
	allowed := int(robustMaxOutliers * float64(len(data)))
	if len(data) >= FewSamples {
		allowed = max(allowed, 1) // one bad call in ten is still one bad call
	}
	if len(cand) > allowed {
		u := func(i int) float64 { return math.Abs(r[i] / s[i]) }
		sort.SliceStable(cand, func(a, b int) bool { return u(cand[a]) > u(cand[b]) })
		cand = cand[:allowed]
	}
	for _, i := range cand {
		out[i] = true
	}
	return out
}

// sizeOrder sorts sample indices by the product term (by duration for a
// kernel without one).
func (fc *fitContext) sizeOrder(data []Sample) []int {
	key := make([]float64, len(data))
	for i := range data {
		if fc.product.degree() > 0 {
			key[i] = fc.product.eval(&data[i].Vars)
		} else {
			key[i] = data[i].Seconds
		}
	}
	return orderBy(key)
}

// orderBy returns the indices of key in increasing order of key (ties in
// index order): the neighbourhoods localScale takes its MADs over.
func orderBy(key []float64) []int {
	order := make([]int, len(key))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return key[order[a]] < key[order[b]] })
	return order
}

// localScale sets scale[i], the spread of sample i's relative residual
// r[i] = (y − c)/c. Blocks of consecutive samples in order (by prediction c)
// each give their spread of absolute residuals, madToSigma times their
// median absolute value (about 0, not the block's median: where the mean
// cannot follow the data, the misfit is part of what a call may deviate by
// before it counts as an outlier); σ(c) = a + b·c with a, b ≥ 0 is fitted
// through those points, on relative errors, and scale[i] = σ(c_i)/c_i,
// floored at robustScaleFloor. The line covers the usual shapes of timing
// noise, timer jitter (a) and noise proportional to the work (b), and their
// sum, where one block of the largest calls spans a wide range of
// durations. With one block, the spread is relative: b alone.
func localScale(r, c []float64, order []int, scale []float64) {
	n := len(order)
	nb := max(1, min(robustBlocks, n/robustBlockMin))
	buf := make([]float64, 0, n/nb+1)
	cs, ss := make([]float64, nb), make([]float64, nb)
	for b := range nb {
		lo, hi := b*n/nb, (b+1)*n/nb
		buf = buf[:0]
		for _, i := range order[lo:hi] {
			buf = append(buf, math.Abs(r[i]*c[i]))
		}
		ss[b] = madToSigma * median(buf)
		cs[b] = c[order[(lo+hi)/2]] // order is by (the start's) prediction
	}
	a, k := spreadLine(cs, ss)
	for i := range scale {
		scale[i] = math.Max((a+k*c[i])/c[i], robustScaleFloor)
	}
}

// spreadLine fits σ = a + b·c, a, b ≥ 0, to the points (c_j, σ_j) by least
// squares on relative errors (weights 1/σ_j²; points with σ_j = 0 left out).
func spreadLine(c, sigma []float64) (a, b float64) {
	var s0, sc, scc, ss, scs float64 // Σw, Σwc, Σwc², Σwσ, Σwcσ
	for j := range c {
		if sigma[j] <= 0 || c[j] <= 0 {
			continue
		}
		w := 1 / (sigma[j] * sigma[j])
		s0, sc, scc = s0+w, sc+w*c[j], scc+w*c[j]*c[j]
		ss, scs = ss+w*sigma[j], scs+w*c[j]*sigma[j]
	}
	if s0 == 0 {
		return 0, 0
	}
	if len(c) > 1 {
		if det := s0*scc - sc*sc; det > constantTTol*s0*scc {
			a, b = (scc*ss-sc*scs)/det, (s0*scs-sc*ss)/det
			if a >= 0 && b >= 0 {
				return a, b
			}
		}
	}
	// One side of the constraint binds (or one point): the better of a
	// pure proportion and a constant.
	bOnly, aOnly := scs/scc, ss/s0
	if len(c) == 1 {
		return 0, bOnly
	}
	eb, ea := 0.0, 0.0
	for j := range c {
		if sigma[j] <= 0 || c[j] <= 0 {
			continue
		}
		db, da := (sigma[j]-bOnly*c[j])/sigma[j], (sigma[j]-aOnly)/sigma[j]
		eb, ea = eb+db*db, ea+da*da
	}
	if eb <= ea {
		return 0, bOnly
	}
	return aOnly, 0
}

// median sorts x and returns its median (x not empty).
func median(x []float64) float64 {
	slices.Sort(x)
	m := x[len(x)/2]
	if len(x)%2 == 0 {
		m = (x[len(x)/2-1] + m) / 2
	}
	return m
}

// relResiduals fills r with (y − ŷ)/ŷ and c with ŷ, floored at a tiny
// fraction of the largest duration so a zero prediction stays finite.
func relResiduals(data []Sample, m *model, r, c []float64) {
	top := 0.0
	for i := range data {
		top = math.Max(top, data[i].Seconds)
	}
	floor := math.Max(top*1e-9, math.SmallestNonzeroFloat64)
	for i := range data {
		c[i] = math.Max(m.Mean(data[i].Vars), floor)
		r[i] = (data[i].Seconds - c[i]) / c[i]
	}
}

// robustFlags marks the outliers of samples against m, a mean fitted
// without IRLS (the rate).
func (fc *fitContext) robustFlags(data []Sample, m *model) []bool {
	n := len(data)
	r, c, s := make([]float64, n), make([]float64, n), make([]float64, n)
	relResiduals(data, m, r, c)
	localScale(r, c, orderBy(c), s)
	return outliers(data, c, r, s)
}

// meanFit fits the mean part of kind as FitOptions.Loss says, with the
// samples it rejects as outliers (nil: none).
func (fc *fitContext) meanFit(kind MeanKind, data []Sample) (Spec, *model, []bool, error) {
	sp, m, out, _, err := fc.meanFitWeights(kind, data)
	return sp, m, out, err
}

// robustWeights are the least-squares weights of a robust fit's last round
// (w for the mean, segw for Mp's cuts); nil under LossSquares and for Mr.
type robustWeights struct{ w, segw []float64 }

// meanFitWeights is meanFit that also returns the robust fit's last
// weights, which cross-validation refits each fold's mean with.
func (fc *fitContext) meanFitWeights(kind MeanKind, data []Sample) (Spec, *model, []bool, robustWeights, error) {
	if kind == Mr {
		sp, m, err := fc.fitRate(data)
		if err != nil || fc.opts.Loss == LossSquares {
			return sp, m, nil, robustWeights{}, err
		}
		return sp, m, fc.robustFlags(data, m), robustWeights{}, nil
	}
	if fc.opts.Loss == LossSquares {
		sp, m, err := fc.fitMean(kind, data, nil)
		return sp, m, nil, robustWeights{}, err
	}
	return fc.fitRobust(kind, data)
}

// fitRobust is the IRLS described above. It starts from least squares on
// errors relative to the measured durations (weights 1/y²), which a call
// measured far too slow hardly moves; Huber's loss is convex, so its rounds
// converge from there.
func (fc *fitContext) fitRobust(kind MeanKind, data []Sample) (Spec, *model, []bool, robustWeights, error) {
	n := len(data)
	w := make([]float64, n)
	eps := durationFloor(data)
	for i := range data {
		d := math.Max(data[i].Seconds, eps)
		w[i] = 1 / (d * d)
		if data[i].Seconds <= 0 && eps > math.SmallestNonzeroFloat64 {
			// A call measured at 0 s says nothing of the mean: it starts
			// outside the fit, and the rounds below judge it.
			w[i] = 0
		}
	}
	sp, m, err := fc.fitMean(kind, data, w)
	if err != nil {
		return sp, m, nil, robustWeights{}, err
	}
	r, c, s := make([]float64, n), make([]float64, n), make([]float64, n)
	prev := make([]float64, n)
	relResiduals(data, m, r, c)
	order := orderBy(c) // neighbourhoods by the start's prediction, kept
	segw := make([]float64, n)
	for round := range robustMaxRounds {
		localScale(r, c, order, s)
		out := outliers(data, c, r, s)
		for i := range w {
			h := 1.0
			if round < robustHuberRounds {
				h = huberWeight(r[i] / s[i])
			}
			w[i], segw[i] = h/c[i], 0
			if out[i] {
				w[i] = 0
			} else {
				d := math.Max(data[i].Seconds, eps)
				segw[i] = 1 / (d * d)
			}
		}
		sp2, m2, err := fc.fitMeanSeg(kind, data, w, segw)
		if err != nil {
			return sp, m, nil, robustWeights{}, err
		}
		sp, m = sp2, m2
		copy(prev, c)
		relResiduals(data, m, r, c)
		change := 0.0
		for i := range c {
			change = math.Max(change, math.Abs(c[i]-prev[i])/prev[i])
		}
		if round >= robustHuberRounds && change < robustTol {
			break
		}
	}
	localScale(r, c, order, s)
	return sp, m, outliers(data, c, r, s), robustWeights{w, segw}, nil
}

// fitRate is the baseline every other mean must beat: seconds = rate ×
// the product term, the rate the median of seconds/product over the samples
// (a constant, the median duration, for a kernel without a product term).
func (fc *fitContext) fitRate(data []Sample) (Spec, *model, error) {
	ratios := make([]float64, 0, len(data))
	for i := range data {
		if p := fc.product.eval(&data[i].Vars); p > 0 {
			ratios = append(ratios, data[i].Seconds/p)
		}
	}
	if len(ratios) == 0 {
		return Spec{}, nil, errNoData
	}
	rate := median(ratios)
	var sp Spec
	if fc.product.degree() == 0 {
		sp.Intercept = rate
	} else {
		sp.Terms, sp.Coef = []string{fc.product.String()}, []float64{rate}
	}
	m, err := sp.build()
	if err != nil {
		return sp, nil, fmt.Errorf("internal: rate model does not build: %w", err)
	}
	return sp, m, nil
}

// countTrue counts the set flags.
func countTrue(b []bool) int {
	k := 0
	for _, x := range b {
		if x {
			k++
		}
	}
	return k
}

// contaminationLogPDF is the log-density (1/s) that outliers are charged in
// a family's likelihood: uniform over [0, the longest duration]. Every
// family pays it for the samples it rejects, so information criteria stay
// comparable and a noise part cannot win on outliers it fits a mode to.
func contaminationLogPDF(data []Sample) float64 {
	top := 0.0
	for i := range data {
		top = math.Max(top, data[i].Seconds)
	}
	if top <= 0 {
		return 0
	}
	return -math.Log(top)
}

// durationFloor is the smallest duration a relative weight 1/y² is taken
// at: the shortest call measured above 0 s. A call measured at 0 s (a
// clock coarser than the call, a row written by hand) then weighs as the
// shortest call does, and the robust fit finds it 100% off its neighbours,
// an outlier; floored at 10⁻⁹ of the longest call as before, one such call
// in 40 weighed 10¹⁸ times a 1 s call, pulled the start's fit to itself and
// was never flagged (TestRobustFitIgnoresZeroDurations). Samples above 0 s
// are weighted as they were.
func durationFloor(data []Sample) float64 {
	low := math.Inf(1)
	for i := range data {
		if d := data[i].Seconds; d > 0 && d < low {
			low = d
		}
	}
	if math.IsInf(low, 1) {
		return math.SmallestNonzeroFloat64
	}
	return low
}
