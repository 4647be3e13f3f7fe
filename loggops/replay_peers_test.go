package loggops

import (
	"math"
	"testing"

	"github.com/emu-hpc/emu/internal/loggopspeers"
)

// peerTolerance is the relative agreement required with LogGOPSim's
// predicted runtimes (the 0.1 %).
const peerTolerance = 1e-3

// TestReplayMatchesLogGOPSim replays every peer schedule at every L of
// results.csv (3..13 µs) with the o, g, G, S of that row and compares with
// LogGOPSim's predicted_runtime.
func TestReplayMatchesLogGOPSim(t *testing.T) {
	rows := loggopspeers.MustResults(t, peerDir)
	for _, name := range loggopspeers.MustSchedules(t, peerDir) {
		t.Run(name, func(t *testing.T) {
			runs, ok := rows[name]
			if !ok {
				t.Skipf("no LogGOPSim run of %s in results.csv", name)
			}
			s := loggopspeers.MustSchedule(t, peerDir, name)
			worst := 0.0
			for _, row := range runs {
				res, err := Replay(s, peerParams(row))
				if err != nil {
					t.Fatal(err)
				}
				if res.Events != row.Events {
					t.Errorf("L = %g ns: %d events, LogGOPSim %d", row.L, res.Events, row.Events)
				}
				got := res.Runtime * 1e9
				rel := math.Abs(got-row.Runtime) / row.Runtime
				worst = max(worst, rel)
				if rel > peerTolerance {
					t.Errorf("L = %g ns: replay %.3f ns, LogGOPSim %.3f ns (%.2g relative)", row.L, got, row.Runtime, rel)
				}
			}
			t.Logf("%d L values, worst relative difference %.2g", len(runs), worst)
		})
	}
}

// peerParams converts a results.csv row (ns) to Params (s).
func peerParams(row peerRow) Params {
	return Params{L: row.L * 1e-9, O: row.O * 1e-9, Gap: row.Gap * 1e-9, G: row.G * 1e-9, S: row.S}
}

// TestReplayMatchesWideCurves replays the tl_wide.csv schedules at every
// tenth L of 3..103 µs, beyond the range of results.csv.
func TestReplayMatchesWideCurves(t *testing.T) {
	rows := loggopspeers.MustResults(t, peerDir)
	for name, curve := range loggopspeers.MustWideCurves(t, peerDir) {
		runs, ok := rows[name]
		if !ok {
			continue
		}
		t.Run(name, func(t *testing.T) {
			s := loggopspeers.MustSchedule(t, peerDir, name)
			for i := 0; i < len(curve); i += 10 {
				p := peerParams(runs[0])
				p.L = curve[i][0] * 1e-9
				res, err := Replay(s, p)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := res.Runtime*1e9, curve[i][1]; math.Abs(got-want) > peerTolerance*want {
					t.Errorf("L = %g ns: replay %.3f ns, LogGOPSim %.3f ns", curve[i][0], got, want)
				}
			}
		})
	}
}
