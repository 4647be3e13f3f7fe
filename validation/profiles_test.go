package validation

import (
	"errors"
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/emu-hpc/emu/apps/replay"
)

// profDir holds TI traces replayed on platforms whose links' bandwidth and
// latency and hosts' speed change in time (SimGrid's availability
// profiles), and SimGrid 3.32's replayer's times for each case
// (testdata/profiles/README.md says how they were made).
const profDir = "testdata/profiles"

// profFailing are the cases SimGrid 3.32's replayer does not finish
// (smpi_times.csv says "failed"): it reports a deadlock at the date given
// (its log, 6 decimals), with why. Each is a message whose latency phase
// held a change of a link it crosses: SimGrid enables its variable at the
// change and, at the phase's end, projects no completion, so it stalls
// until a later change re-rates it, and here none comes before every rank
// waits on it. emu under SimGrid's order stalls it too, and must report
// its deadlock at the same date.
var profFailing = map[string]struct {
	at  float64
	why string
}{
	"pingpong/bw":      {0.042451, "a 3 MB message"},
	"compute/bw":       {0.405048, "a message of a compute's rank"},
	"allreduce/bwonly": {0.176528, "the second allreduce"},
	"sgpp/sg":          {4.120605, "on SimGrid's own example platform"},
	"stall/bwonly":     {0.030349, "the end of the one message's latency phase, in which la's bandwidth changed (nostall: the same message 5 ms later)"},
}

// TestProfilesAgainstSMPI replays each case of testdata/profiles and
// requires SimGrid 3.32's replayer's time to its printed digit
// (tiTolerance): the flows crossing a link whose bandwidth changes are
// re-rated at the change, a message starting after a latency change
// has the new latency, and a compute integrates its flops over its host's
// speed in time.
func TestProfilesAgainstSMPI(t *testing.T) {
	rows := readSMPITimes(t, filepath.Join(profDir, "smpi_times.csv"), "trace,platform,hostfile,np,smpi_time_s")
	for i, r := range rows {
		trace, plat, hostfile, np := r[0], r[1], r[2], r[3]
		key := trace + "/" + plat
		t.Run(key, func(t *testing.T) {
			xml := filepath.Join(profDir, "platforms", plat+".xml")
			if plat == "sg" {
				xml = filepath.Join(profDir, "sg", "small_platform_profile.xml")
			}
			run := func() (float64, error) {
				return replaySMPIErr(t, xml, filepath.Join(profDir, "traces", trace+".txt"),
					"platform.np="+np, "platform.hostfile="+strconv.Quote(filepath.Join(profDir, "hostfiles", hostfile+".txt")))
			}
			if f, ok := profFailing[key]; ok {
				if r[4] != "failed" {
					t.Fatalf("listed as failing in SimGrid (%s) but smpi_times.csv has %s s", f.why, r[4])
				}
				got, err := run()
				var dl *replay.DeadlockError
				if !errors.As(err, &dl) || dl.Stalled == 0 {
					t.Fatalf("SimGrid 3.32 reports a deadlock at %g s (%s); emu: %v s, %v", f.at, f.why, got, err)
				}
				if math.Abs(dl.Time-f.at) > 5e-7 {
					t.Errorf("emu's deadlock at %.9f s, SimGrid's at %g s", dl.Time, f.at)
				}
				return
			}
			want, err := strconv.ParseFloat(r[4], 64)
			if err != nil {
				t.Fatalf("smpi_times.csv:%d: %v", i+2, r)
			}
			t.Parallel()
			got, err := run()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("emu %.15f s, SMPI %.15f s: %+.3g s", got, want, got-want)
			if math.Abs(got-want) > tiTolerance {
				t.Errorf("emu %.15f s, SMPI %.15f s: %+.3g s (tolerance %g s)", got, want, got-want, tiTolerance)
			}
		})
	}
}
