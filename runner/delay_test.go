package runner

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/sensitivity"
)

// TestDelaySensitivityPingpong: a ping-pong of k round trips (a replayed
// trace, nothing else) has T(d) = T(0) + 2k·d and M(d) = M(0) + d under a
// constant injected delay d, and m̄ = 2·2k/2 = 2k, so the fit gives slope 2k,
// R² = 1 and c_a = 1 (the normalisation's definition, sensitivity.DelaySensitivity).
func TestDelaySensitivityPingpong(t *testing.T) {
	const k = 7
	var trace strings.Builder
	for i := 0; i < k; i++ {
		trace.WriteString("0 send 1 0 8\n1 recv 0 0 8\n1 send 0 0 8\n0 recv 1 0 8\n")
	}
	p := replayPlan(t, trace.String(), "network.model=cm02")
	pts, err := DelaySweep(p, sweepDelays, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range pts[1:] {
		if !nearRel(pt.M-pts[0].M, pt.Delay) || !nearRel(pt.T-pts[0].T, 2*k*pt.Delay) {
			t.Errorf("delay %g s: M %+.6g s, T %+.6g s over the undelayed run; want +d and +2k·d", pt.Delay, pt.M-pts[0].M, pt.T-pts[0].T)
		}
	}
	d, err := sensitivity.FitDelay("pingpong", p.Ranks, pts)
	if err != nil {
		t.Fatal(err)
	}
	if !nearRel(d.Slope, 2*k) || !nearRel(d.R2, 1) || d.MessagesPerRank != 2*k || !nearRel(d.CA, 1) {
		t.Errorf("slope %v (want %d), R² %v, m̄ %v (want %d), c_a %v (want 1)", d.Slope, 2*k, d.R2, d.MessagesPerRank, 2*k, d.CA)
	}
}

// TestDelaySensitivityRing: the ring app on n ranks, k laps, starts with a
// dissemination barrier (⌈log₂ n⌉ rounds, each rank sending and receiving one
// message a round), then passes the token n·(k+1) times in sequence (one
// untimed lap first). Under a constant delay d every one of those steps waits
// d longer:
//
//	slope = ⌈log₂ n⌉ + n·(k+1),   m̄ = 2·(n⌈log₂ n⌉ + n·(k+1))/n = 2(⌈log₂ n⌉ + k+1),
//	c_a = (⌈log₂ n⌉ + n·(k+1)) / (2(⌈log₂ n⌉ + k+1))
//
// n = 4, k = 3: slope 18, m̄ 12, c_a 1.5.
func TestDelaySensitivityRing(t *testing.T) {
	const n, k = 4, 3
	dir := scenariotest.WriteScenario(t, map[string]string{"s.toml": fmt.Sprintf(`app = "ring"
[platform]
hosts = %d
link_bandwidth = "10GBps"
link_latency = "1us"
[network]
model = "cm02"
[ring]
sizes = [8]
iterations = %d
`, n, k)})
	p := plantest.Load(t, filepath.Join(dir, "s.toml"))
	pts, err := DelaySweep(p, sweepDelays, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := sensitivity.FitDelay("ring", p.Ranks, pts)
	if err != nil {
		t.Fatal(err)
	}
	if !nearRel(d.Slope, 18) || d.MessagesPerRank != 12 || !nearRel(d.CA, 1.5) || !nearRel(d.R2, 1) {
		t.Errorf("slope %v (want 18), m̄ %v (want 12), c_a %v (want 1.5), R² %v", d.Slope, d.MessagesPerRank, d.CA, d.R2)
	}
}

// TestDelaySweepSeeded: exponential delays are drawn from the scenario's
// seed: the same seed gives the same T and M, another seed other ones.
func TestDelaySweepSeeded(t *testing.T) {
	trace := strings.Repeat("0 send 1 0 8\n1 recv 0 0 8\n1 send 0 0 8\n0 recv 1 0 8\n", 20)
	sweep := func(seed string) []sensitivity.DelayPoint {
		p := replayPlan(t, trace, "network.model=cm02", "network.message_delay_dist=exp", "seed="+seed)
		pts, err := DelaySweep(p, []float64{1e-6}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return pts
	}
	a, b, c := sweep("1"), sweep("1"), sweep("2")
	if a[0] != b[0] {
		t.Errorf("seed 1 twice: %+v and %+v", a[0], b[0])
	}
	if a[0].T == c[0].T {
		t.Errorf("seeds 1 and 2 give the same time %v", a[0].T)
	}
}

var sweepDelays = []float64{0, 1e-6, 2e-6, 5e-6} // s

func nearRel(a, b float64) bool { return math.Abs(a-b) <= delayEps*math.Max(1e-12, math.Abs(b)) }

// delayEps is the relative tolerance on fitted slopes and c_a: the runs'
// times are sums of a few floats, so only rounding separates the fit from
// the closed form.
const delayEps = 1e-9
