package hpl

import (
	"fmt"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/ranks"
)

// noisyKernelModels prices every kernel the panel factorization calls,
// each with its own rate and a half-normal noise (drawn from the rank's
// stream, so that a kernel charged out of order moves every later draw).
func noisyKernelModels(t *testing.T) *models.Set {
	t.Helper()
	specs := map[string]models.Spec{}
	for i, k := range []string{"dgemm", "dtrsm", "dgemv", "dger", "dtrsv", "dscal", "daxpy", "dcopy",
		"idamax", "dlacpy", "dlatcpy", "dlaswp", "duswp", "dlocswp", "dgather", "dscatter"} {
		specs[k] = models.Spec{Terms: []string{"w"}, Coef: []float64{1e-10 * float64(1+i%5)},
			Intercept: 3e-7 * float64(1+i%3), Noise: models.NoiseHalfNormal, Sigma: 2e-7}
	}
	ms, err := models.NewSet(specs)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// runRanks runs one test on P·Q ranks in rank order on SMPI's network,
// with the kernel sleeps merged (merge: a panel's factorization then runs
// as one task of each rank, ranks.Comm.SendRecvsRounds) or each slept
// apart (a listener of the compute events: no task), and returns every
// rank's result. With calls, the pivot exchanges are mxswp's calls, not
// rounds.
func runRanks(t *testing.T, p Params, mode kernels.Mode, merge, calls bool) []*Result {
	t.Helper()
	n := p.P * p.Q
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: n, Link: peerLink})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ranks.Preset("smpi")
	if err != nil {
		t.Fatal(err)
	}
	cfg.IprobeCost, cfg.TestCost, cfg.WakeOrder = 2e-7, 2e-7, ranks.WakeRank
	place := make([]int, n)
	for i := range place {
		place[i] = i
	}
	w, err := ranks.NewWorld(cfg, topo, place, 5)
	if err != nil {
		t.Fatal(err)
	}
	if merge {
		w.MergeKernelSleeps()
	} else {
		w.AddListener(ranks.Listener{Kinds: ranks.KindsOf(ranks.ComputeStart), Hook: func(*ranks.Event) {}})
	}
	ms := noisyKernelModels(t)
	res := make([]*Result, n)
	errs := make([]error, n)
	if err := w.Run(func(r *ranks.Rank) {
		k := kernels.New(kernels.Config{Mode: mode, Models: ms, Noise: true}, r, r.Rand())
		res[r.ID()], errs[r.ID()] = Run(r, p, k, Options{mxswpCalls: calls})
	}); err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		if e != nil {
			t.Fatal(e)
		}
	}
	return res
}

// TestPanelRoundsMatchCalls: where P is a power of two, a panel's
// factorization (factRun) runs as rounds of one task of each rank
// (ranks.Comm.SendRecvsRounds, in rank order with merged kernel sleeps).
// The reference sleeps each kernel apart and makes the pivot exchanges
// mxswp's calls, as HPL makes them (Options.mxswpCalls). Every
// base and recursive factorization, both L1 forms, in real and model
// mode, with noisy models of every kernel: each rank's Time, detailed
// timings (the factorization's own clock readings: PFact, MxSwp, RFact)
// and residual must be the same bits both ways, and real mode's residual
// must pass. A 3 × 2 grid (mxswp's calls both ways) is the control.
func TestPanelRoundsMatchCalls(t *testing.T) {
	for _, g := range [][2]int{{4, 2}, {2, 2}, {3, 2}} {
		for _, pf := range []Fact{Left, Crout, Right} {
			for _, rf := range []Fact{Left, Crout, Right} {
				for _, l1t := range []bool{true, false} {
					for _, mode := range []kernels.Mode{kernels.Model, kernels.Real} {
						p := DefaultParams()
						p.N, p.NB, p.P, p.Q, p.PFact, p.RFact, p.L1Transposed = 140, 12, g[0], g[1], pf, rf, l1t
						p.NBMin, p.NDiv = 2+int(rf), 2+int(pf)%2
						if testing.Short() && (mode == kernels.Real) != l1t {
							continue
						}
						t.Run(fmt.Sprintf("%dx%d/%s/L1T=%v/%v", g[0], g[1], p.Variant(), l1t, mode), func(t *testing.T) {
							merged := runRanks(t, p, mode, true, false)
							apart := runRanks(t, p, mode, false, true)
							for i := range merged {
								m, a := merged[i], apart[i]
								if m.Time != a.Time || m.Phases != a.Phases || m.Residual != a.Residual {
									t.Errorf("rank %d: merged Time %.17g %+v residual %g; apart %.17g %+v residual %g",
										i, m.Time, m.Phases, m.Residual, a.Time, a.Phases, a.Residual)
								}
							}
							if r := merged[0]; mode == kernels.Real && (!r.Checked || !r.Passed) {
								t.Errorf("residual %g (info %d)", r.Residual, r.Info)
							}
							if r := merged[0]; !(r.Phases.MxSwp > 0 && r.Phases.PFact > r.Phases.MxSwp) {
								t.Errorf("phases %+v: the factorization's clock readings", r.Phases)
							}
						})
					}
				}
			}
		}
	}
}
