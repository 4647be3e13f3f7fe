package runner

import (
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/scenario"
)

// TestBounds checks seed 002's two bounds against what they must be.
// Contention-free: on the all-to-all of examples/, the 4:1 tapered fat tree
// and the full one give the same time to the bit (no flow shares a link, and
// their routes have the same links and latencies), below the contended full
// tree's. Compute-only: the all-to-all, which computes nothing, takes no
// time; HPL 2×2 takes at least its busiest rank's kernels, at most the
// contention-free run, which takes at most the run.
func TestBounds(t *testing.T) {
	run := func(file, bound string, sets ...string) *Result {
		t.Helper()
		p := plantest.Load(t, file, sets...)
		if bound != "" {
			if err := p.ApplyBound(bound); err != nil {
				t.Fatal(err)
			}
		}
		res, err := Run(p, Options{Bound: bound, Kernels: &observe.KernelLog{}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Bound != bound {
			t.Errorf("result's bound %q, want %q", res.Bound, bound)
		}
		return res
	}
	full := run("../examples/alltoall-full.toml", "").SimulatedTime
	cfFull := run("../examples/alltoall-full.toml", scenario.BoundContentionFree).SimulatedTime
	cfTapered := run("../examples/alltoall-tapered.toml", scenario.BoundContentionFree).SimulatedTime
	if cfFull != cfTapered || !(cfFull < full) {
		t.Errorf("all-to-all contention-free: full tree %g s, tapered %g s (want equal), contended full tree %g s", cfFull, cfTapered, full)
	}
	t.Logf("all-to-all: contended full tree %.6g s, contention-free %.6g s (full and tapered)", full, cfFull)
	if co := run("../examples/alltoall-full.toml", scenario.BoundComputeOnly).SimulatedTime; co > 1e-15 {
		t.Errorf("all-to-all compute-only: %g s, want 0 (it computes nothing)", co)
	}

	hpl := []string{"hpl.n=2000", "hpl.nb=64", "hpl.grids=2x2", "platform.hosts=4", "platform.cores_per_host=1", "platform.sockets_per_host=1",
		"platform.link_latency=20us", "kernels.noise=false"}
	base := run("../examples/dahu/dahu.toml", "", hpl...)
	cf := run("../examples/dahu/dahu.toml", scenario.BoundContentionFree, hpl...)
	co := run("../examples/dahu/dahu.toml", scenario.BoundComputeOnly, hpl...)
	perRank := 0.0
	for _, k := range co.Kernels {
		perRank += k.Seconds
	}
	perRank /= 4 // the ranks' mean: the busiest is at least that
	if !(co.SimulatedTime >= perRank && co.SimulatedTime <= cf.SimulatedTime && cf.SimulatedTime <= base.SimulatedTime) {
		t.Errorf("HPL 2×2: compute-only %g s (mean kernels %g s), contention-free %g s, run %g s: want mean ≤ compute-only ≤ contention-free ≤ run",
			co.SimulatedTime, perRank, cf.SimulatedTime, base.SimulatedTime)
	}
	t.Logf("HPL 2×2: run %.6g s, contention-free %.6g s, compute-only %.6g s (mean kernels per rank %.6g s)", base.SimulatedTime, cf.SimulatedTime, co.SimulatedTime, perRank)
	var p scenario.Plan
	if err := p.ApplyBound("free"); err == nil || !strings.Contains(err.Error(), "contention-free") {
		t.Errorf("unknown bound: %v", err)
	}
}
