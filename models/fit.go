package models

import (
	"fmt"
	"math"
	"strings"
)

// Sample is one measured kernel call.
type Sample struct {
	Host    string
	Vars    Vars
	Seconds float64 // measured duration
}

// MeanKind is the mean part of a family.
type MeanKind uint8

const (
	M0 MeanKind = iota // constant
	M1                 // one product term + intercept
	M2                 // the kernel's full polynomial
	Mp                 // piecewise M1 over ranges of one variable (the study's M′)
	// Mr is the rate: T = r·S with r the median of T/S over the samples (S
	// the product term), no intercept — the baseline auto's choice must beat.
	Mr
)

// NoiseKind is the noise part of a family.
type NoiseKind uint8

const (
	N0   NoiseKind = iota // none
	N1                    // Gaussian, constant σ
	N2                    // Gaussian, σ a polynomial of the dimensions
	Nmix                  // Gaussian mixture (the study's N′)
)

var meanNames = [...]string{"M0", "M1", "M2", "Mp", "Mr"}
var noiseNames = [...]string{"N0", "N1", "N2", "Nmix"}

// Family is a model family such as M2-N2. Auto asks Fit to choose; PerHost
// (the study's Mh, written "Mh2-N2") fits every host with enough samples on
// its own, with the platform-wide fit as fallback.
type Family struct {
	Mean    MeanKind
	Noise   NoiseKind
	Auto    bool
	PerHost bool
}

// String is the family's name as ParseFamily reads it.
func (f Family) String() string {
	if f.Auto {
		if f.PerHost {
			return "auto-per-host"
		}
		return "auto"
	}
	m := meanNames[f.Mean]
	if f.PerHost {
		m = "Mh" + m[1:]
	}
	return m + "-" + noiseNames[f.Noise]
}

// FamilyCodes says what the letters of a family's name mean: a user who
// asks for "linear" or "piecewise" (the words the guides use) learns the code.
const FamilyCodes = "means: M0 constant, M1 linear in the kernel's product term, M2 polynomial, " +
	"Mp piecewise, Mr rate, Mh1/Mh2 per host; noises: N0 none, N1 Gaussian, N2 Gaussian with σ growing with the call, Nmix mixture"

// ParseFamily reads "auto", "auto-per-host", "M1-N0", "M2-N2", "Mp-N1",
// "M2-Nmix", "Mh2-N2" (per host), "Mr-N0" (the rate; also "rate"), ...
// (case-insensitive; "N'" is accepted for Nmix, "M'" for Mp).
func ParseFamily(s string) (Family, error) {
	in := strings.ToLower(strings.TrimSpace(s))
	switch in {
	case "auto":
		return Family{Auto: true}, nil
	case "auto-per-host", "mh-auto":
		return Family{Auto: true, PerHost: true}, nil
	case "rate":
		return Family{Mean: Mr}, nil
	}
	mean, noise, ok := strings.Cut(in, "-")
	origMean, origNoise, _ := strings.Cut(strings.TrimSpace(s), "-") // as written, for errors
	if !ok {
		return Family{}, fmt.Errorf("unknown family %q: want auto, rate or MEAN-NOISE such as M1-N1 (%s)", s, FamilyCodes)
	}
	var f Family
	if strings.HasPrefix(mean, "mh") {
		f.PerHost = true
		mean = "m" + mean[2:]
	}
	switch mean {
	case "m0":
		f.Mean = M0
	case "m1":
		f.Mean = M1
	case "m2":
		f.Mean = M2
	case "mp", "m'", "mp1":
		f.Mean = Mp
	case "mr":
		f.Mean = Mr
	default:
		return Family{}, fmt.Errorf("unknown mean part %q in family %q (%s)", origMean, s, FamilyCodes)
	}
	switch noise {
	case "n0":
		f.Noise = N0
	case "n1":
		f.Noise = N1
	case "n2":
		f.Noise = N2
	case "nmix", "n'":
		f.Noise = Nmix
	default:
		return Family{}, fmt.Errorf("unknown noise part %q in family %q (%s)", origNoise, s, FamilyCodes)
	}
	return f, nil
}

// FitOptions tune Fit; the zero value gives the defaults noted.
type FitOptions struct {
	Seed      uint64   // seeds CV folds and EM restarts; same seed, same fit
	Folds     int      // cross-validation folds (default 5)
	PerHost   bool     // also fit each host (as Family.PerHost)
	MinHost   int      // samples a host needs for its own model (default 30)
	MaxPieces int      // most pieces for Mp (default 4)
	BreaksOn  string   // Mp's variable: "m", "n", "k" or "w"; "" tries each one the data varies in
	MaxModes  int      // most mixture modes for Nmix (default 4)
	Terms     []string // M2 terms instead of the kernel's natural ones
	Product   string   // M1 term (and N2's default σ term) instead of the kernel's natural one
	// SigmaTerms are N2's σ(v) terms besides its constant (default: the
	// product term, so σ grows with the work as in the study's Figure 8).
	SigmaTerms []string
	// Loss is how means are estimated: LossRobust (the zero value) or
	// plain least squares.
	Loss Loss
}

func (o FitOptions) withDefaults() FitOptions {
	if o.Folds <= 1 {
		o.Folds = 5
	}
	if o.MinHost <= 0 {
		o.MinHost = 30
	}
	if o.MaxPieces <= 0 {
		o.MaxPieces = 4
	}
	if o.MaxModes <= 0 {
		o.MaxModes = 4
	}
	return o
}

