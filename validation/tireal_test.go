package validation

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"
)

// tiRealDir holds TI traces of real MPI programs (src/), traced by SimGrid
// 3.32's smpirun -trace-ti, with the platforms and SimGrid's replayer's
// times for every pair (testdata/tireal/README.md says how they were made).
const tiRealDir = "testdata/tireal"

// tiRealUnreplayable are the pairs SimGrid 3.32's replayer fails on
// (smpi_times.csv says "failed"), with why.
var tiRealUnreplayable = map[string]string{
	"nas_is_32/fattree/SMPI":    "smpirun -replay reports a deadlock, then aborts on a double free (exit 134)",
	"nas_is_32/fattree/CM02":    "smpirun -replay reports a deadlock, then aborts on a double free (exit 134)",
	"transpose_16/fattree/SMPI": "smpirun -replay segfaults (exit 139) in Bruck's alltoall",
	"transpose_16/fattree/CM02": "smpirun -replay segfaults (exit 139) in Bruck's alltoall",
	"transpose_32/fattree/SMPI": "smpirun -replay segfaults (exit 139) in Bruck's alltoall",
	"transpose_32/fattree/CM02": "smpirun -replay segfaults (exit 139) in Bruck's alltoall",
	"transpose_64/fattree/SMPI": "smpirun -replay crashes (bus error, exit 135) in the same alltoall",
	"transpose_64/fattree/CM02": "smpirun -replay crashes (bus error, exit 135) in the same alltoall",
}

// TestTIRealAgainstSMPI replays the traces of real programs, traced by
// smpirun -trace-ti (a 2-D stencil, a CG-like loop, a transpose, every
// collective at three sizes, row and column communicators, calls.c:
// probes, Test loops, Waitsome, derived datatypes, ..., and SimGrid's copies
// of NAS IS and EP, class S) at 4 to 64 ranks on
// every platform of testdata/tireal, under SimGrid's SMPI and CM02 models,
// and requires SimGrid 3.32's replayer's simulated time to tiTolerance,
// with the settings that model SMPI (replaySMPI).
func TestTIRealAgainstSMPI(t *testing.T) {
	rows := readSMPITimes(t, filepath.Join(tiRealDir, "smpi_times.csv"), "trace,platform,model,ranks,smpi_time_s")
	for i, r := range rows {
		c := tiCase{trace: r[0], platform: r[1], model: r[2], smpi: math.NaN()}
		if tiModels[c.model] == nil {
			t.Fatalf("smpi_times.csv:%d: model %q, want SMPI or CM02", i+2, c.model)
		}
		if r[4] != "failed" {
			var err error
			if c.smpi, err = strconv.ParseFloat(r[4], 64); err != nil {
				t.Fatalf("smpi_times.csv:%d: time %q", i+2, r[4])
			}
		}
		key := c.key()
		t.Run(key, func(t *testing.T) {
			if why, ok := tiRealUnreplayable[key]; ok {
				if !math.IsNaN(c.smpi) {
					t.Fatalf("listed as unreplayable (%s) but smpi_times.csv has %g s", why, c.smpi)
				}
				t.Skip("SimGrid 3.32: " + why)
			}
			if math.IsNaN(c.smpi) {
				t.Fatal("smpi_times.csv: SMPI failed, and tiRealUnreplayable does not say why")
			}
			t.Parallel()
			got := replaySMPI(t, filepath.Join(tiRealDir, "platforms", c.platform+".xml"),
				filepath.Join(tiRealDir, "traces", c.trace+".txt"),
				append([]string{"platform.hostfile=" + strconv.Quote(filepath.Join(tiRealDir, "hostfile.txt"))}, tiModels[c.model]...)...)
			if math.Abs(got-c.smpi) > tiTolerance {
				t.Errorf("emu %.15f s, SMPI %.15f s: %+.3g s (%+.3g%%)", got, c.smpi, got-c.smpi, 100*(got-c.smpi)/c.smpi)
			}
		})
	}
}
