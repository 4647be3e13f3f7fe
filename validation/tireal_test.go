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
	for _, c := range loadTICases(t, tiRealDir) {
		t.Run(c.key(), func(t *testing.T) {
			skipUnreplayable(t, c, tiRealUnreplayable, "tiRealUnreplayable")
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
