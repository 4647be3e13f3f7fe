package fluid_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/fluid/fluidtest"
)

// TestLoadsChangeNothing runs random problems twice, each flow started
// from its spec or from the Loads its System made of it, and wants the
// same bits: every completion (date and flow), every rate on the way, and
// the traffic each link carried. The problems have what Loads must merge
// as a start would: repeated links, reverse cross-traffic, fat pipes, zero
// capacities, and bounds that a fat pipe lowers or a Shared link makes
// moot. Both of emu's solvers and SimGrid's lmm are run. A spec with Loads
// leaves its routes out (FlowSpec.Loads), as ranks' messages do.
func TestLoadsChangeNothing(t *testing.T) {
	modes := map[string]fluid.Options{
		"maxmin":  {},
		"full":    {Solver: fluid.FullResolve},
		"local":   {Approx: fluid.Approximations{LocalSolve: true}},
		"simgrid": {Solver: fluid.SimGrid},
	}
	rng := rand.New(rand.NewPCG(15, 1))
	for i := range 300 {
		p := fluidtest.Random(rng, fluidtest.RandomConfig{MaxLinks: 10, MaxFlows: 30, MaxRoute: 5})
		for name, opts := range modes {
			plain := runLoads(p, opts, false)
			loaded := runLoads(p, opts, true)
			if !slices.Equal(plain, loaded) {
				t.Fatalf("problem %d (%s): with Loads\n%v\nwithout\n%v\n%s", i, name, loaded, plain, fluidtest.GoString(p))
			}
		}
	}
}

// runLoads starts p's flows in batches of one to three, a tenth of a
// second apart, finishing in between every flow due, and returns what it
// saw: each completion's date and index, the rates after each batch, and
// the traffic at the end.
func runLoads(p fluidtest.Problem, opts fluid.Options, useLoads bool) []float64 {
	s := fluid.NewSystemOptions(p.Links, opts)
	s.RecordTraffic()
	var seen []float64
	index := map[fluid.FlowID]int{}
	var ids []fluid.FlowID
	now := 0.0
	finishUntil := func(limit float64) {
		for {
			s.Settle(now)
			t, id, ok := s.NextCompletion()
			if !ok || t > limit {
				return
			}
			now = max(now, t)
			s.Finish(now, id)
			seen = append(seen, now, float64(index[id]))
		}
	}
	for next := 0; next < len(p.Flows); {
		n := min(1+next%3, len(p.Flows)-next)
		specs := slices.Clone(p.Flows[next : next+n])
		if useLoads {
			for k := range specs {
				specs[k].Loads = s.Loads(specs[k])
				// The Loads stands for the routes, which are then not read.
				specs[k].Links, specs[k].Reverse, specs[k].ReverseShare = nil, nil, 0
			}
		}
		ids = s.StartAll(now, specs, ids[:0])
		for k, id := range ids {
			index[id] = next + k
		}
		s.Settle(now)
		for _, id := range ids {
			if s.Active() > 0 {
				seen = append(seen, s.Remaining(now, id))
			}
		}
		next += n
		finishUntil(now + 0.1)
		now += 0.1
	}
	finishUntil(now + 1e6)
	for _, lt := range s.Traffic(now) {
		seen = append(seen, lt.Bytes, lt.Busy)
	}
	return seen
}

// TestLoadsOfAnotherSystemPanic: a Loads names its System's links and
// capacities, and another System refuses it.
func TestLoadsOfAnotherSystemPanic(t *testing.T) {
	links := []fluid.Link{{Bandwidth: 1}, {Bandwidth: 2}}
	a, b := fluid.NewSystem(links), fluid.NewSystem(links)
	spec := fluid.FlowSpec{Links: []fluid.LinkID{0, 1}, Bytes: 1}
	spec.Loads = a.Loads(spec)
	a.Start(0, spec)
	defer func() {
		if recover() == nil {
			t.Error("a Loads of another System was accepted")
		}
	}()
	b.Start(0, spec)
}

// TestLoadsOutliveTheirFlows: under SimGrid's lmm a flow started with
// Loads reads its route's elems in place, and the flow struct is reused
// once it ends, here by a flow of a plain route (link 1), whose start
// must not write into the Loads: a later flow with it still crosses
// links 0 and 1, so that a flow alone on link 0 beside it gets half of
// link 0 (50 of 100 bytes/s), not the whole of it.
func TestLoadsOutliveTheirFlows(t *testing.T) {
	s := fluid.NewSystemOptions([]fluid.Link{{Bandwidth: 100}, {Bandwidth: 100}}, fluid.Options{Solver: fluid.SimGrid})
	ld := s.Loads(fluid.FlowSpec{Links: []fluid.LinkID{0, 1}})
	now := 0.0
	run := func(spec fluid.FlowSpec) {
		s.Start(now, spec)
		s.Settle(now)
		at, id, ok := s.NextCompletion()
		if !ok {
			t.Fatal("no completion")
		}
		now = at
		s.Finish(now, id)
	}
	run(fluid.FlowSpec{Loads: ld, Bytes: 100})
	run(fluid.FlowSpec{Links: []fluid.LinkID{1}, Bytes: 100}) // in the first flow's struct
	s.Start(now, fluid.FlowSpec{Loads: ld, Bytes: 100})
	alone := s.Start(now, fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100})
	s.Settle(now)
	if r := s.Rate(alone); r != 50 {
		t.Errorf("the flow on link 0 at %v bytes/s, want 50: the Loads' links changed", r)
	}
}
