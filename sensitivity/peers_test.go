package sensitivity_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/sensitivity"
	"github.com/emu-hpc/emu/sensitivity/goal"
	"github.com/emu-hpc/emu/traceformat"
)

// goalDir holds the GOAL schedules LogGOPSim was run on (shared/reference/
// goal-and-llamp.md §8), beside the checkout.
const goalDir = "../loggops/testdata/loggopsim/goal" // vendored from shared/peers/loggopsim

// maxGlpsolEvents keeps the glpsol runs of the test short: the bigger
// samples take glpsol tens of seconds (resnet_64, 12 864 events, agreed too:
// T = 27 140 291.976 ns, rc(l0) = 60, checked once with this cap raised).
const maxGlpsolEvents = 3100

// TestPeerSchedulesAgainstGlpsol replays every peer GOAL schedule with the
// LogGOPSim parameters of results.csv (L = 3 µs, o = 5 µs, g = 0, G = 0.018
// ns/B, S = 65535), exports the LP and checks glpsol's objective and the
// reduced cost of l0 against the longest path and its slopes.
func TestPeerSchedulesAgainstGlpsol(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(goalDir, "*.goal"))
	if len(files) == 0 {
		t.Fatalf("no GOAL samples in %s", goalDir)
	}
	p := loggops.Params{L: 3e-6, O: 5e-6, G: 0.018e-9, S: 65535}
	checked := 0
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".goal")
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := traceformat.Parse(f, path)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		b := sensitivity.NewBuilder(s.NumRanks())
		res, err := goal.ReplayGraph(s, p, b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		g, err := b.Build()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Events > maxGlpsolEvents || testing.Short() && res.Events > 1000 {
			continue
		}
		tt, left, right, _ := g.Slopes([]float64{p.L}, 0)
		obj, rc := sensitivity.SolveLPWithGlpsol(t, g, sensitivity.LPOptions{Latencies: []float64{p.L}, G: p.G})
		if math.Abs(obj*1e-9-tt) > sensitivity.GlpsolRel*tt {
			t.Errorf("%s: glpsol %v ns, longest path %v s", name, obj, tt)
		}
		tol := sensitivity.GlpsolRel * math.Max(1, math.Abs(rc["l0"]))
		if rc["l0"] < float64(left)-tol || rc["l0"] > float64(right)+tol {
			t.Errorf("%s: reduced cost of l0 %v, slopes [%d, %d]", name, rc["l0"], left, right)
		}
		checked++
		t.Logf("%s: T = %.3f ns, λ_L = %d..%d, glpsol %v ns, rc(l0) = %v", name, tt*1e9, left, right, obj, rc["l0"])
	}
	if checked == 0 {
		t.Error("no schedule was small enough to check")
	}
}
