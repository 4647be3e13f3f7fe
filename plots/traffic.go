package plots

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/emu-hpc/emu/observe"
)

// hottestShown is how many links the hottest-links plot draws.
const hottestShown = 16

// LinkClasses draws each class's mean utilisation over the run and while
// its links were busy, as paired bars (emu run --links with --plot:
// link_classes.svg).
func LinkClasses(w io.Writer, t *observe.Traffic, title string) error {
	names := make([]string, len(t.Classes))
	mean, busy := make(plotter.Values, len(t.Classes)), make(plotter.Values, len(t.Classes))
	for i, c := range t.Classes {
		names[i], mean[i], busy[i] = c.Class, c.Util, c.BusyUtil
	}
	return pairedBars(w, title, "link class", names, mean, busy)
}

// HottestLinks draws the links of highest mean utilisation (at most
// hottestShown), with their utilisation while busy beside
// (link_hottest.svg).
func HottestLinks(w io.Writer, t *observe.Traffic, title string) error {
	hot := t.Hottest(hottestShown)
	names := make([]string, len(hot))
	mean, busy := make(plotter.Values, len(hot)), make(plotter.Values, len(hot))
	for i, l := range hot {
		names[i], mean[i], busy[i] = l.Name, l.Util, l.BusyUtil
	}
	return pairedBars(w, title, "link", names, mean, busy)
}

// pairedBars draws two bars per name, the mean utilisation and the
// utilisation while busy, on a 0–1 scale.
func pairedBars(w io.Writer, title, xlabel string, names []string, mean, busy plotter.Values) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = "utilisation"
	// Two bars and a gap per name: each bar at most 30% of a name's share
	// of the canvas.
	canvas := vg.Length(max(6, min(16, float64(len(names))/2))) * vg.Inch
	width := vg.Points(min(20, 0.3*canvas.Points()/float64(max(1, len(names)))))
	for i, part := range []struct {
		name string
		v    plotter.Values
		c    color.Color
	}{
		{"mean over the run", mean, color.RGBA{R: 0x4c, G: 0x72, B: 0xb0, A: 0xff}},
		{"while busy", busy, color.RGBA{R: 0xdd, G: 0x84, B: 0x52, A: 0xff}},
	} {
		bars, err := plotter.NewBarChart(part.v, width)
		if err != nil {
			return fmt.Errorf("traffic plot: %w", err)
		}
		bars.Color = part.c
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(2*i-1) * width / 2
		p.Add(bars)
		p.Legend.Add(part.name, bars)
	}
	p.Y.Min, p.Y.Max = 0, 1.3
	p.Legend.Top = true
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = 0.6
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	wt, err := p.WriterTo(canvas, 4*vg.Inch, plotFormat)
	if err != nil {
		return fmt.Errorf("traffic plot: %w", err)
	}
	_, err = wt.WriteTo(w)
	return err
}

// plotFormat is the traffic plots' image format (gonum/plot's name).
var plotFormat = "svg"
