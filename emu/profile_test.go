package emu

import (
	"math"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// capTarget is a fluid link's capacity as a profile's target.
type capTarget struct {
	e   *Engine
	sys func() *fluid.System
	l   fluid.LinkID
	k   float64 // capacity = k × value
}

func (c capTarget) Apply(v float64) { c.sys().SetCapacity(c.e.Now(), c.l, c.k*v) }
func (c capTarget) Used() bool      { return c.sys().Used(c.l) }

const profEps = 1e-12 // s

// TestFlowOverBandwidthProfile: one flow of 100 bytes on a link of 10 B/s
// whose bandwidth is 5 B/s from t = 2 s and 20 B/s from t = 6 s, looping
// (LOOPAFTER 1: the next pass's 2-s step at 6 + 1 + 2 = 9 s).
//
//	0–2 s at 10 B/s: 20 bytes; 2–6 s at 5 B/s: 20 bytes (40 in all);
//	6–9 s at 20 B/s: 60 bytes (100): it ends at 9 s, the instant the
//	profile drops to 5 B/s, which does not touch it.
//
// The profile's pass is 2 + 4 + 1 = 7 s: 5 B/s at 9, 16, 23 s, 20 B/s
// at 13, 20 s. A second flow of 100 bytes starting at 9 s: 9–13 s at
// 5 B/s (20 bytes), 13–16 s at 20 (60: 80), 16–20 s at 5 (20: 100): it
// ends at 20 s. Both solvers.
func TestFlowOverBandwidthProfile(t *testing.T) {
	for _, solver := range []fluid.Solver{fluid.Incremental, fluid.SimGrid} {
		sys := fluid.NewSystemOptions([]fluid.Link{{Name: "l", Bandwidth: 10, Sharing: fluid.Shared}}, fluid.Options{Solver: solver})
		sys.VaryCapacities()
		e := NewEngineOptions(sys, Options{SimGrid: solver == fluid.SimGrid})
		e.AddProfile(fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 2, Value: 5}, {Delta: 4, Value: 20}}, Repeat: 1},
			capTarget{e, e.System, 0, 1})
		var ends []float64
		var second func()
		first := func() {
			ends = append(ends, e.Now())
			if len(ends) == 1 {
				e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100}, second)
			}
		}
		second = func() { ends = append(ends, e.Now()) }
		e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100}, first)
		for steps := 0; drive(e); steps++ {
			if steps > 100 {
				t.Fatalf("%v: the run does not end", solver)
			}
		}
		if len(ends) != 2 || math.Abs(ends[0]-9) > profEps || math.Abs(ends[1]-20) > profEps {
			t.Errorf("%v: flows end at %v, want [9 20]", solver, ends)
		}
	}
}

// TestExecutionOverSpeedProfile: an execution of 10 flops on a processor
// of 2 flop/s (bound 2) whose speed is 0.5× from t = 1 s and 3× from 3 s
// (no loop): 0–1 s at 2: 2 flops; 1–3 s at 1: 2 (4 in all); then at 6
// flop/s, 6/6 = 1 s: it ends at 4 s. The bound follows the speed.
func TestExecutionOverSpeedProfile(t *testing.T) {
	for _, solver := range []fluid.Solver{fluid.Incremental, fluid.SimGrid} {
		cpu := fluid.NewSystemOptions([]fluid.Link{{Name: "cpu", Bandwidth: 2, Sharing: fluid.Shared}}, fluid.Options{Solver: solver})
		cpu.VaryCapacities()
		e := NewEngineOptions(nil, Options{SimGrid: solver == fluid.SimGrid})
		e.SetCPUs(cpu)
		var id fluid.FlowID
		target := speedTarget{e, 2, &id}
		e.AddProfile(fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 1, Value: 0.5}, {Delta: 2, Value: 3}}, Repeat: -1}, target)
		end := -1.0
		id = e.StartExec(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 10, Bound: 2}, handlerFunc(func() { end = e.Now() }))
		for drive(e) {
		}
		if math.Abs(end-4) > profEps {
			t.Errorf("%v: the execution ends at %v, want 4", solver, end)
		}
	}
}

// speedTarget scales a one-core processor of peak speed and its one
// execution's bound.
type speedTarget struct {
	e    *Engine
	peak float64
	id   *fluid.FlowID
}

