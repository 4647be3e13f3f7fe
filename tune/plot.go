package tune

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// WritePlots writes, for each swept key, DIR/gflops_vs_<key>.svg: the best Gflops
// reached at each value of that key over all other swept values (the envelope a user
// tuning that one parameter can hope for). Numeric values are ordered numerically,
// others as they first appear. Failed points are left out.
func WritePlots(dir string, results []Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, key := range sweptKeys(results) {
		values, best := envelope(results, key)
		if len(values) == 0 {
			continue
		}
		p := plot.New()
		p.Title.Text = "best Gflops per " + key
		p.X.Label.Text = key
		p.Y.Label.Text = "Gflops"
		bars, err := plotter.NewBarChart(plotter.Values(best), vg.Points(20))
		if err != nil {
			return err
		}
		p.Add(bars)
		labels := make([]string, len(values))
		for i, v := range values {
			labels[i] = strings.Trim(v, `"`)
		}
		p.NominalX(labels...)
		name := "gflops_vs_" + strings.NewReplacer(".", "_", "/", "_").Replace(key) + ".svg"
		w := vg.Length(max(4, len(values))) * vg.Inch * 0.9
		if err := p.Save(w, 3*vg.Inch, filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("plot %s: %w", name, err)
		}
	}
	return nil
}

// envelope returns the values key takes and the best Gflops at each.
func envelope(results []Result, key string) ([]string, []float64) {
	best := map[string]float64{}
	var order []string
	for _, r := range results {
		if r.Error != "" {
			continue
		}
		for _, o := range r.Overrides {
			if o.Key != key {
				continue
			}
			if _, seen := best[o.Value]; !seen {
				order = append(order, o.Value)
				best[o.Value] = r.Gflops
			} else if r.Gflops > best[o.Value] {
				best[o.Value] = r.Gflops
			}
		}
	}
	numeric := true
	for _, v := range order {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			numeric = false
		}
	}
	if numeric {
		sort.Slice(order, func(a, b int) bool {
			x, _ := strconv.ParseFloat(order[a], 64)
			y, _ := strconv.ParseFloat(order[b], 64)
			return x < y
		})
	}
	ys := make([]float64, len(order))
	for i, v := range order {
		ys[i] = best[v]
	}
	return order, ys
}
