package validation

import (
	"math"
	"testing"

	"github.com/emu-hpc/emu/runner"
)

// TestStampedeWholeInsideBar checks issue 13's criterion on the recorded whole
// runs of examples/stampede.toml, with HPL's rolls (testdata/stampede_whole.csv)
// and merged ones (hpl.roll = "merged", with and without local re-solves,
// and with uncontended pivot exchanges too: testdata/stampede_whole_merged.csv):
// each Time lies inside the interval a 16-panel extrapolation of the same
// settings states. The extrapolations cost about a CPU minute each, so they
// run with -emu.slow:
//
//	go test -count=1 -run TestStampedeWholeInsideBar ./validation -emu.slow
func TestStampedeWholeInsideBar(t *testing.T) {
	for _, tc := range []struct {
		c    extrapolationCase
		path string
	}{{stampedeCase(), stampedeWholePath}, {stampedeMergedCase(), stampedeWholeMergedPath}, {stampedeMergedLocalCase(), stampedeWholeMergedPath},
		{stampedeUncontendedCase(), stampedeWholeMergedPath}} {
		t.Run(tc.c.name, func(t *testing.T) {
			c, path := tc.c, tc.path
			whole, ok := readWholeRuns(t, path)[c.name]
			if !ok {
				t.Skipf("%s: no whole run recorded yet (BenchmarkStampedeWhole -update, hours of CPU)", path)
			}
			const n, nb = 3875000, 1024 // examples/stampede.toml's N and NB
			if want := (n + nb - 1) / nb; whole.panels != want {
				t.Fatalf("%s: %d panels recorded, a whole run has %d", path, whole.panels, want)
			}
			if g := (2.0/3*n*n*n + 1.5*n*n) / whole.time / 1e9; math.Abs(g-whole.gflops) > 1e-6*g {
				t.Fatalf("%s: %.3f Gflops recorded, %.3f from its Time", path, whole.gflops, g)
			}
			if !*slow {
				t.Skip("the 16-panel extrapolation takes a CPU minute: -emu.slow")
			}
			res, err := runner.Run(c.plan(t, 16), runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			h := res.HPL[0]
			if !h.Extrapolated || h.ExpectedError <= 0 {
				t.Fatalf("K=16: extrapolated %v, stated error %g s; want an extrapolation with a bar", h.Extrapolated, h.ExpectedError)
			}
			t.Logf("K=16: %.6g s ± %.4g s (±%.2f%%); whole %.6g s (%+.2f%%)", h.Time, h.ExpectedError,
				100*h.ExpectedError/h.Time, whole.time, 100*(h.Time-whole.time)/whole.time)
			if math.Abs(h.Time-whole.time) > h.ExpectedError {
				t.Errorf("whole Time %.6g s outside K=16's %.6g ± %.4g s", whole.time, h.Time, h.ExpectedError)
			}
		})
	}
}
