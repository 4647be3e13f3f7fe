//go:build linux

package validation

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/emu-hpc/emu/runner"
)

// BenchmarkFig6 runs seed 003's Fig. 6 grid (fig6Cases: 512 to 4,096 ranks × N =
// 0.5 to 4 million on a Stampede-like 4,096-node fat tree), every point whole, and
// reports per point the CPU (getrusage), the peak RSS, HPL's Time and Gflops.
// SMPI took from 20 minutes and 282 MB (the smallest point) to close to 47 hours
// and 16 GB (the largest) for the same grid (seed 003, §V). The whole grid takes
// hours: the points are sub-benchmarks, run one by one, e.g.
// (-update records the point's run in testdata/fig6_whole.csv)
//
//	EMU_LONG=1 nice -n 19 go test -run XXX -bench 'Fig6/fig6_16x32_N500000$' -benchtime 1x -timeout 24h ./validation
//	EMU_LONG=1 nice -n 19 go test -run XXX -bench Fig6 -benchtime 1x -timeout 72h ./validation
func BenchmarkFig6(b *testing.B) {
	if os.Getenv("EMU_LONG") != "1" {
		b.Skip("every point runs whole (minutes to hours): EMU_LONG=1")
	}
	for _, c := range fig6Cases() {
		b.Run(c.name, func(b *testing.B) { benchWholeRun(b, c, recordFig6Whole) })
	}
}

// BenchmarkStampedeWhole runs examples/stampede.toml whole (77×78 ranks on
// 6,006 nodes, N = 3,875,000: 3,785 panels, hours of CPU) and, with -update,
// records it in testdata/stampede_whole.csv, against which
// BenchmarkExtrapolationError and TestStampedeWholeInsideBar check the
// extrapolations from K panels.
//
//	EMU_LONG=1 nice -n 19 go test -run XXX -bench StampedeWhole -benchtime 1x -timeout 24h ./validation -update
func BenchmarkStampedeWhole(b *testing.B) {
	if os.Getenv("EMU_LONG") != "1" {
		b.Skip("the whole run takes hours: EMU_LONG=1")
	}
	c := stampedeCase()
	b.Run(c.name, func(b *testing.B) {
		benchWholeRun(b, c, func(tb testing.TB, w fig6Whole) {
			recordWholeRun(tb, stampedeWholePath, []extrapolationCase{c},
				"# examples/stampede.toml run whole (validation BenchmarkStampedeWhole with -update; EMU_LONG=1).\n", w)
		})
	})
}

// BenchmarkStampedeWholeMerged is BenchmarkStampedeWhole with merged
// long-broadcast rolls (hpl.roll = "merged", an approximation): -update
// records it in testdata/stampede_whole_merged.csv, beside the exact run's
// file, to state the approximation's error on the whole run.
// Sub-benchmarks: merged, merged_local with local re-solves too
// (network.local_solve = true, exact to the bit on Stampede's panels), and
// merged_local_uncontended with the pivot search's exchanges timed as
// wholes too (hpl.pivot_exchange = "uncontended").
func BenchmarkStampedeWholeMerged(b *testing.B) {
	if os.Getenv("EMU_LONG") != "1" {
		b.Skip("the whole run takes an hour or more: EMU_LONG=1")
	}
	cases := []extrapolationCase{stampedeMergedCase(), stampedeMergedLocalCase(), stampedeUncontendedCase()}
	for _, c := range cases {
		b.Run(strings.TrimPrefix(c.name, "stampede_77x78_N3875000_"), func(b *testing.B) {
			benchWholeRun(b, c, func(tb testing.TB, w fig6Whole) {
				recordWholeRun(tb, stampedeWholeMergedPath, cases,
					"# examples/stampede.toml run whole with hpl.roll = \"merged\", with network.local_solve = true too, and with hpl.pivot_exchange = \"uncontended\" too (validation BenchmarkStampedeWholeMerged with -update; EMU_LONG=1).\n", w)
			})
		})
	}
}

// benchWholeRun runs case c whole, reports its cost and HPL result, and with
// -update hands the run to record.
func benchWholeRun(b *testing.B, c extrapolationCase, record func(testing.TB, fig6Whole)) {
	plan := c.plan(b, 0)
	runtime.GC()
	debug.FreeOSMemory()
	resetPeakRSS()
	cpu0, wall0, load0 := cpuSeconds(), time.Now(), loadAverage()
	var res *runner.Result
	for b.Loop() {
		var err error
		if res, err = runner.Run(plan, runner.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	h := res.HPL[0]
	if h.Extrapolated {
		b.Fatalf("%s: extrapolated; want a whole run", c.name)
	}
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s")
	b.ReportMetric(peakRSS()/(1<<20), "peak-rss-MB")
	b.ReportMetric(h.Time, "hpl-time-s")
	b.ReportMetric(h.Gflops, "gflops")
	b.Logf("%s: %d panels, Time %.6g s, %.6g Gflops", c.name, h.Panels, h.Time, h.Gflops)
	if update() {
		load := fmt.Sprintf("%s-%s", load0, loadAverage())
		record(b, fig6Whole{point: c.name, panels: h.Panels, time: h.Time, gflops: h.Gflops,
			cpu: (cpuSeconds() - cpu0) / float64(b.N), wall: time.Since(wall0).Seconds() / float64(b.N),
			peakRSSMB: peakRSS() / (1 << 20), date: time.Now().UTC().Format("2006-01-02"), loadNote: load})
	}
}

// loadAverage is the machine's one-minute load average, as /proc/loadavg says.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b))[0]
}
