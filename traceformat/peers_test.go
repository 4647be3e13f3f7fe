package traceformat

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
)

// peerDir holds LogGOPSim's results on the sample schedules
// (shared/reference/goal-and-llamp.md §8, §9), vendored beside the engine
// they check.
const peerDir = "../loggops/testdata/loggopsim" // vendored from shared/peers/loggopsim

// peerCounts is what txt2bin reported of one schedule (results.csv).
type peerCounts struct{ ranks, goalOps, messages int }

// loadPeerCounts reads results.csv's first row of each schedule.
func loadPeerCounts(t testing.TB) map[string]peerCounts {
	recs := scenariotest.ReadCSV(t, filepath.Join(peerDir, "results.csv"))
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, h := range []string{"schedule", "ranks", "goal_ops", "messages"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("results.csv has no column %q", h)
		}
	}
	num := func(rec []string, h string) int {
		v, err := strconv.Atoi(rec[col[h]])
		if err != nil {
			t.Fatalf("results.csv %s %s: %v", rec[0], h, err)
		}
		return v
	}
	out := map[string]peerCounts{}
	for _, rec := range recs[1:] {
		if _, ok := out[rec[0]]; !ok {
			out[rec[0]] = peerCounts{ranks: num(rec, "ranks"), goalOps: num(rec, "goal_ops"), messages: num(rec, "messages")}
		}
	}
	return out
}

// peerSchedules lists the GOAL files kept beside results.csv, by name.
func peerSchedules(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join(peerDir, "goal", "*.goal"))
	if err != nil || len(files) == 0 {
		t.Fatalf("peer GOAL files (vendored): %v", err)
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".goal"))
	}
	return names
}

func parsePeer(t testing.TB, name string) *Schedule {
	f, err := os.Open(filepath.Join(peerDir, "goal", name+".goal"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := Parse(f, name+".goal")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
