package calibration

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/emu-hpc/emu/internal/jsonout"
	"github.com/emu-hpc/emu/models"
)

// KernelFit is the outcome of fitting one kernel's samples.
type KernelFit struct {
	Kernel  string
	Spec    models.Spec
	Quality models.Quality
	Skipped int // samples of empty calls, which cost nothing by definition
}

// FitSamples fits one model per kernel present in samples (sorted by kernel
// name) through models.Fit and gathers them into a models.Set. Samples of
// empty calls (a zero dimension) are left out: kernels charges nothing for
// them. Errors name the kernel; the first kernel that cannot be fitted
// fails the whole fit (FitEachKernel skips it instead).
func FitSamples(samples []Sample, family models.Family, opts models.FitOptions) (*models.Set, []KernelFit, error) {
	set, fits, failed, err := FitEachKernel(samples, family, opts)
	if len(failed) > 0 {
		return nil, nil, failed[0]
	}
	return set, fits, err
}

// FitEachKernel is FitSamples that fits every kernel it can: the kernels
// that cannot be fitted (too few samples, ...) are returned as failed, one
// error each naming its kernel, and left out of the set. err is set when
// no kernel could be fitted, a sample is malformed or the set does not build.
func FitEachKernel(samples []Sample, family models.Family, opts models.FitOptions) (set *models.Set, fits []KernelFit, failed []error, err error) {
	return FitEachKernelWith(samples, family, opts, nil)
}

// FitEachKernelWith is FitEachKernel with products: a kernel's product term
// (models.FitOptions.Product, "m*n"), which a kernel emu does not know needs
// (its samples' m, n and k are its variables as they are), and which a
// kernel emu knows fits instead of its natural one. The others keep theirs.
func FitEachKernelWith(samples []Sample, family models.Family, opts models.FitOptions, products map[string]string) (set *models.Set, fits []KernelFit, failed []error, err error) {
	byKernel := map[string][]models.Sample{}
	skipped := map[string]int{}
	for _, s := range samples {
		if s.Status == StatusOutlier {
			continue // still off when measured again (Campaign.screen)
		}
		v, empty, err := varsOf(s, products)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("sample of %s on %s: %w", s.Kernel, s.Host, err)
		}
		if empty {
			skipped[s.Kernel]++
			continue
		}
		byKernel[s.Kernel] = append(byKernel[s.Kernel], models.Sample{Host: s.Host, Vars: v, Seconds: s.Seconds})
	}
	names := make([]string, 0, len(byKernel))
	for k := range byKernel {
		names = append(names, k)
	}
	sort.Strings(names)
	if len(names) == 0 {
		empty, outliers := 0, 0
		for _, n := range skipped {
			empty += n
		}
		for _, s := range samples {
			if s.Status == StatusOutlier {
				outliers++
			}
		}
		if empty+outliers > 0 {
			// Say why, rather than leave the user to count rows.
			return nil, nil, nil, fmt.Errorf("no samples to fit: of %d, %d are empty calls (a dimension 0, which cost nothing) and %d outliers of their campaign", len(samples), empty, outliers)
		}
		return nil, nil, nil, fmt.Errorf("no samples to fit")
	}
	specs := map[string]models.Spec{}
	for _, k := range names {
		o := opts
		if p, ok := products[k]; ok {
			o.Product = p
		}
		if allZero(byKernel[k]) {
			// A clock that never ticked (too coarse for the calls) fitted
			// "intercept = 0.0", marked ok: a model of nothing (qa57).
			failed = append(failed, fmt.Errorf("kernel %s: all %d samples take 0 s (a clock too coarse for these calls?): nothing to fit", k, len(byKernel[k])))
			continue
		}
		spec, q, err := models.Fit(k, byKernel[k], family, o)
		if err != nil {
			failed = append(failed, err) // it names the kernel
			continue
		}
		specs[k] = spec
		fits = append(fits, KernelFit{Kernel: k, Spec: spec, Quality: q, Skipped: skipped[k]})
	}
	if len(specs) == 0 {
		return nil, nil, failed, fmt.Errorf("no kernel could be fitted: %w", failed[0])
	}
	if set, err = models.NewSet(specs); err != nil {
		return nil, nil, failed, fmt.Errorf("fitted models do not build: %w", err)
	}
	return set, fits, failed, nil
}

