package loggops

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/traceformat"
)

// peerDir holds LogGOPSim's results on the sample schedules
// (shared/reference/goal-and-llamp.md §8, §9), beside the checkout.
const peerDir = "testdata/loggopsim" // vendored from shared/peers/loggopsim

// peerRow is one LogGOPSim run of results.csv.
type peerRow struct {
	ranks, goalOps, messages int
	events                   int64   // LogGOPSim's event count: ops + messages
	L, o, g, G               float64 // ns, ns, ns, ns/byte
	S                        int64
	runtime                  float64 // predicted_runtime, ns
}

// loadPeerResults reads results.csv into schedule → rows sorted by L.
func loadPeerResults(t testing.TB) map[string][]peerRow {
	f, err := os.Open(filepath.Join(peerDir, "results.csv"))
	if err != nil {
		t.Fatalf("peer results (vendored): %v", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, h := range []string{"schedule", "ranks", "events", "L_ns", "o_ns", "G", "predicted_runtime", "goal_ops", "messages", "g_ns", "S_bytes"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("results.csv has no column %q", h)
		}
	}
	num := func(rec []string, h string) float64 {
		v, err := strconv.ParseFloat(rec[col[h]], 64)
		if err != nil {
			t.Fatalf("results.csv %s %s: %v", rec[0], h, err)
		}
		return v
	}
	out := map[string][]peerRow{}
	for _, rec := range recs[1:] {
		out[rec[0]] = append(out[rec[0]], peerRow{
			events: int64(num(rec, "events")),
			ranks:  int(num(rec, "ranks")), goalOps: int(num(rec, "goal_ops")), messages: int(num(rec, "messages")),
			L: num(rec, "L_ns"), o: num(rec, "o_ns"), g: num(rec, "g_ns"), G: num(rec, "G"),
			S: int64(num(rec, "S_bytes")), runtime: num(rec, "predicted_runtime"),
		})
	}
	for _, rows := range out {
		sort.Slice(rows, func(i, j int) bool { return rows[i].L < rows[j].L })
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

func parsePeer(t testing.TB, name string) *traceformat.Schedule {
	f, err := os.Open(filepath.Join(peerDir, "goal", name+".goal"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := traceformat.Parse(f, name+".goal")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// loadWideCurves reads tl_wide.csv: LogGOPSim's T(L) for L = 3..103 µs in
// 1 µs steps, schedule → (L ns, T ns) sorted by L.
func loadWideCurves(t testing.TB) map[string][][2]float64 {
	f, err := os.Open(filepath.Join(peerDir, "tl_wide.csv"))
	if err != nil {
		t.Fatalf("tl_wide.csv (vendored): %v", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 || len(recs[0]) != 3 || recs[0][1] != "L_ns" || recs[0][2] != "predicted_runtime_ns" {
		t.Fatalf("tl_wide.csv: unexpected header %v", recs[0])
	}
	out := map[string][][2]float64{}
	for _, rec := range recs[1:] {
		L, err1 := strconv.ParseFloat(rec[1], 64)
		T, err2 := strconv.ParseFloat(rec[2], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("tl_wide.csv: bad row %v", rec)
		}
		out[rec[0]] = append(out[rec[0]], [2]float64{L, T})
	}
	for _, c := range out {
		sort.Slice(c, func(i, j int) bool { return c[i][0] < c[j][0] })
	}
	return out
}
