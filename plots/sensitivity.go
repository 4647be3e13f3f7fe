package plots

import (
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/emu-hpc/emu/sensitivity"
)

// Sensitivity writes runtime.svg, lambda_L.svg and rho_L.svg into dir: T,
// λ_L and ρ_L against ΔL = L − L0 in µs (LLAMP's Figure 9). T is drawn
// through the breakpoints as well as the curve samples, so its kinks are
// where they belong; λ_L is a step function.
func Sensitivity(dir string, r *sensitivity.Report) error {
	if len(r.Curve) == 0 {
		return fmt.Errorf("sensitivity: report has no curve to plot")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	type sample struct{ dl, t, rho float64 }
	var xs []sample
	add := func(l, t float64, lam int64) {
		s := sample{dl: (l - r.L) * 1e6, t: t * 1e6}
		if t > 0 {
			s.rho = float64(lam) * l / t
		}
		xs = append(xs, s)
	}
	bi := 0
	for _, c := range r.Curve {
		for bi < len(r.Breakpoints) && r.Breakpoints[bi].L < c.L {
			b := r.Breakpoints[bi]
			add(b.L, b.T, b.LambdaRight)
			bi++
		}
		add(c.L, c.T, c.LambdaL)
	}
	tPts, rhoPts := make(plotter.XYs, len(xs)), make(plotter.XYs, len(xs))
	for i, s := range xs {
		tPts[i] = plotter.XY{X: s.dl, Y: s.t}
		rhoPts[i] = plotter.XY{X: s.dl, Y: s.rho}
	}
	// λ_L: constant from each piece's start to the next.
	var lamPts plotter.XYs
	lamPts = append(lamPts, plotter.XY{X: (r.Curve[0].L - r.L) * 1e6, Y: float64(r.Curve[0].LambdaL)})
	for _, b := range r.Breakpoints {
		lamPts = append(lamPts, plotter.XY{X: (b.L - r.L) * 1e6, Y: float64(b.LambdaRight)})
	}
	last := r.Curve[len(r.Curve)-1]
	lamPts = append(lamPts, plotter.XY{X: (last.L - r.L) * 1e6, Y: float64(last.LambdaL)})
	plots := []struct {
		file, y string
		pts     plotter.XYs
		step    bool
	}{
		{"runtime.svg", "T [µs]", tPts, false},
		{"lambda_L.svg", "λ_L = ∂T/∂L (latency terms on the critical path)", lamPts, true},
		{"rho_L.svg", "ρ_L = λ_L·L/T", rhoPts, false},
	}
	for _, pl := range plots {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("L0 = %s", sensitivity.FormatSeconds(r.L))
		p.X.Label.Text = "ΔL [µs]"
		p.Y.Label.Text = pl.y
		line, err := plotter.NewLine(pl.pts)
		if err != nil {
			return fmt.Errorf("sensitivity: plotting %s: %w", pl.file, err)
		}
		if pl.step {
			line.StepStyle = plotter.PostStep
		}
		p.Add(line, plotter.NewGrid())
		if err := p.Save(6*vg.Inch, 4*vg.Inch, filepath.Join(dir, pl.file)); err != nil {
			return err
		}
	}
	return writeClassPlot(dir, r)
}

// writeClassPlot writes runtime_by_class.svg when the report has link
// classes swept alone: T against each class's ΔL, one line per class, so
// that which kind of wire the run is sensitive to is read at a glance.
func writeClassPlot(dir string, r *sensitivity.Report) error {
	p := plot.New()
	p.Title.Text = "each link class's latency alone moving"
	p.X.Label.Text = "ΔL of the class [µs]"
	p.Y.Label.Text = "T [µs]"
	lines := 0
	for _, c := range r.Classes {
		if len(c.Curve) < 2 {
			continue
		}
		pts := make(plotter.XYs, len(c.Curve))
		for i, q := range c.Curve {
			pts[i] = plotter.XY{X: (q.L - c.L) * 1e6, Y: q.T * 1e6}
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return fmt.Errorf("sensitivity: plotting class %s: %w", c.Name, err)
		}
		line.Color = plotutil.Color(lines)
		line.Dashes = plotutil.Dashes(lines)
		name := c.Name
		if name == "" {
			name = fmt.Sprintf("class %d", c.Class)
		}
		p.Add(line)
		p.Legend.Add(name, line)
		lines++
	}
	if lines == 0 {
		return nil
	}
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = true, true
	return p.Save(6*vg.Inch, 4*vg.Inch, filepath.Join(dir, "runtime_by_class.svg"))
}
