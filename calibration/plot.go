package calibration

import (
	"fmt"
	"image/color"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
)

// Size of each figure.
const (
	plotWidth  = 7 * vg.Inch
	plotHeight = 4.5 * vg.Inch
)

// WritePlots writes, for each kernel with samples, two SVG figures in the
// style of the SMPI/HPL study's Figure 8: KERNEL.svg, the measured duration
// against the kernel's main product term w (log-log, one colour per host)
// with the fitted model's mean at each sample's dimensions; and
// KERNEL-residuals.svg, the relative residual (measured − model)/model
// against w. It returns the files written, sorted.
func WritePlots(dir string, samples []Sample, set *models.Set) ([]string, error) {
	return WritePlotsWith(dir, samples, set, nil)
}

// WritePlotsWith is WritePlots with FitEachKernelWith's products: a kernel
// they name is drawn against that product.
func WritePlotsWith(dir string, samples []Sample, set *models.Set, products map[string]string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	type point struct {
		w, seconds, model float64
	}
	byKernel := map[string]map[string][]point{}
	for _, s := range samples {
		v, empty, err := varsOf(s, products)
		if err != nil || empty || s.Seconds <= 0 {
			continue // log axes need positive values; empty calls cost nothing
		}
		m := set.For(s.Kernel, s.Host)
		if m == nil {
			continue
		}
		if byKernel[s.Kernel] == nil {
			byKernel[s.Kernel] = map[string][]point{}
		}
		byKernel[s.Kernel][s.Host] = append(byKernel[s.Kernel][s.Host], point{v.W, s.Seconds, m.Mean(v)})
	}
	var files []string
	for _, kernel := range slices.Sorted(maps.Keys(byKernel)) {
		hosts := byKernel[kernel]
		fit := plot.New()
		fit.Title.Text = kernel + ": measured duration and model"
		product := models.ProductTerm(kernel)
		if p, ok := products[kernel]; ok && !kernels.Known(kernel) {
			product = p
		}
		fit.X.Label.Text = "w = " + product
		fit.Y.Label.Text = "duration (s)"
		fit.X.Scale, fit.Y.Scale = plot.LogScale{}, plot.LogScale{}
		fit.X.Tick.Marker, fit.Y.Tick.Marker = plot.LogTicks{Prec: 1}, plot.LogTicks{Prec: 1}
		res := plot.New()
		res.Title.Text = kernel + ": relative residuals"
		res.X.Label.Text = fit.X.Label.Text
		res.Y.Label.Text = "(measured − model) / model"
		res.X.Scale, res.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: 1}
		for i, h := range slices.Sorted(maps.Keys(hosts)) {
			pts := hosts[h]
			sort.Slice(pts, func(a, b int) bool { return pts[a].w < pts[b].w })
			meas, pred, rel := make(plotter.XYs, len(pts)), make(plotter.XYs, 0, len(pts)), make(plotter.XYs, 0, len(pts))
			for j, p := range pts {
				meas[j] = plotter.XY{X: p.w, Y: p.seconds}
				if p.model > 0 {
					pred = append(pred, plotter.XY{X: p.w, Y: p.model})
					rel = append(rel, plotter.XY{X: p.w, Y: (p.seconds - p.model) / p.model})
				}
			}
			c := plotutil.Color(i)
			if err := addScatter(fit, meas, c, draw.CircleGlyph{}, 1.5, h); err != nil {
				return nil, err
			}
			if len(pred) > 0 {
				line, err := plotter.NewLine(pred)
				if err != nil {
					return nil, err
				}
				line.Color, line.Width = darker(c), vg.Points(1)
				fit.Add(line)
				fit.Legend.Add(h+" model", line)
			}
			if err := addScatter(res, rel, c, draw.CircleGlyph{}, 1.5, h); err != nil {
				return nil, err
			}
		}
		fit.Legend.Top, fit.Legend.Left = true, true
		res.Legend.Top = true
		res.Add(plotter.NewGrid())
		for _, fig := range []struct {
			p    *plot.Plot
			name string
		}{{fit, kernel + plotExt}, {res, kernel + "-residuals" + plotExt}} {
			path := filepath.Join(dir, fig.name)
			if err := fig.p.Save(plotWidth, plotHeight, path); err != nil {
				return nil, fmt.Errorf("plotting %s: %w", path, err)
			}
			files = append(files, path)
		}
	}
	sort.Strings(files)
	return files, nil
}

func addScatter(p *plot.Plot, xys plotter.XYs, c color.Color, g draw.GlyphDrawer, radius vg.Length, label string) error {
	if len(xys) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	s.GlyphStyle.Color, s.GlyphStyle.Shape, s.GlyphStyle.Radius = c, g, radius
	p.Add(s)
	p.Legend.Add(label, s)
	return nil
}

// darker draws the model line of a host in a darker shade of its points.
func darker(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 9), uint8(g >> 9), uint8(b >> 9), 255}
}

// plotExt selects the figure format by extension (gonum/plot supports .svg,
// .png, .pdf, .eps); SVG is what emu fit --plot promises.
var plotExt = ".svg"
