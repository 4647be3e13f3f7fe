package validation

import (
	"fmt"
	"math"
	"testing"

	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// TestDahuCopyL: HPL built with -DHPL_NO_MPI_DATATYPE, as SMPI's fork is,
// copies each panel's L2 into a contiguous buffer on the root process column
// before broadcasting it (HPL_binit_* → HPL_copyL: dlacpy(mp − jb, jb) on the
// diagonal process row, dlacpy(mp, jb) on the others). hpl.copy_l charges that
// copy its dlacpy model (3.871806e-9 s per element in the Dahu models).
// The first row is hand-solved: 1 × 2, N = 1,000, NB = 100 makes 10 panels,
// all on the one process row, so panel k copies (1000 − 100k − 100) × 100
// elements: 450,000 in all. The others are the fork's own totals, summed from
// its per-call records (SMPI_MEASURE build of 312df21, every rank's
// blas_R.trace, HPL_dlacpy lines; docs/evidence/dahu.md). Without copy_l, emu
// makes no dlacpy call under L1 transposed.
func TestDahuCopyL(t *testing.T) {
	const perElem = 3.871806e-09 // c.toml's [kernels.dlacpy]
	for _, c := range []struct {
		n, nb, p, q int
		copyL       bool
		calls       int
		seconds     float64
		from        string
	}{
		{1000, 100, 1, 2, true, 10, 450000 * perElem, "hand-solved"},
		{1000, 100, 1, 2, false, 0, 0, "hand-solved"},
		{5000, 128, 2, 2, true, 80, 0.047160456, "fork's records"},
		{10000, 128, 4, 4, true, 316, 0.191115818, "fork's records"},
	} {
		if testing.Short() && c.p*c.q > 4 {
			continue
		}
		t.Run(fmt.Sprintf("%dx%d_N%d_copyL=%v", c.p, c.q, c.n, c.copyL), func(t *testing.T) {
			s, err := scenario.Load(dahuScenario)
			if err != nil {
				t.Fatal(err)
			}
			// The fork charges empty calls too: the last panel's copy is (0 × jb).
			for _, kv := range []string{"kernels.models=c.toml", "kernels.charge_empty=true", "platform.hosts=1", "platform.radical=0-0",
				fmt.Sprintf("hpl.n=%d", c.n), fmt.Sprintf("hpl.nb=%d", c.nb), fmt.Sprintf("hpl.grids=[[%d, %d]]", c.p, c.q),
				fmt.Sprintf("hpl.copy_l=%v", c.copyL)} {
				if err := s.Set(kv); err != nil {
					t.Fatal(err)
				}
			}
			plan, err := s.Validate()
			if err != nil {
				t.Fatal(err)
			}
			log := &observe.KernelLog{}
			if _, err := runner.Run(plan, runner.Options{Kernels: log}); err != nil {
				t.Fatal(err)
			}
			var calls int
			var secs float64
			for _, k := range log.Totals() {
				if k.Kernel == "dlacpy" {
					calls, secs = k.Calls, k.Seconds
				}
			}
			// The fork's records carry 7 significant digits a call.
			if calls != c.calls || math.Abs(secs-c.seconds) > 1e-6*math.Max(c.seconds, 1e-3) {
				t.Errorf("dlacpy: %d calls, %.9f s; want %d, %.9f s (%s)", calls, secs, c.calls, c.seconds, c.from)
			}
		})
	}
}
