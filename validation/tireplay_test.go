package validation

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// tiDir holds the TI traces, the platforms and SimGrid 3.32's replayer's
// times for every pair (testdata/tireplay/README.md says how they were made).
const tiDir = "testdata/tireplay"

// tiTolerance is how close emu's replay must come to SMPI's replayer, in
// seconds: its last printed digit (smpi_times.csv has 15 decimals, so the
// figure is SimGrid's to ±5e-16 s). Every pair but the departures is within
// it (measured: 4.99e-16 s at most), i.e. the same floats.
const tiTolerance = 1e-15

// tiDepartures are the (trace, platform) pairs where emu does not give SMPI's
// time, with the difference measured, (emu − SMPI)/SMPI, and why. None is
// left: the last (the torus with limiters, where flows join others mid-way,
// +3.6%) was SimGrid's user bound, which emu dropped (ranks/transfer.go).
var tiDepartures = map[string]struct {
	measured float64
	why      string
}{}

// tiUnreplayable are the pairs SimGrid 3.32's replayer fails on (smpi_times.csv
// says "failed"), with why.
var tiUnreplayable = map[string]string{
	"alltoall_16/dragonfly/SMPI": "smpirun -replay segfaults (exit 139)",
	"alltoall_16/dragonfly/CM02": "smpirun -replay segfaults (exit 139)",
	"alltoall_16/torus/SMPI":     "smpirun -replay segfaults (exit 139)",
	"alltoall_16/torus/CM02":     "smpirun -replay segfaults (exit 139)",
}

type tiCase struct {
	trace, platform string
	model           string // SimGrid's network/model: SMPI or CM02
	ranks           int
	smpi            float64 // s; NaN where SMPI failed
}

// key names a case in tiDepartures and tiUnreplayable: trace/platform/model.
func (c tiCase) key() string { return c.trace + "/" + c.platform + "/" + c.model }

// tiModels are emu's settings for SimGrid's network/model: SMPI's is emu's
// default model; SimGrid's CM02 keeps network/crosstraffic on (5% of a
// flow on its reverse route), which emu's cm02 preset leaves off.
var tiModels = map[string][]string{
	"SMPI": {"network.model=smpi"},
	"CM02": {"network.model=cm02", "network.cross_traffic=0.05"},
}

func loadTICases(t *testing.T, dir string) []tiCase {
	t.Helper()
	rows := readSMPITimes(t, filepath.Join(dir, "smpi_times.csv"), "trace,platform,model,ranks,smpi_time_s")
	var cases []tiCase
	for i, r := range rows {
		n, err := strconv.Atoi(r[3])
		if err != nil {
			t.Fatalf("smpi_times.csv:%d: ranks %q", i+2, r[3])
		}
		if tiModels[r[2]] == nil {
			t.Fatalf("smpi_times.csv:%d: model %q, want SMPI or CM02", i+2, r[2])
		}
		c := tiCase{trace: r[0], platform: r[1], model: r[2], ranks: n, smpi: math.NaN()}
		if r[4] != "failed" {
			if c.smpi, err = strconv.ParseFloat(r[4], 64); err != nil {
				t.Fatalf("smpi_times.csv:%d: time %q", i+2, r[4])
			}
		}
		cases = append(cases, c)
	}
	return cases
}

// skipUnreplayable skips case c when SimGrid 3.32 cannot replay it, as
// unreplayable (named table) says and smpi_times.csv agrees ("failed"); a
// failure of SMPI the table does not explain, or one it lists that SMPI
// did replay, fails the test.
func skipUnreplayable(t *testing.T, c tiCase, unreplayable map[string]string, table string) {
	t.Helper()
	if why, ok := unreplayable[c.key()]; ok {
		if !math.IsNaN(c.smpi) {
			t.Fatalf("listed as unreplayable (%s) but smpi_times.csv has %g s", why, c.smpi)
		}
		t.Skip("SimGrid 3.32: " + why)
	}
	if math.IsNaN(c.smpi) {
		t.Fatalf("smpi_times.csv: SMPI failed, and %s does not say why", table)
	}
}

