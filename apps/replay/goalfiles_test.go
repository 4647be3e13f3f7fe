package replay

import (
	"path/filepath"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/ranks"
)

// TestGOALFiles replays every GOAL schedule the LogGOPSim study made
// (sensitivity/goal/testdata/loggopsim: Schedgen's collectives, a stencil, a
// ResNet step, LLAMP's samples; up to 1,024 ranks) on a flat cluster, one
// host per rank, under SMPI's model: each must complete, and twice the same.
func TestGOALFiles(t *testing.T) {
	files, err := filepath.Glob("../../sensitivity/goal/testdata/loggopsim/goal/*.goal")
	if err != nil || len(files) < 10 {
		t.Fatalf("GOAL files: %v %v", files, err)
	}
	if testing.Short() {
		files = files[:3]
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			tr, err := Load(f, FormatAuto)
			if err != nil {
				t.Fatal(err)
			}
			run := func() float64 {
				n := tr.Ranks()
				topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: n, Link: fluid.LinkSpec{Bandwidth: 1.25e9, Latency: 1e-6}})
				if err != nil {
					t.Fatal(err)
				}
				hosts := make([]int, n)
				for i := range hosts {
					hosts[i] = i
				}
				w, err := ranks.NewWorld(ranks.DefaultConfig(), topo, hosts, 1)
				if err != nil {
					t.Fatal(err)
				}
				res, err := Run(w, tr, Config{Speed: testSpeed})
				if err != nil {
					t.Fatal(err)
				}
				return res.Time
			}
			if a, b := run(), run(); a != b || !(a > 0) {
				t.Errorf("times %g and %g", a, b)
			}
		})
	}
}
