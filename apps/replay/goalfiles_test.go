package replay

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/traceformat"
)

// TestGOALFiles replays every GOAL schedule the LogGOPSim study made
// (loggops/testdata/loggopsim: Schedgen's collectives, a stencil, a
// ResNet step, LLAMP's samples; up to 1,024 ranks) on a flat cluster, one
// host per rank, under SMPI's model: each must complete, and twice the same.
func TestGOALFiles(t *testing.T) {
	files, err := filepath.Glob("../../loggops/testdata/loggopsim/goal/*.goal")
	if err != nil || len(files) < 10 {
		t.Fatalf("GOAL files: %v %v", files, err)
	}
	if testing.Short() {
		files = files[:3]
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			tr, err := Load(f, traceformat.FormatAuto)
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

// FuzzReplayGOAL: any GOAL schedule the parser accepts replays to its end,
// or to a deadlock or unmatched-message report, never a panic.
func FuzzReplayGOAL(f *testing.F) {
	for _, s := range []string{
		"num_ranks 2\nrank 0 {\nl1: calc 100\nl2: send 8b to 1 tag 3\nl2 requires l1\n}\nrank 1 {\nrecv 8b from -1 tag -1\n}\n",
		"num_ranks 2\nrank 0 {\nl1: recv 8b from 1\nl2: send 70000b to 1\nl2 irequires l1\n}\nrank 1 {\nl1: send 8b to 0\nl2: recv 70000b from 0\n}\n",
		"num_ranks 1\nrank 0 {\nl1: send 8b to 0\nl2: recv 8b from 0\n}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := traceformat.Parse(strings.NewReader(text), "f.goal")
		if err != nil || checkGOAL(s) != nil || s.NumRanks() > testHosts || s.NumOps() > 256 {
			return
		}
		tr := &traceformat.Trace{Name: "f.goal", Format: traceformat.FormatGOAL, GOAL: s}
		_, err = replayOn(t, cm02(), tr, nil)
		var dl *DeadlockError
		var un *UnmatchedError
		if err != nil && !errors.As(err, &dl) && !errors.As(err, &un) {
			t.Fatalf("replay: %v", err)
		}
	})
}