// WriteFitTable prints one line per kernel (and per host when fitted per
// host): the family chosen, samples, samples rejected as outliers,
// parameters, R², RMSE and cross-validated RMSE (µs), the cross-validated
// median relative error of a call and of the total (%), AIC, BIC, and what
// is wrong with the fit in words (models.Quality.Problems): "POOR: ..." when
// it is poor, "ok" or "ok: N outliers down-weighted" when not.
func WriteFitTable(w io.Writer, fits []KernelFit) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "kernel\thost\tfamily\tsamples\toutliers\tparams\tR²\tRMSE µs\tCV-RMSE µs\tCV rel %\tCV total %\tAIC\tBIC\tfit")
	row := func(kernel, host string, q models.Quality) {
		verdict := "ok"
		if p := q.Problems(); q.Poor() {
			verdict = "POOR: " + strings.Join(p, "; ")
		} else if len(p) > 0 {
			verdict = "ok: " + strings.Join(p, "; ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%.4f\t%.3g\t%.3g\t%.3g\t%.3g\t%.4g\t%.4g\t%s\n",
			kernel, host, q.Family, q.N, q.Outliers, q.Params, q.R2, q.RMSE*1e6, q.CVRMSE*1e6,
			100*q.CVRel, 100*q.CVTotal, finiteOr(q.AIC), finiteOr(q.BIC), verdict)
	}
	for _, f := range fits {
		row(f.Kernel, "*", f.Quality)
		for _, h := range sortedHosts(f.Quality.Hosts) {
			row(f.Kernel, h, f.Quality.Hosts[h])
		}
	}
	return tw.Flush()
}

func sortedHosts(m map[string]models.Quality) []string {
	hosts := make([]string, 0, len(m))
	for h := range m {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	return hosts
}

// FitReport is one row of WriteFitJSON: the table's columns, units in the
// names, and the problems as a list.
type FitReport struct {
	Kernel     string   `json:"kernel"`
	Host       string   `json:"host"` // "*" for the platform-wide fit
	Family     string   `json:"family"`
	Samples    int      `json:"samples"`
	Outliers   int      `json:"outliers"`
	Params     int      `json:"params"`
	R2         float64  `json:"r2"`
	RMSE       float64  `json:"rmse_s"`
	CVRMSE     float64  `json:"cv_rmse_s"`
	CVRel      float64  `json:"cv_rel"`
	CVTotal    float64  `json:"cv_total"`
	Intercept  float64  `json:"intercept_s"`
	SmallCalls float64  `json:"small_calls_s"`
	AIC        float64  `json:"aic"`
	BIC        float64  `json:"bic"`
	Problems   []string `json:"problems"`
	Poor       bool     `json:"poor"` // a problem besides outliers
}

// Reports turns fits into FitReport rows, kernel by kernel, the hosts of
// each after it.
func Reports(fits []KernelFit) []FitReport {
	var out []FitReport
	add := func(kernel, host string, q models.Quality) {
		p := q.Problems()
		out = append(out, FitReport{Kernel: kernel, Host: host, Family: q.Family, Samples: q.N, Outliers: q.Outliers,
			Params: q.Params, R2: q.R2, RMSE: q.RMSE, CVRMSE: q.CVRMSE, CVRel: q.CVRel, CVTotal: q.CVTotal,
			Intercept: q.Intercept, SmallCalls: q.SmallCalls, AIC: finiteOr(q.AIC), BIC: finiteOr(q.BIC), Problems: p, Poor: q.Poor()})
	}
	for _, f := range fits {
		add(f.Kernel, "*", f.Quality)
		for _, h := range sortedHosts(f.Quality.Hosts) {
			add(f.Kernel, h, f.Quality.Hosts[h])
		}
	}
	return out
}

// WriteFitJSON writes Reports(fits) as an indented JSON array.
func WriteFitJSON(w io.Writer, fits []KernelFit) error {
	return jsonout.Encode(w, Reports(fits))
}

func finiteOr(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// allZero reports whether every sample took 0 s.
func allZero(samples []models.Sample) bool {
	for _, s := range samples {
		if s.Seconds != 0 {
			return false
		}
	}
	return true
}
