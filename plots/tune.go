package plots

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/emu-hpc/emu/tune"
)

// Tune writes, for each envelope (tune.Envelopes), DIR/gflops_vs_<key>.svg:
// the best Gflops reached at each value of that swept key, as bars (emu tune
// --plot). The key's dots and slashes become underscores in the file name,
// and a value's quotes are dropped from its label.
func Tune(dir string, envs []tune.Envelope) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, e := range envs {
		p := plot.New()
		p.Title.Text = "best Gflops per " + e.Key
		p.X.Label.Text = e.Key
		p.Y.Label.Text = "Gflops"
		bars, err := plotter.NewBarChart(plotter.Values(e.Best), vg.Points(20))
		if err != nil {
			return fmt.Errorf("plot %s: %w", e.Key, err)
		}
		p.Add(bars)
		labels := make([]string, len(e.Values))
		for i, v := range e.Values {
			labels[i] = strings.Trim(v, `"`)
		}
		p.NominalX(labels...)
		name := "gflops_vs_" + strings.NewReplacer(".", "_", "/", "_").Replace(e.Key) + ".svg"
		w := vg.Length(max(4, len(e.Values))) * vg.Inch * 0.9
		if err := p.Save(w, 3*vg.Inch, filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("plot %s: %w", name, err)
		}
	}
	return nil
}
