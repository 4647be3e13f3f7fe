package hpl

import (
	"testing"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/ranks"
)

// everyKernelModels charges every kernel a nanosecond per unit of work and
// per call, so that each phase costs time.
func everyKernelModels(t *testing.T) *models.Set {
	t.Helper()
	spec := models.Spec{Terms: []string{"w"}, Coef: []float64{1e-9}, Intercept: 1e-9}
	specs := map[string]models.Spec{}
	for _, k := range kernels.Names() {
		specs[k] = spec
	}
	ms, err := models.NewSet(specs)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// TestPhasesNestAndAddUp: HPL's detailed timings nest as HPL's timers do
// (mxswp within pfact within rfact, laswp within update), none exceeds the
// run's Time, and on one rank, where nothing waits, rfact + update + up tr
// sv is the Time (a run is its panels' factorizations and updates and the
// back substitution).
func TestPhasesNestAndAddUp(t *testing.T) {
	for _, g := range []Grid{{1, 1}, {2, 2}, {1, 4}, {4, 1}} {
		d := tinyDat()
		d.Ns, d.NBs, d.Grids, d.PFacts = []int{400}, []int{16}, []Grid{g}, []Fact{Right}
		w := world(t, g.P*g.Q, 1e-6)
		ms := everyKernelModels(t)
		results := make([][]*Result, g.P*g.Q)
		if err := w.Run(func(r *ranks.Rank) {
			k := kernels.New(kernels.Config{Mode: kernels.Model, Models: ms}, r, r.Rand())
			res, err := RunDat(r, d, k, Options{})
			if err != nil {
				t.Error(err)
			}
			results[r.ID()] = res
		}); err != nil {
			t.Fatal(err)
		}
		for rank, rs := range results {
			ph, time := rs[0].Phases, rs[0].Time
			nested := ph.MxSwp <= ph.PFact && ph.PFact <= ph.RFact && ph.Laswp <= ph.Update
			within := ph.RFact+ph.Update+ph.UpTrsv <= time*(1+1e-12)
			if !nested || !within || ph.Update <= 0 || ph.RFact <= 0 || ph.UpTrsv <= 0 {
				t.Errorf("%dx%d rank %d: phases %+v of Time %g: nested %v, within Time %v", g.P, g.Q, rank, ph, time, nested, within)
			}
			if g.P > 1 && ph.MxSwp <= 0 {
				t.Errorf("%dx%d rank %d: no pivot exchange time on a process column of %d", g.P, g.Q, rank, g.P)
			}
			if g.P*g.Q == 1 {
				if sum := ph.RFact + ph.Update + ph.UpTrsv; sum < (1-1e-9)*time {
					t.Errorf("1x1: rfact + update + up tr sv = %g s of Time %g s", sum, time)
				}
			}
		}
	}
}
