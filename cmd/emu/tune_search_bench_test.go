package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/emu-hpc/emu/tune"
)

// space288 is issue 13's search space: 4×4 ranks (16 hosts of the embedded default
// platform), N = 20,000, 8 NBs × 6 broadcasts × 2 depths × 3 grids = 288 points.
func space288(t testing.TB) (*scenarioRunner, []tune.Point) {
	var axes []tune.Axis
	for _, s := range []string{"nb=32,48,64,96,128,160,192,256", "bcast=all", "depth=0,1", "grid=1x16,2x8,4x4"} {
		ax, err := tune.ParseSweep(s)
		if err != nil {
			t.Fatal(err)
		}
		axes = append(axes, ax)
	}
	r := &scenarioRunner{flags: scenarioFlags{sets: []string{"platform.hosts=16", "hpl.n=20000"}}}
	return r, tune.Points(axes, 0, 0)
}

// BenchmarkTuneSearch288 runs the 288-point grid whole, then `tune --search` with its
// defaults, on the same number of local workers, and reports the search's wall time as
// a fraction of the grid's (goal ≤ 0.2), how far its best point's Gflops lies below
// the grid's best (goal ≤ 1%), and the evaluations and panels each spent.
//
//	nice -n 19 go test -run XXX -bench TuneSearch288 -benchtime 1x ./cmd/emu
//
// (about 40 s with 2 workers and 70 s with 1, on a quiet 2-core machine).
func BenchmarkTuneSearch288(b *testing.B) {
	r, points := space288(b)
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			var gridS, searchS, gap float64
			var grid []tune.Result
			var res tune.SearchResult
			for b.Loop() {
				t0 := time.Now()
				var err error
				grid, err = tune.Sweep(context.Background(), r, points, tune.Options{Jobs: jobs})
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				res, err = tune.Search(context.Background(), r, points, tune.SearchOptions{
					Options: tune.Options{Jobs: jobs}, Fidelity: fidelityKey, Whole: "0"})
				if err != nil {
					b.Fatal(err)
				}
				gridS, searchS = t1.Sub(t0).Seconds(), time.Since(t1).Seconds()
			}
			best := tune.Rank(grid)[0]
			gap = 100 * (1 - res.Best.Gflops/best.Gflops)
			gridPanels := 0
			for _, g := range grid {
				gridPanels += g.Panels
			}
			b.ReportMetric(gridS, "grid-s")
			b.ReportMetric(searchS, "search-s")
			b.ReportMetric(searchS/gridS, "wall-fraction")
			b.ReportMetric(gap, "gap-%")
			b.ReportMetric(float64(res.Evaluations), "evaluations")
			b.ReportMetric(float64(res.Panels)/float64(gridPanels), "panel-fraction")
			b.Logf("grid best %s %.6g Gflops; search best %s %.6g Gflops; %d evaluations, %d whole",
				best.Label, best.Gflops, stripFidelity(res.Best).Label(), res.Best.Gflops, res.Evaluations, res.Whole)
		})
	}
}
