package emu

import (
	"math/rand/v2"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// TestNextCompletionKept drives random traffic through an engine — timers
// that start flows (one by one, batched, latent) and cancel them, flows
// whose ends start more — and checks, before and after every call the
// drivers make, that the completion the engine keeps (compAt, compID) is
// the one the System would give now, and the next event look keeps
// (lookAt) the one it would find now: every way the engine changes its
// timers or the System forgets them. Both clock modes, each with its
// solver. Each flow's latency-phase flag the engine keeps is the System's
// too.
func TestNextCompletionKept(t *testing.T) {
	for _, simgrid := range []bool{false, true} {
		for seed := range uint64(6) {
			checkNextKept(t, simgrid, seed)
		}
	}
}

func checkNextKept(t *testing.T, simgrid bool, seed uint64) {
	t.Helper()
	links := []fluid.Link{{Name: "a", Bandwidth: 1e3}, {Name: "b", Bandwidth: 3e3}, {Name: "c", Bandwidth: 5e2}}
	var o fluid.Options
	if simgrid {
		o.Solver = fluid.SimGrid
	}
	e := NewEngineOptions(fluid.NewSystemOptions(links, o), Options{SimGrid: simgrid, Precision: 1e-9})
	rng := rand.New(rand.NewPCG(seed, 77))
	check := func(where string) {
		t.Helper()
		if !e.compKnown {
			e.learnCompletion()
		}
		kt, kid, kok := e.compAt, e.compID, e.compOK
		st, sid, sok := e.sys.NextCompletion()
		if kt != st || kid != sid || kok != sok {
			t.Fatalf("simgrid=%v seed %d, %s at %v: kept (%v, %d, %v), System (%v, %d, %v)",
				simgrid, seed, where, e.Now(), kt, kid, kok, st, sid, sok)
		}
		for i, d := range e.flows {
			// The engine's own latency-phase flag (endsLatency) is the System's.
			if id := e.flowBase + fluid.FlowID(i); d.live && d.latent != e.sys.Latent(id) {
				t.Fatalf("simgrid=%v seed %d, %s at %v: flow %d latent %v, System says %v",
					simgrid, seed, where, e.Now(), id, d.latent, !d.latent)
			}
		}
		if !e.lookKnown {
			return
		}
		if len(e.batch) > 0 {
			t.Fatalf("simgrid=%v seed %d, %s at %v: flows batched while look's answer is kept", simgrid, seed, where, e.Now())
		}
		if at, tok := e.timers.peek(); tok && at <= e.Now() {
			return // look answers from the timers, not what it keeps
		}
		la, lok := e.lookAt, e.lookOK
		e.lookKnown = false
		if ft, fok := e.peek(); ft != la || fok != lok {
			t.Fatalf("simgrid=%v seed %d, %s at %v: look kept (%v, %v), finds (%v, %v)",
				simgrid, seed, where, e.Now(), la, lok, ft, fok)
		}
	}
	spec := func() fluid.FlowSpec {
		route := []fluid.LinkID{fluid.LinkID(rng.IntN(3))}
		if rng.IntN(2) == 0 {
			route = append(route, fluid.LinkID(rng.IntN(3)))
		}
		return fluid.FlowSpec{Links: route, Bytes: float64(1 + rng.IntN(4000))}
	}
	var live []fluid.FlowID
	var act, one func()
	act = func() { // two actions an event, until some 400 have fired
		if e.Fired() < 400 {
			one()
			one()
		}
		check("in an event")
	}
	one = func() {
		switch k := rng.IntN(6); {
		case k == 0:
			live = append(live, e.StartFlow(spec(), act))
		case k == 1 && simgrid:
			f := spec()
			e.StartLatentFlowHandler(&f, float64(rng.IntN(3))*1e-3, handlerFunc(act))
		case k == 1:
			e.StartFlowHandler(spec(), handlerFunc(act))
		case k == 2 && len(live) > 0:
			i := rng.IntN(len(live))
			e.CancelFlow(live[i]) // it may be over: then nothing changes
			live = append(live[:i], live[i+1:]...)
		default:
			e.After(float64(rng.IntN(5))*1e-3, act)
		}
	}
	e.Next() // nothing pending: look keeps that
	for range 8 {
		act()
	}
	for {
		check("before Next")
		_, ok := e.Next()
		check("after Next")
		if !ok {
			break
		}
		e.Skip(0) // looks again, as a sleeping rank does
		check("after Skip")
		if !e.Step() {
			break
		}
		check("after Step")
		for e.StepWithin(1e-9) {
			check("after StepWithin")
		}
		if _, ok := e.Next(); ok && rng.IntN(2) == 0 && e.Fired() < 400 {
			// A rank runs between two events: it queues work after
			// look's answer, or before it.
			one()
			check("between events")
			e.Next()
			e.After(float64(rng.IntN(3))*1e-4, act)
			check("after a timer")
			e.Next()
			e.AtHandler(e.Now()+float64(rng.IntN(3))*1e-4, handlerFunc(act))
			check("after a timer at a time")
		}
	}
	if e.Fired() < 50 {
		t.Fatalf("simgrid=%v seed %d: only %d events fired", simgrid, seed, e.Fired())
	}
}
