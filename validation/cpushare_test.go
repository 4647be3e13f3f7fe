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
	forEachCPUShareCase(t, func(t *testing.T, c cpushareCase) {
		got := replaySMPI(t, filepath.Join(cpuDir, "platforms", c.plat+".xml"), filepath.Join(cpuDir, "traces", c.trace+".txt"), c.sets()...)
		if math.Abs(got-c.want) > tiTolerance {
			t.Errorf("emu %.15f s, SMPI %.15f s: %+.3g s (tolerance %g s)", got, c.want, got-c.want, tiTolerance)
		}
	})
}

// cpushareCase is a row of testdata/cpushare/smpi_times.csv: a trace
// replayed on a platform, placed by a hostfile ("-" for none) and --np,
// under a network model of tiModels, and SimGrid 3.32's time for it.
type cpushareCase struct {
	trace, plat, hostfile, np, model string
	want                             float64 // s
}

// sets are the case's placement (--np, its hostfile) and network model as
// scenario keys.
func (c cpushareCase) sets() []string {
	sets := []string{"platform.np=" + c.np}
	if c.hostfile != "-" {
		hf, _ := filepath.Abs(filepath.Join(cpuDir, "hostfiles", c.hostfile+".txt"))
		sets = append(sets, "platform.hostfile="+strconv.Quote(hf))
	}
	return append(sets, tiModels[c.model]...)
}

// forEachCPUShareCase runs check on every cpushare case as a parallel
// subtest named by its columns.
func forEachCPUShareCase(t *testing.T, check func(*testing.T, cpushareCase)) {
	rows := readSMPITimes(t, filepath.Join(cpuDir, "smpi_times.csv"), "trace,platform,hostfile,np,model,smpi_time_s")
	for i, r := range rows {
		c := cpushareCase{trace: r[0], plat: r[1], hostfile: r[2], np: r[3], model: r[4]}
		var err error
		if c.want, err = strconv.ParseFloat(r[5], 64); err != nil || tiModels[c.model] == nil {
			t.Fatalf("smpi_times.csv:%d: %v", i+2, r)
		}
		t.Run(c.trace+"/"+c.plat+"/"+c.hostfile+"/"+c.np+"/"+c.model, func(t *testing.T) {
			t.Parallel()
			check(t, c)
		})
	}
}
