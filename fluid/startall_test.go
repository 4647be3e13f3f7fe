package fluid_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/fluid/fluidtest"
)

// batchTol is the relative difference (dimensionless) allowed between
// StartAll's rates and those of a whole re-solve or of Start called for
// each spec: the same max-min solution, reached by a few float
// operations in other orders (frozen flows subtracted from capacities,
// another fill's shape).
const batchTol = 1e-12

// twins is one history of flows played on several Systems: the one under
// test starts each batch with StartAll, the others as their names say.
type twins struct {
	links []fluid.Link
	specs []fluid.FlowSpec // the live flows' specs
	batch *fluid.System    // StartAll above a threshold (threshold.go)
	full  *fluid.System    // FullResolve: every change re-solves every flow
	seq   *fluid.System    // Start for each spec in turn
	local *fluid.System    // LocalSolve, StartAll
	ids   [4][]fluid.FlowID
}

func (w *twins) systems() [4]*fluid.System { return [4]*fluid.System{w.batch, w.full, w.seq, w.local} }

func (w *twins) start(now float64, specs []fluid.FlowSpec) {
	for i, s := range w.systems() {
		if s == w.seq {
			for _, spec := range specs {
				w.ids[i] = append(w.ids[i], s.Start(now, spec))
			}
		} else {
			w.ids[i] = s.StartAll(now, specs, w.ids[i])
		}
	}
	w.specs = append(w.specs, specs...)
}

func (w *twins) cancel(now float64, k int) {
	for i, s := range w.systems() {
		s.Cancel(now, w.ids[i][k])
		w.ids[i] = append(w.ids[i][:k], w.ids[i][k+1:]...)
	}
	w.specs = append(w.specs[:k], w.specs[k+1:]...)
}

// near reports whether a and b agree to tol, relatively (absolutely
// below 1e-9 B/s, where a rate is cancellation's leftover).
func near(a, b, tol float64) bool {
	return a == b || math.Abs(a-b) <= tol*math.Max(1e-9, math.Max(math.Abs(a), math.Abs(b)))
}

// check compares every live flow's rate across the twins and with the
// reference solver.
func (w *twins) check() error {
	want := fluidtest.Reference(fluidtest.Problem{Links: w.links, Flows: w.specs})
	for k := range w.specs {
		got := w.batch.Rate(w.ids[0][k])
		for _, o := range []struct {
			name string
			rate float64
			tol  float64
		}{
			{"a whole re-solve (FullResolve)", w.full.Rate(w.ids[1][k]), batchTol},
			{"Start for each spec", w.seq.Rate(w.ids[2][k]), batchTol},
			{"LocalSolve's StartAll", w.local.Rate(w.ids[3][k]), diffTol},
			{"the reference", want[k], diffTol},
		} {
			if !near(got, o.rate, o.tol) {
				return fmt.Errorf("flow %d (%+v): StartAll gives %v, %s %v", w.ids[0][k], w.specs[k], got, o.name, o.rate)
			}
		}
	}
	return nil
}

// randomBatch draws 1 to 6 flows over links, some on a private link
// (links from private on are drawn by no other kind of flow, so such a
// flow is often alone on its links and rated without a re-solve), the
// others as fluidtest draws them, sharing links, weighted, bounded.
func randomBatch(rng *rand.Rand, private, links int) []fluid.FlowSpec {
	specs := make([]fluid.FlowSpec, 1+rng.IntN(6))
	for i := range specs {
		if rng.IntN(5) == 0 {
			specs[i] = fluid.FlowSpec{Links: []fluid.LinkID{fluid.LinkID(private + rng.IntN(links-private))}, Bytes: 10}
			continue
		}
		specs[i] = fluidtest.RandomFlow(rng, private, 3)
	}
	return specs
}

