package sensitivity_test

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/emu-hpc/emu/internal/loggopspeers"
	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/sensitivity"
	"github.com/emu-hpc/emu/sensitivity/goal"
)

// peerCurveRel is the agreement required between the curve predicted from
// one replay and LogGOPSim re-run at each latency (the issue asks for 0.1%;
// where the replay's resource order does not change with L they agree to
// rounding).
const peerCurveRel = 1e-9

// TestCurveFromOneReplayMatchesLogGOPSim replays each schedule once at
// L = 3 µs and predicts T over 3–103 µs from the graph; tl_wide.csv holds
// LogGOPSim re-run at every µs. On these schedules LogGOPSim's greedy order
// does not change with L (each rank's operations are chained, or the
// collisions resolve the same way), so the two must agree everywhere.
func TestCurveFromOneReplayMatchesLogGOPSim(t *testing.T) {
	curves := map[string]map[float64]float64{} // schedule → L (ns) → T (ns)
	for name, points := range loggopspeers.MustWideCurves(t, filepath.Join(goalDir, "..")) {
		curves[name] = map[float64]float64{}
		for _, lt := range points {
			curves[name][lt[0]] = lt[1]
		}
	}
	for _, name := range []string{"stencil2d_8x8_it50", "allreduce_ring_fifo_16", "linear_alltoall_32", "resnet_64", "sample_llamp_non_blocking", "trace_bcast_4"} {
		peer := curves[name]
		if len(peer) == 0 {
			t.Errorf("%s: no curve in tl_wide.csv", name)
			continue
		}
		g := replayGraph(t, name, loggops.Params{L: 3e-6, O: 5e-6, G: 0.018e-9, S: 65535})
		rep, err := sensitivity.Analyze(g, sensitivity.Params{L0: 3e-6, Lmin: 3e-6, Lmax: 103e-6, Points: 101})
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for _, c := range rep.Curve {
			want, ok := peer[math.Round(c.L*1e9)]
			if !ok {
				t.Fatalf("%s: LogGOPSim has no point at %v ns", name, c.L*1e9)
			}
			if math.Abs(c.T*1e9-want) > peerCurveRel*want {
				bad++
				if bad <= 3 {
					t.Errorf("%s: T(%v µs) = %.3f ns, LogGOPSim %.3f ns", name, c.L*1e6, c.T*1e9, want)
				}
			}
		}
	}
}

func replayGraph(t *testing.T, name string, p loggops.Params) *sensitivity.Graph {
	t.Helper()
	s := loggopspeers.MustSchedule(t, filepath.Join(goalDir, ".."), name)
	b := sensitivity.NewBuilder(s.NumRanks())
	if _, err := goal.ReplayGraph(s, p, b); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	g, err := b.Build()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return g
}

// TestCurvesOfResultsCSV does the same over 3–13 µs for every schedule of
// results.csv whose GOAL file is at hand (same o, g, G, S per row).
func TestCurvesOfResultsCSV(t *testing.T) {
	num := func(r map[string]string, k string) float64 {
		x, err := strconv.ParseFloat(r[k], 64)
		if err != nil {
			t.Fatalf("results.csv %s: %v", k, err)
		}
		return x
	}
	type key struct {
		name       string
		o, g, G, S float64
	}
	rows := map[key]map[float64]float64{}
	var order []key
	for _, r := range scenariotest.CSVRows(t, filepath.Join(goalDir, "..", "results.csv")) {
		k := key{r["schedule"], num(r, "o_ns"), num(r, "g_ns"), num(r, "G"), num(r, "S_bytes")}
		if _, err := os.Stat(filepath.Join(goalDir, k.name+".goal")); err != nil {
			continue
		}
		if rows[k] == nil {
			rows[k] = map[float64]float64{}
			order = append(order, k)
		}
		rows[k][num(r, "L_ns")] = num(r, "predicted_runtime")
	}
	if len(order) == 0 {
		t.Fatal("no schedule of the vendored results.csv has its GOAL file")
	}
	for _, k := range order {
		g := replayGraph(t, k.name, loggops.Params{L: 3e-6, O: k.o * 1e-9, Gap: k.g * 1e-9, G: k.G * 1e-9, S: int64(k.S)})
		rep, err := sensitivity.Analyze(g, sensitivity.Params{L0: 3e-6, Lmin: 3e-6, Lmax: 13e-6, Points: 11})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range rep.Curve {
			want, ok := rows[k][math.Round(c.L*1e9)]
			if ok && math.Abs(c.T*1e9-want) > peerCurveRel*want {
				t.Errorf("%s: T(%v µs) = %.3f ns, LogGOPSim %.3f ns", k.name, c.L*1e6, c.T*1e9, want)
			}
		}
	}
	t.Logf("%d schedules checked at 11 latencies each", len(order))
}
