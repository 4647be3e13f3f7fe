package fluid_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/fluid/fluidtest"
)

// timeTol is the relative difference (dimensionless) allowed between
// completion times of the System and of the step-by-step reference
// simulation: errors of many remaining-bytes updates add up.
const timeTol = 1e-7

// scenario is flows arriving over time; some are cancelled before they end.
type scenario struct {
	links  []fluid.Link
	flows  []fluid.FlowSpec
	start  []float64 // s
	cancel []float64 // s; +Inf = never
}

func randomScenario(rng *rand.Rand) scenario {
	p := fluidtest.Random(rng, fluidtest.RandomConfig{MaxLinks: 6, MaxFlows: 14, MaxRoute: 3})
	sc := scenario{links: p.Links, flows: p.Flows}
	for range p.Flows {
		sc.start = append(sc.start, math.Floor(20*rng.Float64())/2) // half-second grid: simultaneous starts
		c := math.Inf(1)
		if rng.Float64() < 0.15 {
			c = 20 * rng.Float64()
		}
		sc.cancel = append(sc.cancel, c)
	}
	return sc
}

// event kinds, in the order both simulations handle simultaneous events.
const (
	evDone = iota
	evStart
	evCancel
)

type ev struct {
	t    float64
	kind int
	flow int
}

// timed returns the pending start and cancel events, sorted.
func (sc scenario) timed() []ev {
	var evs []ev
	for i := range sc.flows {
		evs = append(evs, ev{sc.start[i], evStart, i})
		if !math.IsInf(sc.cancel[i], 1) && sc.cancel[i] >= sc.start[i] {
			evs = append(evs, ev{sc.cancel[i], evCancel, i})
		}
	}
	slices.SortStableFunc(evs, func(a, b ev) int {
		if a.t != b.t {
			if a.t < b.t {
				return -1
			}
			return 1
		}
		return a.kind - b.kind
	})
	return evs
}

// runSystem drives a System through sc and returns each flow's completion
// time (+Inf if cancelled or stalled). After every event it checks the
// rates of the running flows against the reference solver.
func runSystem(t *testing.T, sc scenario, opts fluid.Options) []float64 {
	t.Helper()
	s := fluid.NewSystemOptions(sc.links, opts)
	done := make([]float64, len(sc.flows))
	for i := range done {
		done[i] = math.Inf(1)
	}
	running := map[fluid.FlowID]int{}
	var order []fluid.FlowID // running ids, in start order
	evs := sc.timed()
	for {
		tc, id, ok := s.NextCompletion()
		switch {
		case ok && (len(evs) == 0 || tc <= evs[0].t):
			s.Finish(tc, id)
			done[running[id]] = tc
			delete(running, id)
		case len(evs) > 0:
			e := evs[0]
			evs = evs[1:]
			if e.kind == evStart {
				id := s.Start(e.t, sc.flows[e.flow])
				running[id] = e.flow
				order = append(order, id)
			} else {
				for id, f := range running {
					if f == e.flow {
						s.Cancel(e.t, id)
						delete(running, id)
					}
				}
			}
		default:
			return done
		}
		order = slices.DeleteFunc(order, func(id fluid.FlowID) bool { _, ok := running[id]; return !ok })
		p := fluidtest.Problem{Links: sc.links}
		for _, id := range order {
			p.Flows = append(p.Flows, sc.flows[running[id]])
		}
		want := fluidtest.Reference(p)
		for i, id := range order {
			if got := s.Rate(id); !close(got, want[i]) {
				t.Fatalf("flow %d: rate %v, reference %v", running[id], got, want[i])
			}
		}
	}
}

// runReference simulates sc step by step with the reference solver:
// recompute all rates after every event, advance every flow's remaining
// bytes to the next event.
func runReference(sc scenario) []float64 {
	done := make([]float64, len(sc.flows))
	remaining := make([]float64, len(sc.flows))
	for i := range done {
		done[i] = math.Inf(1)
	}
	var active []int
	now := 0.0
	evs := sc.timed()
	for {
		p := fluidtest.Problem{Links: sc.links}
		for _, f := range active {
			p.Flows = append(p.Flows, sc.flows[f])
		}
		rates := fluidtest.Reference(p)
		next, first := math.Inf(1), -1
		for i, f := range active {
			if tc := now + finishIn(remaining[f], rates[i]); tc < next {
				next, first = tc, f
			}
		}
		if first < 0 && len(evs) == 0 {
			return done
		}
		if first < 0 || (len(evs) > 0 && evs[0].t < next) {
			next = evs[0].t
			first = -1
		}
		for i, f := range active {
			if !math.IsInf(rates[i], 1) {
				remaining[f] -= rates[i] * (next - now)
			}
		}
		now = next
		if first >= 0 {
			done[first] = now
			active = slices.DeleteFunc(active, func(f int) bool { return f == first })
			continue
		}
		e := evs[0]
		evs = evs[1:]
		if e.kind == evStart {
			active = append(active, e.flow)
			remaining[e.flow] = sc.flows[e.flow].Bytes
		} else {
			active = slices.DeleteFunc(active, func(f int) bool { return f == e.flow && done[f] > now })
		}
	}
}

