package validation

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"
)

// profDir holds TI traces replayed on platforms whose links' bandwidth and
// latency and hosts' speed change in time (SimGrid's availability
// profiles), and SimGrid 3.32's replayer's times for each case
// (testdata/profiles/README.md says how they were made).
const profDir = "testdata/profiles"

// profFailing are the cases SimGrid 3.32's replayer does not finish
// (smpi_times.csv says "failed"), with why.
var profFailing = map[string]string{}

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
			if why, ok := profFailing[key]; ok {
				if r[4] != "failed" {
					t.Fatalf("listed as failing in SimGrid (%s) but smpi_times.csv has %s s", why, r[4])
				}
				t.Skip("SimGrid 3.32: " + why)
			}
			want, err := strconv.ParseFloat(r[4], 64)
			if err != nil {
				t.Fatalf("smpi_times.csv:%d: %v", i+2, r)
			}
			t.Parallel()
			xml := filepath.Join(profDir, "platforms", plat+".xml")
			if plat == "sg" {
				xml = filepath.Join(profDir, "sg", "small_platform_profile.xml")
			}
			got := replaySMPI(t, xml, filepath.Join(profDir, "traces", trace+".txt"),
				"platform.np="+np, "platform.hostfile="+strconv.Quote(filepath.Join(profDir, "hostfiles", hostfile+".txt")))
			if math.Abs(got-want) > tiTolerance {
				t.Errorf("emu %.15f s, SMPI %.15f s: %+.3g s (tolerance %g s)", got, want, got-want, tiTolerance)
			}
		})
	}
}