// Quality describes how well a fitted model explains its samples.
type Quality struct {
	Family string // the family fitted (the one chosen, for auto)
	N      int    // samples
	Params int    // estimated parameters, mean and noise
	// Outliers are the samples the fit rejected: weight 0 in the robust
	// mean, or, for Nmix, members of a mode of under 1% of the samples.
	// R², RMSE and the CV errors leave them out; the likelihood charges
	// them a uniform density over [0, the longest duration].
	Outliers int
	R2       float64 // coefficient of determination of the mean
	RMSE     float64 // root mean square residual of the mean, s
	CVRMSE   float64 // k-fold cross-validated RMSE of the mean, s (FitFactors: sizes held out)
	// CVRel is the median over held-out calls (k-fold; FitFactors: sizes
	// held out) of |predicted / measured − 1|; CVTotal is
	// |Σ predicted / Σ measured − 1| over them, the error of a run's summed
	// kernel time. Both are fractions.
	CVRel, CVTotal float64
	// Intercept is the largest constant part of the mean applied to the
	// smallest 5% of the calls (by product term), SmallCalls their median
	// duration, s: an intercept above it is charged to every tiny call.
	Intercept, SmallCalls float64
	LogLik                float64 // log-likelihood under the noise model (densities in 1/s)
	AIC                   float64
	BIC                   float64
	Hosts                 map[string]Quality // per-host fits, when asked for
}

// InterceptSlack is how far (a fraction) a mean's intercept may exceed the
// median duration of the smallest calls before Quality.Problems says so:
// timing noise puts a true intercept that large on them.
const InterceptSlack = 0.10

// minSamples is the fewest samples Fit accepts for one model.
const minSamples = 3

// Fit estimates kernel's model of the given family from samples. Errors
// name the kernel: "kernel dgemm: 2 samples, need at least 3".
func Fit(kernel string, samples []Sample, family Family, opts FitOptions) (Spec, Quality, error) {
	opts = opts.withDefaults()
	if err := checkSamples(samples); err != nil {
		return Spec{}, Quality{}, fmt.Errorf("kernel %s: %w", kernel, err)
	}
	fc, err := newFitContext(kernel, samples, opts)
	if err != nil {
		return Spec{}, Quality{}, fmt.Errorf("kernel %s: %w", kernel, err)
	}
	var res fitResult
	if family.Auto {
		res, err = fc.auto(samples)
	} else {
		res, err = fc.fitCV(samples, family.Mean, family.Noise)
	}
	if err != nil {
		return Spec{}, Quality{}, fmt.Errorf("kernel %s as %s: %w", kernel, family, err)
	}
	if family.PerHost || opts.PerHost {
		if err := fc.perHost(samples, &res, family.Auto); err != nil {
			return Spec{}, Quality{}, fmt.Errorf("kernel %s per host: %w", kernel, err)
		}
		if !family.Auto {
			res.q.Family = Family{Mean: res.mean, Noise: res.noise, PerHost: true}.String()
		}
	}
	return res.spec, res.q, nil
}

func checkSamples(samples []Sample) error {
	if len(samples) < minSamples {
		return fmt.Errorf("%d samples, need at least %d", len(samples), minSamples)
	}
	for i, s := range samples {
		v := s.Vars
		for _, x := range []float64{v.M, v.N, v.K, v.W, s.Seconds} {
			if !finite(x) {
				return fmt.Errorf("sample %d (host %q) has a non-finite value", i, s.Host)
			}
		}
		if s.Seconds < 0 || v.M < 0 || v.N < 0 || v.K < 0 || v.W < 0 {
			return fmt.Errorf("sample %d (host %q) has a negative duration or dimension", i, s.Host)
		}
	}
	return nil
}

// perHost refits every host with enough samples and records it as an
// override: in the family res has, or, for auto, in the family that host's
// own samples choose — pooled samples of unequal hosts look multi-modal,
// which is the per-host model's to explain, not the noise's.
func (fc *fitContext) perHost(samples []Sample, res *fitResult, auto bool) error {
	byHost := map[string][]Sample{}
	for _, s := range samples {
		byHost[s.Host] = append(byHost[s.Host], s)
	}
	for _, h := range sortedKeys(byHost) {
		hs := byHost[h]
		if h == "" || len(hs) < fc.opts.MinHost || len(byHost) == 1 {
			continue
		}
		var hr fitResult
		var err error
		if auto {
			hr, err = fc.auto(hs)
		} else {
			hr, err = fc.fitCV(hs, res.mean, res.noise)
		}
		if err != nil {
			return fmt.Errorf("host %q: %w", h, err)
		}
		if res.spec.Host == nil {
			res.spec.Host = map[string]Spec{}
			res.q.Hosts = map[string]Quality{}
		}
		res.spec.Host[h] = hr.spec
		res.q.Hosts[h] = hr.q
	}
	return nil
}

// informationCriteria fills AIC and BIC from LogLik, Params and N.
func (q *Quality) informationCriteria() {
	k, n := float64(q.Params), float64(q.N)
	q.AIC = 2*k - 2*q.LogLik
	q.BIC = k*math.Log(n) - 2*q.LogLik
}
