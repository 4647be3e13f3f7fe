package plots

import (
	"fmt"
	"image/color"
	"io"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/emu-hpc/emu/observe"
)

// Breakdown draws b as stacked bars, one per rank: compute, communication
// and waiting (emu run --plot's rank_time.svg).
func Breakdown(w io.Writer, b *observe.Breakdown, title string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "rank"
	p.Y.Label.Text = "simulated time (s)"
	n := len(b.Compute)
	width := vg.Points(max(1, min(40, 400/float64(max(n, 1)))))
	parts := []struct {
		name string
		v    []float64
		c    color.Color
	}{
		{"compute", b.Compute, color.RGBA{R: 0x4c, G: 0x72, B: 0xb0, A: 0xff}},
		{"communication", b.Comm, color.RGBA{R: 0xdd, G: 0x84, B: 0x52, A: 0xff}},
		{"waiting", b.Wait, color.RGBA{R: 0xc4, G: 0xc4, B: 0xc4, A: 0xff}},
	}
	var below *plotter.BarChart
	for _, part := range parts {
		bars, err := plotter.NewBarChart(plotter.Values(part.v), width)
		if err != nil {
			return fmt.Errorf("breakdown plot: %w", err)
		}
		bars.Color = part.c
		bars.LineStyle.Width = 0
		if below != nil {
			bars.StackOn(below)
		}
		p.Add(bars)
		p.Legend.Add(part.name, bars)
		below = bars
	}
	// Leave headroom above the tallest bar for the legend.
	top := 0.0
	for r := range b.Compute {
		top = max(top, b.Compute[r]+b.Comm[r]+b.Wait[r])
	}
	p.Y.Min, p.Y.Max = 0, 1.35*top
	p.Legend.Top = true
	if n <= 32 {
		names := make([]string, n)
		for r := range names {
			names[r] = strconv.Itoa(r)
		}
		p.NominalX(names...)
	}
	c := vgsvg.New(vg.Length(max(6, min(24, float64(n)/8)))*vg.Inch, 4*vg.Inch)
	p.Draw(draw.New(c))
	_, err := c.WriteTo(w)
	return err
}