func (s speedTarget) Apply(v float64) {
	now := s.e.Now()
	s.e.CPUs().SetCapacity(now, 0, v*s.peak)
	for _, id := range s.e.CPUs().FlowsOn(0, nil) {
		s.e.CPUs().SetBound(now, id, v*s.peak)
	}
}
func (s speedTarget) Used() bool { return s.e.CPUs().Used(0) }

// TestProfileAloneEnds: a looping profile with nothing else pending fires
// nothing, so a run ends.
func TestProfileAloneEnds(t *testing.T) {
	sys := fluid.NewSystem([]fluid.Link{{Name: "l", Bandwidth: 10, Sharing: fluid.Shared}})
	sys.VaryCapacities()
	e := NewEngine(sys)
	e.AddProfile(fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 0, Value: 3}, {Delta: 1, Value: 4}}, Repeat: 0}, capTarget{e, e.System, 0, 1})
	if got := sys.Capacity(0); got != 3 {
		t.Errorf("capacity after the date-0 event %v, want 3", got)
	}
	if _, ok := e.Next(); ok || e.Step() {
		t.Error("a profile alone keeps the engine going")
	}
}

// drive is a driver's step: look (under SimGrid, the instant's settle),
// then fire; false when nothing is pending.
func drive(e *Engine) bool {
	if _, ok := e.Next(); !ok {
		return false
	}
	return e.Step()
}

// TestProfileBeforeSkip: a rank alone sleeping past a bandwidth change
// (Skip: nothing pending in the engine) finds the link changed when it
// wakes (what it reads of the link for a message, SimGrid's user bound,
// is the new bandwidth), and a flow it starts then, 100 bytes at 5 B/s
// from t = 3 s, ends at 23 s.
func TestProfileBeforeSkip(t *testing.T) {
	for _, solver := range []fluid.Solver{fluid.Incremental, fluid.SimGrid} {
		sys := fluid.NewSystemOptions([]fluid.Link{{Name: "l", Bandwidth: 10, Sharing: fluid.Shared}}, fluid.Options{Solver: solver})
		sys.VaryCapacities()
		e := NewEngineOptions(sys, Options{SimGrid: solver == fluid.SimGrid})
		e.AddProfile(fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 2, Value: 5}}, Repeat: -1}, capTarget{e, e.System, 0, 1})
		if !e.Skip(3) {
			t.Fatalf("%v: Skip(3) refused", solver)
		}
		if c := sys.Capacity(0); c != 5 {
			t.Errorf("%v: at 3 s the link has %v B/s, want 5", solver, c)
		}
		end := -1.0
		e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100}, func() { end = e.Now() })
		for drive(e) {
		}
		if math.Abs(end-23) > profEps {
			t.Errorf("%v: the flow ends at %v, want 23", solver, end)
		}
	}
}

// TestProfileStopsWhenUsed: under SimGrid, events on an unused link are
// applied at once, without stopping the clock at their date, but one on a
// used link at the same date as an unused one's stops it there.
func TestProfileStopsWhenUsed(t *testing.T) {
	sys := fluid.NewSystemOptions([]fluid.Link{{Name: "a", Bandwidth: 10, Sharing: fluid.Shared}, {Name: "b", Bandwidth: 10, Sharing: fluid.Shared}}, fluid.Options{Solver: fluid.SimGrid})
	sys.VaryCapacities()
	e := NewEngineOptions(sys, Options{SimGrid: true})
	e.AddProfile(fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 1, Value: 20}}, Repeat: -1}, capTarget{e, e.System, 1, 1})
	e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100}, func() {})
	if at, ok := e.Next(); !ok || at != 10 || sys.Capacity(1) != 20 {
		t.Errorf("unused link: next event %v (%v), capacity %v; want 10 and 20 at once", at, ok, sys.Capacity(1))
	}
	e2sys := fluid.NewSystemOptions([]fluid.Link{{Name: "a", Bandwidth: 10, Sharing: fluid.Shared}, {Name: "b", Bandwidth: 10, Sharing: fluid.Shared}}, fluid.Options{Solver: fluid.SimGrid})
	e2sys.VaryCapacities()
	e2 := NewEngineOptions(e2sys, Options{SimGrid: true})
	e2.AddProfile(fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 1, Value: 20}}, Repeat: -1}, capTarget{e2, e2.System, 1, 1})
	e2.AddProfile(fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 1, Value: 5}}, Repeat: -1}, capTarget{e2, e2.System, 0, 1})
	e2.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100}, func() {})
	if at, ok := e2.Next(); !ok || at != 1 {
		t.Errorf("used link: next event %v (%v), want 1", at, ok)
	}
}

