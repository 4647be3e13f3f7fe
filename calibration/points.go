package calibration

import (
	"maps"
	"slices"
	"sort"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
)

// KernelPoints is one kernel's samples beside its fitted model: what emu fit
// --plot draws (plots.Calibration), in the style of the SMPI/HPL study's
// Figure 8.
type KernelPoints struct {
	Kernel  string
	Product string       // the product term w the samples are set against (models.ProductTerm, or --product's)
	Hosts   []HostPoints // by host name
}

// HostPoints is one host's samples of a kernel, by ascending W.
type HostPoints struct {
	Host   string
	Points []FitPoint
}

// FitPoint is one sample: its product term, its measured duration and the
// host's model's mean at its dimensions (seconds).
type FitPoint struct {
	W, Seconds, Model float64
}

// Residual is the relative residual (Seconds − Model)/Model, and false
// where the model predicts no positive time.
func (p FitPoint) Residual() (float64, bool) {
	if p.Model <= 0 {
		return 0, false
	}
	return (p.Seconds - p.Model) / p.Model, true
}

// PointsVsModel sets each sample of a kernel that set has a model for against
// its product term (FitEachKernelWith's products name the term of a kernel
// of one's own), beside the model's mean there. A sample of no time, or of
// an empty call, is left out (log axes need positive values). Kernels come
// sorted by name.
func PointsVsModel(samples []Sample, set *models.Set, products map[string]string) []KernelPoints {
	byKernel := map[string]map[string][]FitPoint{}
	for _, s := range samples {
		v, empty, err := varsOf(s, products)
		if err != nil || empty || s.Seconds <= 0 {
			continue
		}
		m := set.For(s.Kernel, s.Host)
		if m == nil {
			continue
		}
		if byKernel[s.Kernel] == nil {
			byKernel[s.Kernel] = map[string][]FitPoint{}
		}
		byKernel[s.Kernel][s.Host] = append(byKernel[s.Kernel][s.Host], FitPoint{v.W, s.Seconds, m.Mean(v)})
	}
	var fits []KernelPoints
	for _, kernel := range slices.Sorted(maps.Keys(byKernel)) {
		hosts := byKernel[kernel]
		f := KernelPoints{Kernel: kernel, Product: models.ProductTerm(kernel)}
		if p, ok := products[kernel]; ok && !kernels.Known(kernel) {
			f.Product = p
		}
		for _, h := range slices.Sorted(maps.Keys(hosts)) {
			pts := hosts[h]
			sort.Slice(pts, func(a, b int) bool { return pts[a].W < pts[b].W })
			f.Hosts = append(f.Hosts, HostPoints{Host: h, Points: pts})
		}
		fits = append(fits, f)
	}
	return fits
}