// readSMPITimes reads a CSV of SMPI's times under its header (want, the
// columns joined by commas), and returns its rows after the header.
func readSMPITimes(t *testing.T, file, want string) [][]string {
	t.Helper()
	rows := scenariotest.ReadCSV(t, file)
	if len(rows) < 2 || strings.Join(rows[0], ",") != want {
		t.Fatalf("%s: header %v, want %s", filepath.Base(file), rows[:min(1, len(rows))], want)
	}
	return rows[1:]
}

// runTI replays trace on platform as SMPI's replayer does: the platform's
// hosts in the hostfile's order, and replaySMPI's settings.
func runTI(t *testing.T, trace, platform string, extra ...string) float64 {
	t.Helper()
	return replaySMPI(t, filepath.Join(tiDir, "platforms", platform+".xml"), filepath.Join(tiDir, "traces", trace+".txt"),
		append([]string{"platform.hostfile=" + strconv.Quote(filepath.Join(tiDir, "hostfile.txt"))}, extra...)...)
}

// replaySMPI replays the TI trace on the SimGrid platform file under SMPI's
// network model (emu's default), SMPI's default collective selector and
// SimGrid's order within an instant, then the given --set keys, and
// returns the simulated time.
func replaySMPI(t *testing.T, platformXML, trace string, sets ...string) float64 {
	t.Helper()
	got, err := replaySMPIErr(t, platformXML, trace, sets...)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// replaySMPIErr is replaySMPI returning the run's error (bad inputs still
// fail the test).
func replaySMPIErr(t *testing.T, platformXML, trace string, sets ...string) (float64, error) {
	t.Helper()
	s := scenario.Default()
	if err := s.UsePlatformXML(platformXML); err != nil {
		t.Fatal(err)
	}
	if err := s.UseReplay(trace); err != nil {
		t.Fatal(err)
	}
	for _, kv := range append([]string{"network.wake_order=simgrid", "network.collectives=smpi"}, sets...) {
		if err := s.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	plan, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(plan, runner.Options{})
	if err != nil {
		return 0, err
	}
	return res.SimulatedTime, nil
}

// TestTIReplayAgainstSMPI replays every trace of testdata/tireplay on every
// platform there and requires SimGrid 3.32's replayer's simulated time to
// tiTolerance, but for the known departures (within 0.1 percentage point of
// their measured difference) and the pairs SimGrid cannot replay. The
// settings are those that model SMPI: its network model (emu's default),
// SimGrid's order within an instant, and the algorithms SMPI's default
// collective selector runs at these sizes (runTI).
func TestTIReplayAgainstSMPI(t *testing.T) {
	for _, c := range loadTICases(t, tiDir) {
		key := c.key()
		t.Run(key, func(t *testing.T) {
			skipUnreplayable(t, c, tiUnreplayable, "tiUnreplayable")
			t.Parallel()
			got := runTI(t, c.trace, c.platform, tiModels[c.model]...)
			rel := (got - c.smpi) / c.smpi
			if d, ok := tiDepartures[key]; ok {
				t.Logf("known departure %+.4g%% (measured %+.4g%%): %s", 100*rel, 100*d.measured, d.why)
				if math.Abs(rel-d.measured) > 1e-3 {
					t.Errorf("emu %.12f s, SMPI %.12f s: %+.4g%%, the known departure was %+.4g%%", got, c.smpi, 100*rel, 100*d.measured)
				}
				return
			}
			if math.Abs(got-c.smpi) > tiTolerance {
				t.Errorf("%s: emu %.15f s, SMPI %.15f s: %+.3g s (tolerance %g s)", key, got, c.smpi, got-c.smpi, tiTolerance)
			}
		})
	}
}