// TestStartAllMatchesStart plays random histories of batches and
// cancellations, and after each batch wants StartAll's rates, re-solved
// only above the level where the first link of the batch's new flows
// saturates (threshold.go), to equal a whole re-solve's and those of
// Start called for each spec (which re-solves above its own flow's
// threshold), within batchTol, and the reference solver's within diffTol.
func TestStartAllMatchesStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for trial := range 400 {
		p := fluidtest.Random(rng, fluidtest.RandomConfig{MaxLinks: 10, MaxFlows: 1, MaxRoute: 1})
		private := len(p.Links)
		links := append(p.Links, shared(10, 4, 7)...)
		w := &twins{
			links: links,
			batch: fluid.NewSystem(links),
			full:  fluid.NewSystemOptions(links, fluid.Options{Solver: fluid.FullResolve}),
			seq:   fluid.NewSystem(links),
			local: fluid.NewSystemOptions(links, fluid.Options{Approx: fluid.Approximations{LocalSolve: true}}),
		}
		now := 0.0
		for step := range 12 {
			now += 0.125
			if len(w.specs) > 0 && rng.IntN(3) == 0 {
				for range 1 + rng.IntN(min(3, len(w.specs))) {
					w.cancel(now, rng.IntN(len(w.specs)))
				}
				continue
			}
			w.start(now, randomBatch(rng, private, len(links)))
			if err := w.check(); err != nil {
				t.Fatalf("trial %d, step %d: %v", trial, step, err)
			}
		}
	}
}

// TestStartAllLight: a batch of light and ordinary flows (Approximations.LightBytes)
// after a history of ordinary ones leaves the flows that are not light
// at the max-min rates of the problem without the light ones, as a whole
// re-solve of them gives: a light flow is rated after the batch's exact
// re-solve, seeing it, and one that re-solve reaches is rated exactly.
func TestStartAllLight(t *testing.T) {
	const lightBytes = 50
	rng := rand.New(rand.NewPCG(33, 34))
	for trial := range 400 {
		p := fluidtest.Random(rng, fluidtest.RandomConfig{MaxLinks: 10, MaxFlows: 1, MaxRoute: 1})
		private := len(p.Links)
		links := append(p.Links, shared(10, 4, 7)...)
		s := fluid.NewSystemOptions(links, fluid.Options{Approx: fluid.Approximations{LightBytes: lightBytes}})
		var specs []fluid.FlowSpec
		var ids []fluid.FlowID
		now := 0.0
		heavy := func(spec fluid.FlowSpec) fluid.FlowSpec { spec.Bytes += 2 * lightBytes; return spec }
		for range 6 {
			now += 0.125
			if len(ids) > 0 && rng.IntN(3) == 0 {
				k := rng.IntN(len(ids))
				s.Cancel(now, ids[k])
				ids, specs = append(ids[:k], ids[k+1:]...), append(specs[:k], specs[k+1:]...)
				continue
			}
			batch := randomBatch(rng, private, len(links))
			for i := range batch {
				batch[i] = heavy(batch[i])
			}
			ids, specs = s.StartAll(now, batch, ids), append(specs, batch...)
		}
		batch := randomBatch(rng, private, len(links))
		for i := range batch {
			if batch[i].Bytes = 1 + 30*rng.Float64(); rng.IntN(2) == 0 {
				batch[i] = heavy(batch[i])
			}
		}
		ids, specs = s.StartAll(now, batch, ids), append(specs, batch...)
		var exact []fluid.FlowSpec
		var got []float64
		for k, id := range ids {
			if !fluid.IsLight(s, id) {
				exact = append(exact, specs[k])
				got = append(got, s.Rate(id))
			}
		}
		whole := fluid.NewSystemOptions(links, fluid.Options{Solver: fluid.FullResolve})
		for k, id := range whole.StartAll(0, exact, nil) {
			if want := whole.Rate(id); !near(got[k], want, batchTol) {
				t.Fatalf("trial %d: flow %+v at %v, a whole re-solve of the flows that are not light %v", trial, exact[k], got[k], want)
			}
		}
	}
}

func shared(bw ...float64) []fluid.Link {
	links := make([]fluid.Link, len(bw))
	for i, b := range bw {
		links[i] = fluid.Link{Bandwidth: b}
	}
	return links
}
