package main

import (
	"slices"
	"strings"

	"github.com/emu-hpc/emu/internal/stats"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/tune"
)

// runEnsemble evaluates a point as an ensemble (emu tune --seeds, --perturb):
// its runs one after the other, then, of its HPL tests, the one with the best
// mean Gflops; the result's Gflops, TimeS and SimulatedS are means over the
// runs, and Ensemble holds their spread. Apps without a rate rank on the mean
// simulated time.
func (r *scenarioRunner) runEnsemble(p tune.Point, plan *scenario.Plan) (tune.Result, error) {
	spec := *r.ensemble
	spec.jobs = 1
	replan := func(extra ...string) (*scenario.Plan, error) {
		q := tune.Point{Index: p.Index, Overrides: slices.Clone(p.Overrides)}
		for _, kv := range extra {
			k, v, _ := strings.Cut(kv, "=")
			q.Overrides = append(q.Overrides, tune.Override{Key: k, Value: v})
		}
		return r.plan(q)
	}
	e, err := newEnsemble(&spec, plan, "", replan)
	if err != nil {
		return tune.Result{}, err
	}
	if _, err := e.run(plan, runner.Options{}, nil); err != nil {
		return tune.Result{}, err
	}
	n := len(e.results)
	sims := make([]float64, n)
	out := tune.Result{}
	for i, res := range e.results {
		sims[i] = res.SimulatedTime
		for _, h := range res.HPL {
			if h != nil {
				out.Panels += h.Panels
				out.Extrapolated = out.Extrapolated || h.Extrapolated
			}
		}
	}
	sim := stats.SummarizeNonNegative(sims)
	out.SimulatedS = sim.Mean
	out.Ensemble = &tune.Ensemble{Runs: n, TimeS: sim}
	out.TimeS = sim.Mean
	for k, h := range e.results[0].HPL {
		if h == nil {
			continue
		}
		gf, ts := make([]float64, n), make([]float64, n)
		for i, res := range e.results {
			if h := res.HPL[k]; h != nil {
				gf[i], ts[i] = h.Gflops, h.Time
			}
		}
		if g := stats.SummarizeNonNegative(gf); g.Mean > out.Gflops {
			out.Gflops, out.Ensemble.Gflops = g.Mean, g
			out.Ensemble.TimeS = stats.SummarizeNonNegative(ts)
			out.TimeS = out.Ensemble.TimeS.Mean
		}
	}
	return out, nil
}
