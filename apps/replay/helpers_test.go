package replay

import (
	"strings"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/traceformat"
)

// Platform of the tests: a 1-D torus of 8 hosts (a route to the host d
// steps away crosses d links) at 1 GB/s and 1 µs a link.
const (
	testBandwidth = 1e9  // B/s
	testLatency   = 1e-6 // s per link
	testHosts     = 8
	testSpeed     = 1e9   // flop/s
	timeTol       = 1e-15 // s: the closed forms are a handful of float operations
)

func testTorus(t testing.TB) fluid.Topology {
	t.Helper()
	topo, err := fluid.NewTorus(fluid.TorusConfig{Dims: []int{testHosts},
		Link: fluid.LinkSpec{Bandwidth: testBandwidth, Latency: testLatency}})
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// cm02 is plain max-min without the TCP window bound: a lone message
// moves at its route's bandwidth.
func cm02() ranks.Config {
	cfg, _ := ranks.Preset("cm02")
	cfg.TCPGamma = 0
	return cfg
}

// replayOn runs trace on n ranks placed on the given hosts (nil: rank i on
// host i) of the test torus.
func replayOn(t testing.TB, cfg ranks.Config, tr *traceformat.Trace, hosts []int) (*Result, error) {
	t.Helper()
	if hosts == nil {
		for i := 0; i < tr.Ranks(); i++ {
			hosts = append(hosts, i%testHosts)
		}
	}
	w, err := ranks.NewWorld(cfg, testTorus(t), hosts, 1)
	if err != nil {
		t.Fatal(err)
	}
	return Run(w, tr, Config{Speed: testSpeed})
}

// ti parses a one-file TI trace given as lines.
func ti(t testing.TB, lines ...string) *traceformat.Trace {
	t.Helper()
	tr, err := traceformat.ParseTI(strings.NewReader(strings.Join(lines, "\n")+"\n"), "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
