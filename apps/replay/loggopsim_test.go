package replay

import (
	"fmt"
	"math"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/ranks"
)

// logGP is LogGOPSim's parameter set of the study's runs
// (sensitivity/goal/testdata/loggopsim/results.csv: L = 3 µs, o = 5 µs,
// G = 0.018 ns/byte, g = 0, S = 65535 bytes).
var logGP = struct{ L, o, G float64 }{3e-6, 5e-6, 0.018e-9}

// logGPWorld maps LogGP onto emu's model: the send and receive overheads
// (smpi/os, ois, or) are o, a host-to-host route has latency L (two links
// of L/2) and bandwidth 1/G, no envelope, no factors, detached below
// S + 1 = 65536 bytes. The mapping is exact for a message that finds both
// CPUs free but for one byte: LogGOPSim charges (s−1)·G, emu s/B.
func logGPWorld(t testing.TB, n int) *ranks.World {
	cfg, _ := ranks.Preset("cm02")
	cfg.Envelope, cfg.TCPGamma = 0, 0
	o := ranks.ConstTable(logGP.o)
	cfg.SendOverhead, cfg.IsendOverhead, cfg.RecvOverhead = o, o, o
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: n, Link: fluid.LinkSpec{Bandwidth: 1 / logGP.G, Latency: logGP.L / 2}})
	if err != nil {
		t.Fatal(err)
	}
	hosts := make([]int, n)
	for i := range hosts {
		hosts[i] = i
	}
	w, err := ranks.NewWorld(cfg, topo, hosts, 1)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestLogGOPSimMapping replays GOAL schedules under the LogGP mapping and
// compares with LogGOPSim's runtime (results.csv at L = 3 µs). The allowed
// difference is G per message on the critical path, the (s−1) against s of
// the mapping. The mapping does not hold everywhere: trace_bcast_4, whose
// root posts two sends at once, replays in 85.0 µs against LogGOPSim's 73.0
// (not investigated yet; LogGOPSim charges a receive's overhead at the
// message's arrival, emu when the receive completes).
func TestLogGOPSimMapping(t *testing.T) {
	for _, tc := range []struct {
		file     string
		loggop   float64 // s, LogGOPSim's runtime
		messages int     // on the critical path
	}{
		{"sample_llamp_blocking", 16000.054e-9, 1},
		{"sample_llamp_non_blocking", 16000.054e-9, 1},
		{"sample_binary_tree_32", 65000e-9, 5},
	} {
		t.Run(tc.file, func(t *testing.T) {
			tr, err := Load(fmt.Sprintf("../../sensitivity/goal/testdata/loggopsim/goal/%s.goal", tc.file), FormatAuto)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(logGPWorld(t, tr.Ranks()), tr, Config{Speed: testSpeed})
			if err != nil {
				t.Fatal(err)
			}
			if d := res.Time - tc.loggop; math.Abs(d) > float64(tc.messages)*logGP.G+timeTol {
				t.Errorf("emu %.12g s, LogGOPSim %.12g s: %.3g s apart, more than G per message", res.Time, tc.loggop, d)
			}
		})
	}
}
