package validation

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"
)

// cpuDir holds TI traces whose ranks share a host's cores, the platforms and
// hostfiles that place them, and SimGrid 3.32's replayer's times for each
// case (testdata/cpushare/README.md says how they were made).
const cpuDir = "testdata/cpushare"

// TestCPUSharingAgainstSMPI replays each case of testdata/cpushare (2, 3 and
// 6 ranks placed 2 and 3 to a 1-core host, 3 and 6 to a 2-core host, by
// hostfiles naming a host several times and by --np wrapping over a
// hostfile or over every host) and requires SimGrid 3.32's replayer's time
// to its printed digit (tiTolerance): the ranks' computes share their
// host's cores as SimGrid's CPU model shares them, while their sleeps and
// messages go on.
func TestCPUSharingAgainstSMPI(t *testing.T) {
	rows := readSMPITimes(t, filepath.Join(cpuDir, "smpi_times.csv"), "trace,platform,hostfile,np,model,smpi_time_s")
	for i, r := range rows {
		trace, plat, hostfile, np, model := r[0], r[1], r[2], r[3], r[4]
		want, err := strconv.ParseFloat(r[5], 64)
		if err != nil || tiModels[model] == nil {
			t.Fatalf("smpi_times.csv:%d: %v", i+2, r)
		}
		t.Run(trace+"/"+plat+"/"+hostfile+"/"+np+"/"+model, func(t *testing.T) {
			t.Parallel()
			sets := []string{"platform.np=" + np}
			if hostfile != "-" {
				sets = append(sets, "platform.hostfile="+strconv.Quote(filepath.Join(cpuDir, "hostfiles", hostfile+".txt")))
			}
			got := replaySMPI(t, filepath.Join(cpuDir, "platforms", plat+".xml"), filepath.Join(cpuDir, "traces", trace+".txt"),
				append(sets, tiModels[model]...)...)
			if math.Abs(got-want) > tiTolerance {
				t.Errorf("emu %.15f s, SMPI %.15f s: %+.3g s (tolerance %g s)", got, want, got-want, tiTolerance)
			}
		})
	}
}
