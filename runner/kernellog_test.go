package runner

import (
	"path/filepath"
	"testing"

	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/scenario"
)

// TestKernelTotalsSameMergedOrNot: HPL's kernel sleeps merge between MPI
// calls (ranks.World.MergeKernelSleeps), which changes the order in which the
// ranks' Go code runs, not what each rank calls. The kernel log sums each rank
// apart, so its totals — --json's "kernels" — are the same bits with merging
// on and off (a listener of compute events turns it off), as are HPL's Time
// and every count. Dahu at N = 4,000: 1,024 ranks with per-CPU noisy kernels,
// where the ranks interleave differently once sleeps merge.
func TestKernelTotalsSameMergedOrNot(t *testing.T) {
	if testing.Short() {
		t.Skip("1,024 ranks")
	}
	s, err := scenario.Load(filepath.Join("..", "examples", "dahu", "dahu.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set("hpl.n=4000"); err != nil {
		t.Fatal(err)
	}
	plan, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	run := func(merge bool) ([]observe.KernelTotal, float64) {
		log := &observe.KernelLog{}
		opt := Options{Kernels: log}
		if !merge {
			opt.Listeners = []ranks.Listener{{Kinds: ranks.KindsOf(ranks.ComputeStart), Hook: func(*ranks.Event) {}}}
		}
		res, err := Run(plan, opt)
		if err != nil {
			t.Fatal(err)
		}
		return log.Totals(), res.HPL[0].Time
	}
	merged, tm := run(true)
	each, te := run(false)
	if tm != te {
		t.Errorf("HPL Time %.17g merged, %.17g each sleep apart", tm, te)
	}
	if len(merged) != len(each) || len(merged) < 5 {
		t.Fatalf("%d kernels merged, %d apart", len(merged), len(each))
	}
	for i := range merged {
		if merged[i] != each[i] {
			t.Errorf("%s: merged %+v, apart %+v", merged[i].Kernel, merged[i], each[i])
		}
	}
}