// TestProfileNotInInstant: under SimGrid a profile's event 1e-12 s after
// a timer is not one of the timer's instant (StepWithin fires the events
// within SimGrid's precision of now, but SimGrid's solve applies a
// profile's by its date, once the instant's actors have run): the link
// keeps 10 B/s through the instant and has 5 B/s at the event's date.
func TestProfileNotInInstant(t *testing.T) {
	sys := fluid.NewSystemOptions([]fluid.Link{{Name: "l", Bandwidth: 10, Sharing: fluid.Shared}}, fluid.Options{Solver: fluid.SimGrid})
	sys.VaryCapacities()
	e := NewEngineOptions(sys, Options{SimGrid: true})
	at := 1 + 1e-12
	e.AddProfile(fluid.Profile{Steps: []fluid.ProfileStep{{Delta: at, Value: 5}}, Repeat: -1}, capTarget{e, e.System, 0, 1})
	e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100}, func() {})
	e.After(1, func() {})
	if next, ok := e.Next(); !ok || next != 1 || !e.Step() {
		t.Fatalf("first event %v (%v), want the timer at 1 s", next, ok)
	}
	if e.StepWithin(1e-9) || sys.Capacity(0) != 10 {
		t.Errorf("the profile's event fired within the timer's instant: capacity %v at %v s", sys.Capacity(0), e.Now())
	}
	if next, ok := e.Next(); !ok || next != at || !e.Step() || sys.Capacity(0) != 5 {
		t.Errorf("next event %v (%v), capacity %v; want the profile's at %v s, 5 B/s", next, ok, sys.Capacity(0), at)
	}
}

// TestProfilePastSkip: under SimGrid a rank that sleeps 1 s without a
// timer (Skip) ends SimGrid's step at 1 s, as its sleep action would: an
// event dated 5 s on an unused link is applied in the next step (at 1 s,
// when the engine looks again), not before the rank wakes. A message the
// rank starts as it wakes reads the link's old value, as SimGrid's does
// (seed 1158 of validation's smpifuzz: a latency change dated 0.0034 s
// came into a route looked up at 0.00305 s). The flow on link a, 100
// bytes at 10 B/s, is what is pending.
func TestProfilePastSkip(t *testing.T) {
	sys := fluid.NewSystemOptions([]fluid.Link{{Name: "a", Bandwidth: 10, Sharing: fluid.Shared}, {Name: "b", Bandwidth: 10, Sharing: fluid.Shared}}, fluid.Options{Solver: fluid.SimGrid})
	sys.VaryCapacities()
	e := NewEngineOptions(sys, Options{SimGrid: true})
	applied := -1.0
	e.AddProfile(fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 5, Value: 20}}, Repeat: -1}, recTarget{capTarget{e, e.System, 1, 1}, &applied})
	e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100}, func() {})
	if !e.Skip(1) || e.Now() != 1 {
		t.Fatalf("Skip(1) refused, or the clock at %v", e.Now())
	}
	if c := sys.Capacity(1); c != 10 || applied >= 0 {
		t.Errorf("as the rank wakes at 1 s, link b has %v B/s (the event applied at %v s), want 10 (not yet)", c, applied)
	}
	if at, ok := e.Next(); !ok || at != 10 || sys.Capacity(1) != 20 || applied != 1 {
		t.Errorf("next event %v (%v), link b %v B/s applied at %v s; want the flow's end at 10, and 20 B/s from 1 s", at, ok, sys.Capacity(1), applied)
	}
}

// recTarget is a profile target that notes when it was last applied.
type recTarget struct {
	capTarget
	at *float64
}

func (r recTarget) Apply(v float64) { *r.at = r.e.Now(); r.capTarget.Apply(v) }
