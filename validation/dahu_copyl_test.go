package validation

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/runner"
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
			// The fork charges empty calls too: the last panel's copy is (0 × jb).
			plan := dahuPlan(t, "kernels.models=c.toml", "kernels.charge_empty=true", "platform.hosts=1", "platform.radical=0-0",
				fmt.Sprintf("hpl.n=%d", c.n), fmt.Sprintf("hpl.nb=%d", c.nb), fmt.Sprintf("hpl.grids=[[%d, %d]]", c.p, c.q),
				fmt.Sprintf("hpl.copy_l=%v", c.copyL))
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

// TestDahuCopyLTimeAgainstFork: what the copy of L adds to HPL's Time is the
// fork's, within the spread the pivots give it. The fork (12d0551 with its
// noise off, line d) makes and charges the copy where emu does: every rank of
// the root process column, once a panel, in HPL_binit_2ring before
// HPL_pdupdate's first HPL_bcast sends, as an smpi_execute_benched of
// 3.871806e-9 s an element. testdata/dahu_noise.csv holds its line d runs
// with and without that charge (the build's NO_COPYL switch drops the
// dlacpy charge: the only HPL_dlacpy call under L1 and U transposed) under
// the same seeds, so each seed gives one paired difference. Where the copy
// lands on the critical path moves with the pivots, panel by panel: the
// fork's paired differences at 16 × 16 run from −6 to +23 ms
// (docs/evidence/copyl.md). Emu runs its line d with and without
// hpl.copy_l under 8 seeds (random pivots), and the two means of the paired
// differences must agree within 3 standard errors of their difference; the
// test fails if emu charged the copy off the critical path (no cost) or
// twice. -short runs 4 × 4 only; 16 × 16 needs -emu.slow (a minute).
func TestDahuCopyLTimeAgainstFork(t *testing.T) {
	type config struct{ n, p, q, hosts, first int }
	type pair struct{ with, without float64 }
	fork := map[config]map[int]*pair{}
	var configs []config
	for i, r := range readCSV(t, dahuNoise) {
		if r["line"] != "d" {
			continue
		}
		var c config
		var seed int
		intCells(t, fmt.Sprintf("%s:%d", dahuNoise, i+2), r, []intCell{{"n", &c.n}, {"p", &c.p}, {"q", &c.q}, {"hosts", &c.hosts}, {"first_host", &c.first}, {"seed", &seed}})
		copyL, err := strconv.ParseBool(r["copy_l"])
		if err != nil {
			t.Fatalf("%s:%d: copy_l %q", dahuNoise, i+2, r["copy_l"])
		}
		x, err := strconv.ParseFloat(r["time_s"], 64)
		if err != nil {
			t.Fatalf("%s:%d: time_s %q", dahuNoise, i+2, r["time_s"])
		}
		if fork[c] == nil {
			fork[c] = map[int]*pair{}
			configs = append(configs, c)
		}
		if fork[c][seed] == nil {
			fork[c][seed] = &pair{math.NaN(), math.NaN()}
		}
		if copyL {
			fork[c][seed].with = x
		} else {
			fork[c][seed].without = x
		}
	}
	run := func(c config, copyL bool, seed int) float64 {
		return dahuTime(t, "kernels.models=d.toml", "kernels.charge_empty=true", "kernels.pivot=random",
			fmt.Sprintf("platform.hosts=%d", c.hosts), fmt.Sprintf("platform.radical=%d-%d", c.first, c.first+c.hosts-1),
			fmt.Sprintf("hpl.n=%d", c.n), fmt.Sprintf("hpl.grids=[[%d, %d]]", c.p, c.q),
			fmt.Sprintf("hpl.copy_l=%v", copyL), fmt.Sprintf("seed=%d", seed))
	}
	tested := 0
	for _, c := range configs {
		var fd []float64
		for _, pr := range fork[c] {
			if !math.IsNaN(pr.with) && !math.IsNaN(pr.without) {
				fd = append(fd, pr.with-pr.without)
			}
		}
		if len(fd) < 3 {
			continue // no paired seeds: the copy's cost was not measured there
		}
		tested++
		if (testing.Short() && c.p*c.q > 16) || (c.p*c.q > 64 && !*slow) {
			continue
		}
		t.Run(fmt.Sprintf("%dx%d_N%d_dahu-%d", c.p, c.q, c.n, c.first), func(t *testing.T) {
			var ed []float64
			for seed := 1; seed <= 8; seed++ {
				ed = append(ed, run(c, true, seed)-run(c, false, seed))
			}
			fm, fse, _ := meanSD(fd)
			em, ese, _ := meanSD(ed)
			z := (em - fm) / math.Hypot(fse, ese)
			t.Logf("copy of L adds: emu %.1f ± %.1f ms (8 seeds), fork %.1f ± %.1f ms (%d seeds): %+.1f standard errors",
				1e3*em, 1e3*ese, 1e3*fm, 1e3*fse, len(fd), z)
			if math.Abs(z) > 3 {
				t.Errorf("the copy of L adds %.1f ms to emu's Time and %.1f ms to the fork's: %+.1f standard errors apart, want within 3",
					1e3*em, 1e3*fm, z)
			}
		})
	}
	if tested == 0 {
		t.Fatalf("%s: no configuration with line d paired with and without the copy of L", dahuNoise)
	}
}
