package goal

import (
	"math"
	"testing"

	"github.com/emu-hpc/emu/internal/loggopspeers"
	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/sensitivity"
	"github.com/emu-hpc/emu/traceformat"
)

// graphTolerance is the relative difference allowed between the graph's
// longest path and the replay (or LogGOPSim) at one L: the same sums, once
// in integer ps and once in float64 seconds over up to 10⁵ edges.
const graphTolerance = 1e-9

// peerGraph replays a peer schedule at the first L of results.csv and
// returns the recorded graph with the replay's result.
func peerGraph(t *testing.T, name string, row peerRow) (*traceformat.Schedule, *sensitivity.Graph, *loggops.Result) {
	s := loggopspeers.MustSchedule(t, peerDir, name)
	b := sensitivity.NewBuilder(s.NumRanks())
	res, err := ReplayGraph(s, peerParams(row), b)
	if err != nil {
		t.Fatal(err)
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return s, g, res
}

// TestGraphCurveMatchesLogGOPSim records each peer schedule's graph once,
// at L = 3 µs, and checks (1) its longest path at ℓ = 3 µs equals the
// replay, (2) at every other L of results.csv (3..13 µs) and of
// tl_wide.csv (3..103 µs) it equals LogGOPSim's runtime, although
// LogGOPSim re-simulated each L. That holds because on these schedules
// LogGOPSim's CPU and NIC order does not change with L: the graph keeps
// the order of the 3 µs run and only the message edges grow. (The
// stencil's bend at 15 µs, where its latency stops hiding behind compute,
// comes out of the graph too.) Schedules whose order does flip are tested
// in TestGraphOrderFlip.
func TestGraphCurveMatchesLogGOPSim(t *testing.T) {
	rows := loggopspeers.MustResults(t, peerDir)
	wide := loggopspeers.MustWideCurves(t, peerDir)
	for _, name := range loggopspeers.MustSchedules(t, peerDir) {
		t.Run(name, func(t *testing.T) {
			runs, ok := rows[name]
			if !ok {
				t.Skip("no LogGOPSim run")
			}
			s, g, res := peerGraph(t, name, runs[0])
			if T := g.Runtime([]float64{runs[0].L * 1e-9}); math.Abs(T-res.Runtime) > graphTolerance*res.Runtime {
				t.Fatalf("graph T(%g ns) = %.6f ns, replay %.6f ns", runs[0].L, T*1e9, res.Runtime*1e9)
			}
			points := 0
			check := func(L, want float64) {
				points++
				if T := g.Runtime([]float64{L * 1e-9}) * 1e9; math.Abs(T-want) > graphTolerance*want {
					t.Errorf("L = %g ns: graph %.3f ns, LogGOPSim %.3f ns", L, T, want)
				}
			}
			for _, row := range runs {
				check(row.L, row.Runtime)
			}
			for _, pt := range wide[name] {
				check(pt[0], pt[1])
			}
			t.Logf("%d ops → %d vertices, %d edges; %d points of LogGOPSim's curve", s.NumOps(), g.NumVertices(), g.NumEdges(), points)
		})
	}
}

// TestStencilCriticalLatency analyses the 8×8 stencil's graph, recorded
// once at 3 µs, over 3–103 µs: LogGOPSim's wide sweep (tl_wide.csv) is flat
// at 2 529 487.6 ns up to 15 µs and then grows by 50 ns per ns (one
// message per iteration), so the only critical latency is 15 µs, where
// 1 779 487.6 + 50·L meets the flat part.
func TestStencilCriticalLatency(t *testing.T) {
	rows := loggopspeers.MustResults(t, peerDir)
	runs, ok := rows["stencil2d_8x8_it50"]
	if !ok {
		t.Skip("no LogGOPSim run")
	}
	_, g, _ := peerGraph(t, "stencil2d_8x8_it50", runs[0])
	rep, err := sensitivity.Analyze(g, sensitivity.Params{L0: 3e-6, Lmin: 3e-6, Lmax: 103e-6})
	if err != nil {
		t.Fatal(err)
	}
	const critTolerance = 1e-12 // s
	if len(rep.CriticalLatencies) != 1 || math.Abs(rep.CriticalLatencies[0]-15e-6) > critTolerance {
		t.Fatalf("critical latencies %v s, want [15 µs]", rep.CriticalLatencies)
	}
	if rep.LambdaL != 0 {
		t.Errorf("λ_L at 3 µs = %d, want 0", rep.LambdaL)
	}
	last := rep.Breakpoints[len(rep.Breakpoints)-1]
	if last.LambdaRight != 50 {
		t.Errorf("slope after 15 µs = %d, want 50", last.LambdaRight)
	}
}
