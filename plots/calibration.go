package plots

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/emu-hpc/emu/calibration"
)

// Size of each figure of Calibration.
const (
	fitWidth  = 7 * vg.Inch
	fitHeight = 4.5 * vg.Inch
)

// fitExt selects the figure format by extension (gonum/plot supports .svg,
// .png, .pdf, .eps); SVG is what emu fit --plot promises.
const fitExt = ".svg"

// Calibration writes, for each kernel of fits (calibration.PointsVsModel), two
// SVG figures into dir in the style of the SMPI/HPL study's Figure 8:
// KERNEL.svg, the measured duration against the kernel's product term w
// (log-log, one colour per host) with the host's model's mean at each
// sample's dimensions; and KERNEL-residuals.svg, the relative residual
// (measured − model)/model against w (emu fit --plot). It returns the files
// written, sorted.
func Calibration(dir string, fits []calibration.KernelPoints) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for _, k := range fits {
		fit := plot.New()
		fit.Title.Text = k.Kernel + ": measured duration and model"
		fit.X.Label.Text = "w = " + k.Product
		fit.Y.Label.Text = "duration (s)"
		fit.X.Scale, fit.Y.Scale = plot.LogScale{}, plot.LogScale{}
		fit.X.Tick.Marker, fit.Y.Tick.Marker = plot.LogTicks{Prec: 1}, plot.LogTicks{Prec: 1}
		res := plot.New()
		res.Title.Text = k.Kernel + ": relative residuals"
		res.X.Label.Text = fit.X.Label.Text
		res.Y.Label.Text = "(measured − model) / model"
		res.X.Scale, res.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: 1}
		for i, h := range k.Hosts {
			meas, pred, rel := make(plotter.XYs, len(h.Points)), make(plotter.XYs, 0, len(h.Points)), make(plotter.XYs, 0, len(h.Points))
			for j, p := range h.Points {
				meas[j] = plotter.XY{X: p.W, Y: p.Seconds}
				if r, ok := p.Residual(); ok {
					pred = append(pred, plotter.XY{X: p.W, Y: p.Model})
					rel = append(rel, plotter.XY{X: p.W, Y: r})
				}
			}
			c := plotutil.Color(i)
			if err := addScatter(fit, meas, c, draw.CircleGlyph{}, 1.5, h.Host); err != nil {
				return nil, fmt.Errorf("plotting %s: %w", k.Kernel, err)
			}
			if len(pred) > 0 {
				line, err := plotter.NewLine(pred)
				if err != nil {
					return nil, fmt.Errorf("plotting %s: %w", k.Kernel, err)
				}
				line.Color, line.Width = darker(c), vg.Points(1)
				fit.Add(line)
				fit.Legend.Add(h.Host+" model", line)
			}
			if err := addScatter(res, rel, c, draw.CircleGlyph{}, 1.5, h.Host); err != nil {
				return nil, fmt.Errorf("plotting %s residuals: %w", k.Kernel, err)
			}
		}
		widenLog(&fit.X)
		widenLog(&fit.Y)
		widenLog(&res.X)
		fit.Legend.Top, fit.Legend.Left = true, true
		res.Legend.Top = true
		res.Add(plotter.NewGrid())
		for _, fig := range []struct {
			p    *plot.Plot
			name string
		}{{fit, k.Kernel + fitExt}, {res, k.Kernel + "-residuals" + fitExt}} {
			path := filepath.Join(dir, fig.name)
			if err := fig.p.Save(fitWidth, fitHeight, path); err != nil {
				return nil, fmt.Errorf("plotting %s: %w", path, err)
			}
			files = append(files, path)
		}
	}
	sort.Strings(files)
	return files, nil
}

// widenLog gives a log axis whose data are one value a decade either side:
// gonum/plot widens such a range by one unit each way, which below 1 (every
// duration) reaches zero or less, where its log ticks panic.
func widenLog(a *plot.Axis) {
	if a.Min == a.Max && a.Min > 0 {
		a.Min, a.Max = a.Min/10, a.Max*10
	}
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
