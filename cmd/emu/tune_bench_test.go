package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/emu-hpc/emu/tune"
)

// BenchmarkTuneJobs measures sweep throughput (points/s) of the embedded default HPL
// scenario on 1 and 2 local workers; on a 2-core machine jobs=2 should give about twice
// jobs=1, since each point is an independent single-threaded emulation.
//
//	go test -run XXX -bench TuneJobs -benchtime 3x ./cmd/emu
func BenchmarkTuneJobs(b *testing.B) {
	ax, err := tune.ParseSweep("nb=32,64,96,128")
	if err != nil {
		b.Fatal(err)
	}
	points := tune.Points([]tune.Axis{ax}, 0, 0)
	r := &scenarioRunner{flags: scenarioFlags{sets: []string{"hpl.n=30000"}}}
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			for b.Loop() {
				if _, err := tune.Sweep(context.Background(), r, points, tune.Options{Jobs: jobs}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(points)*b.N)/b.Elapsed().Seconds(), "points/s")
		})
	}
}