func finishIn(bytes, rate float64) float64 {
	switch {
	case bytes <= 0 || math.IsInf(rate, 1):
		return 0
	case rate == 0:
		return math.Inf(1)
	}
	return bytes / rate
}

// TestDynamicMatchesReference runs hundreds of random scenarios of flows
// starting, finishing and being cancelled over time, through the
// incremental System, the full-resolve System and the step-by-step
// reference simulation, and compares every completion time.
func TestDynamicMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 300 {
		sc := randomScenario(rng)
		want := runReference(sc)
		for _, opts := range []fluid.Options{{}, {Solver: fluid.FullResolve}, {Approx: fluid.Approximations{LocalSolve: true}}} {
			got := runSystem(t, sc, opts)
			for f := range got {
				if got[f] != want[f] && math.Abs(got[f]-want[f]) > timeTol*math.Max(1, want[f]) {
					t.Fatalf("scenario %d (%+v): flow %d done at %v, reference %v\n%+v", i, opts, f, got[f], want[f], sc)
				}
			}
		}
	}
}

// smpiTraffic draws n SMPI-like flows between random hosts of topo
// (weights = route latency, 5% cross-traffic, a TCP-window bound on one in
// four) starting within 1 ms, one in cancelOneIn cancelled within 2 ms (none
// if 0).
func smpiTraffic(rng *rand.Rand, topo fluid.Topology, n, cancelOneIn int) scenario {
	sc := scenario{links: topo.Links()}
	for range n {
		src, dst := rng.IntN(topo.Hosts()), rng.IntN(topo.Hosts())
		r := topo.Route(src, dst)
		f := fluid.FlowSpec{Links: r.Links, Reverse: topo.Route(dst, src).Links, ReverseShare: 0.05,
			Weight: r.Latency, Bytes: 1e3 + 1e6*rng.Float64()}
		if rng.IntN(4) == 0 {
			f.Bound = 2e8 + 1e9*rng.Float64()
		}
		sc.flows = append(sc.flows, f)
		sc.start = append(sc.start, 1e-3*rng.Float64())
		c := math.Inf(1)
		if cancelOneIn > 0 && rng.IntN(cancelOneIn) == 0 {
			c = 2e-3 * rng.Float64()
		}
		sc.cancel = append(sc.cancel, c)
	}
	return sc
}

// TestDynamicOnTopologies replays SMPI-like traffic (weights = route
// latency, 5% cross-traffic, a TCP-window bound on some flows) arriving
// over time on the reference topologies, where components are large and
// levels many, and compares the System with the step-by-step reference.
func TestDynamicOnTopologies(t *testing.T) {
	topos := goldenTopologies(t)
	for _, name := range []string{"dragonfly", "fattree", "flat", "torus"} {
		topo := topos[name]
		rng := rand.New(rand.NewPCG(11, 12))
		for range 8 {
			sc := smpiTraffic(rng, topo, 60, 0)
			want := runReference(sc)
			for _, opts := range []fluid.Options{{}, {Approx: fluid.Approximations{LocalSolve: true}}} {
				got := runSystem(t, sc, opts)
				for f := range got {
					if got[f] != want[f] && math.Abs(got[f]-want[f]) > timeTol*math.Max(1e-3, want[f]) {
						t.Fatalf("%s (%+v): flow %d done at %v, reference %v", name, opts, f, got[f], want[f])
					}
				}
			}
		}
	}
}

// TestLocalSolveOnTopologies checks local re-solves (Approximations.LocalSolve)
// against the reference after every event of dense traffic on the
// reference topologies, with cancellations, where regions grow over
// several rounds; and again with the growth capped at one round, so that
// the fallback to the whole component is taken too.
func TestLocalSolveOnTopologies(t *testing.T) {
	topos := goldenTopologies(t)
	for _, rounds := range []int{fluid.MaxLocalRounds(), 1} {
		restore := fluid.SetMaxLocalRounds(rounds)
		for _, name := range []string{"dragonfly", "fattree", "flat", "torus"} {
			topo := topos[name]
			rng := rand.New(rand.NewPCG(21, 22))
			for range 3 {
				sc := smpiTraffic(rng, topo, 250, 8)
				runSystem(t, sc, fluid.Options{Approx: fluid.Approximations{LocalSolve: true}}) // compares every rate after every event
			}
		}
		restore()
	}
}
