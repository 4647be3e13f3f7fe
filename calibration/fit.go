package calibration

import (
	"fmt"
	"io"
	"math"
	"sort"
	"text/tabwriter"

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
// them. Errors name the kernel.
func FitSamples(samples []Sample, family models.Family, opts models.FitOptions) (*models.Set, []KernelFit, error) {
	byKernel := map[string][]models.Sample{}
	skipped := map[string]int{}
	for _, s := range samples {
		v, empty, err := varsOf(s)
		if err != nil {
			return nil, nil, fmt.Errorf("sample of %s on %s: %w", s.Kernel, s.Host, err)
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
		return nil, nil, fmt.Errorf("no samples to fit")
	}
	specs := map[string]models.Spec{}
	var fits []KernelFit
	for _, k := range names {
		spec, q, err := models.Fit(k, byKernel[k], family, opts)
		if err != nil {
			return nil, nil, fmt.Errorf("kernel %s: %w", k, err)
		}
		specs[k] = spec
		fits = append(fits, KernelFit{Kernel: k, Spec: spec, Quality: q, Skipped: skipped[k]})
	}
	set, err := models.NewSet(specs)
	if err != nil {
		return nil, nil, err
	}
	return set, fits, nil
}

// WriteFitTable prints one line per kernel (and per host when fitted per
// host): the family chosen, samples, parameters, R², RMSE and
// cross-validated RMSE (µs), AIC and BIC.
func WriteFitTable(w io.Writer, fits []KernelFit) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kernel\thost\tfamily\tsamples\tparams\tR²\tRMSE µs\tCV-RMSE µs\tAIC\tBIC\t")
	row := func(kernel, host string, q models.Quality) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.4f\t%.3g\t%.3g\t%.4g\t%.4g\t\n",
			kernel, host, q.Family, q.N, q.Params, q.R2, q.RMSE*1e6, q.CVRMSE*1e6, finiteOr(q.AIC), finiteOr(q.BIC))
	}
	for _, f := range fits {
		row(f.Kernel, "*", f.Quality)
		hosts := make([]string, 0, len(f.Quality.Hosts))
		for h := range f.Quality.Hosts {
			hosts = append(hosts, h)
		}
		sort.Strings(hosts)
		for _, h := range hosts {
			row(f.Kernel, h, f.Quality.Hosts[h])
		}
	}
	return tw.Flush()
}

func finiteOr(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}
