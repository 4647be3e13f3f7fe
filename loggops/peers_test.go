package loggops

import (
	"testing"

	"github.com/emu-hpc/emu/internal/loggopspeers"
	"github.com/emu-hpc/emu/traceformat"
)

// peerDir holds LogGOPSim's results on the sample schedules
// (shared/reference/goal-and-llamp.md §8, §9), beside the checkout.
const peerDir = "testdata/loggopsim" // vendored from shared/peers/loggopsim

// peerRow is one LogGOPSim run of results.csv (ns, as LogGOPSim writes them).
type peerRow = loggopspeers.Row

// loadPeerResults reads results.csv into schedule → rows sorted by L.
func loadPeerResults(t testing.TB) map[string][]peerRow {
	rows, err := loggopspeers.Results(peerDir)
	if err != nil {
		t.Fatalf("peer results (vendored): %v", err)
	}
	return rows
}

// peerSchedules lists the GOAL files kept beside results.csv, by name.
func peerSchedules(t testing.TB) []string {
	names, err := loggopspeers.Schedules(peerDir)
	if err != nil {
		t.Fatalf("peer GOAL files (vendored): %v", err)
	}
	return names
}

func parsePeer(t testing.TB, name string) *traceformat.Schedule {
	s, err := loggopspeers.Schedule(peerDir, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// loadWideCurves reads tl_wide.csv: LogGOPSim's T(L) for L = 3..103 µs in
// 1 µs steps, schedule → (L ns, T ns) sorted by L.
func loadWideCurves(t testing.TB) map[string][][2]float64 {
	curves, err := loggopspeers.WideCurves(peerDir)
	if err != nil {
		t.Fatalf("tl_wide.csv (vendored): %v", err)
	}
	return curves
}
