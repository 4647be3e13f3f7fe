package runner

import (
	"math"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/internal/scenariotest"
)

// TestHostSpeedSlowsReplays: kernels.host_speed (and host_spread) divide
// every duration charged on a host, a replay's too: a TI compute of f flops
// on a host of speed s with factor F lasts f / (s·F), a GOAL calc of d ns
// lasts d / F, and ranks sharing a core share the slowed core. Solved by
// hand on 1 Gflop/s hosts: 1 Gflop alone takes 1 s, at F = 0.5 2 s; two
// ranks' 1 Gflop on one core take 2 s together, at F = 0.5 4 s. Before,
// emu run named the slow host and recorded it in --json, and the replay
// took the same time as without it.
func TestHostSpeedSlowsReplays(t *testing.T) {
	const ti = "0 init\n1 init\n0 compute 1e9\n1 compute 1e9\n0 finalize\n1 finalize\n"
	const goal = "num_ranks 2\nrank 0 {\nl1: calc 1000000000\n}\nrank 1 {\nl1: calc 1000000000\n}\n"
	platform := "[platform]\nspeed = \"1Gf\"\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n"
	for _, tc := range []struct {
		name, file, trace, hosts string
		sets                     []string
		want                     float64 // s
	}{
		{"ti alone", "t.txt", ti, "hosts = 2\n", nil, 1},
		{"ti slowed", "t.txt", ti, "hosts = 2\n", []string{"kernels.host_speed.host-1=0.5"}, 2},
		{"ti faster", "t.txt", ti, "hosts = 2\n", []string{`kernels.host_speed."host-*"=4`}, 0.25},
		{"ti shared core", "t.txt", ti, "hosts = 1\nnp = 2\n", nil, 2},
		{"ti shared core slowed", "t.txt", ti, "hosts = 1\nnp = 2\n", []string{"kernels.host_speed.host-0=0.5"}, 4},
		{"goal alone", "g.goal", goal, "hosts = 2\n", nil, 1},
		{"goal slowed", "g.goal", goal, "hosts = 2\n", []string{"kernels.host_speed.host-1=0.5"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := scenariotest.WriteScenario(t, map[string]string{
				"s.toml": "app = \"replay\"\n[replay]\nfile = \"" + tc.file + "\"\n" + platform + tc.hosts,
				tc.file:  tc.trace,
			})
			p := plantest.Load(t, dir+"/s.toml", tc.sets...)
			res, err := Run(p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Replay.Time; math.Abs(got-tc.want) > 1e-9*tc.want {
				t.Errorf("replay time %.12g s, want %g s", got, tc.want)
			}
		})
	}
}
