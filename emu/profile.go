package emu

import (
	"container/heap"
	"fmt"

	"github.com/emu-hpc/emu/fluid"
)

// A ProfileTarget is the resource a profile changes (Engine.AddProfile):
// Apply sets its value at the current time; Used says whether an
// activity uses it now (SimGrid's is_used: under Options.SimGrid an event
// on an unused resource is applied without stopping the clock at its
// date, as SimGrid's solve applies it).
type ProfileTarget interface {
	Apply(value float64)
	Used() bool
}

// profiles are the engine's profile events: SimGrid's future event set,
// one entry per profile, at the date of its next event.
type profiles struct {
	h   profileHeap
	seq uint64
}

// profileRun is a profile being played on a target.
type profileRun struct {
	p      fluid.Profile
	t      ProfileTarget
	next   int     // index in p.Steps of the next event
	date   float64 // its date, s
	seq    uint64  // tie-breaker among equal dates: insertion order
	looped bool    // a pass is over: the next step's date adds the loop delay
}

type profileHeap []*profileRun

func (h profileHeap) Len() int { return len(h) }
func (h profileHeap) Less(i, j int) bool {
	return h[i].date < h[j].date || h[i].date == h[j].date && h[i].seq < h[j].seq
}
func (h profileHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *profileHeap) Push(x any)   { *h = append(*h, x.(*profileRun)) }
func (h *profileHeap) Pop() (x any) { x, *h = (*h)[len(*h)-1], (*h)[:len(*h)-1]; return x }

// AddProfile plays profile p on target t: each step's value is applied at
// its date, before the timers, executions and flows due at that date (SimGrid
// applies its profile events before it updates its models' actions). The
// events due now or earlier are applied at once (SimGrid's presolve). An
// event fires only while something else is pending (a looping profile
// alone does not keep a run going). Call it before the first event.
func (e *Engine) AddProfile(p fluid.Profile, t ProfileTarget) {
	if len(p.Steps) == 0 {
		return
	}
	for _, s := range p.Steps {
		if !(s.Delta >= 0) {
			panic(fmt.Sprintf("emu: AddProfile: step delta %v", s.Delta))
		}
	}
	if e.prof == nil {
		e.prof = &profiles{}
	}
	e.prof.seq++
	r := &profileRun{p: p, t: t, date: p.Steps[0].Delta, seq: e.prof.seq}
	for r.date <= e.now {
		r.t.Apply(r.p.Steps[r.next].Value)
		if !r.advance() {
			return
		}
	}
	heap.Push(&e.prof.h, r)
	e.changed()
}

// advance moves r to its next step, dated from the current one's date as
// SimGrid dates it; false when the profile is over.
func (r *profileRun) advance() bool {
	r.next++
	delta := 0.0
	if r.next == len(r.p.Steps) {
		if !r.p.Loops() {
			return false
		}
		r.next, delta = 0, r.p.Repeat
	}
	r.date += r.p.Steps[r.next].Delta + delta
	return true
}

// profileNext is the date of the next profile event, if one can fire:
// something else is pending.
func (e *Engine) profileNext() (float64, bool) {
	if e.prof == nil || len(e.prof.h) == 0 || e.timers.n+e.running+len(e.batch)+len(e.cpuDone) == 0 {
		return 0, false
	}
	return e.prof.h[0].date, true
}

// profileLook folds the profile events into look's next event t (ok):
// under Options.SimGrid (settle), the events due by then on unused
// resources are applied at once; the first other one stops the clock.
// Under Options.SimGrid no event fires when nothing else has a date (ok
// false: only flows that will never complete, SimGrid's stalled ones, are
// pending): SimGrid's solve reads the profiles only up to the models'
// next event, and finds none.
func (e *Engine) profileLook(t float64, ok, settle bool) (float64, bool) {
	lim, limOK := t, ok
	if e.skipping && (!ok || e.skipEnd < t) {
		// A rank sleeps to skipEnd without a timer (Skip): SimGrid's step
		// ends there, and the events past it wait.
		lim, limOK = e.skipEnd, true
	}
	for {
		pd, pok := e.profileNext()
		if !pok || limOK && pd > lim || !limOK && e.simgrid {
			return t, ok
		}
		if settle && e.simgrid && !e.prof.usedAt(pd) {
			e.fireProfile(pd)
			continue
		}
		return pd, true
	}
}

// usedAt reports whether a resource of an event dated pd or earlier is
// used: SimGrid stops its clock at pd then (it pops them all and applies
// each, stopping if any is used).
func (p *profiles) usedAt(pd float64) bool {
	for _, r := range p.h {
		if r.date <= pd && r.t.Used() {
			return true
		}
	}
	return false
}

// stepProfile fires the profile events of the next date if they are due
// no later than the next timer (tt, if tok) and every completion, and
// reports whether it did; under Options.SimGrid, only if one of those
// has a date (profileLook).
func (e *Engine) stepProfile(tt float64, tok bool) bool {
	pd, ok := e.profileNext()
	if !ok || tok && pd > tt {
		return false
	}
	dated := tok
	if e.sys != nil {
		if !e.compKnown {
			e.learnCompletion()
		}
		if e.compOK && e.compAt < pd {
			return false
		}
		dated = dated || e.compOK
	}
	if e.cpu != nil {
		ct, _, cok := e.cpu.NextCompletion()
		if cok && ct < pd {
			return false
		}
		dated = dated || cok
	}
	if e.simgrid && !dated {
		return false
	}
	e.advance(pd)
	e.fireProfile(pd)
	e.fired++
	return true
}

// fireProfile applies every profile event dated pd or earlier.
func (e *Engine) fireProfile(pd float64) {
	for len(e.prof.h) > 0 && e.prof.h[0].date <= pd {
		r := e.prof.h[0]
		r.t.Apply(r.p.Steps[r.next].Value)
		if r.advance() {
			heap.Fix(&e.prof.h, 0)
		} else {
			heap.Pop(&e.prof.h)
		}
	}
	e.changed()
}

// CPUs returns the engine's CPU system (SetCPUs; nil if none).
func (e *Engine) CPUs() *fluid.System { return e.cpu }

// FlowHandler returns the Handler that flow id (started by the engine
// with a Handler) runs when it completes; nil if none or gone. A
// profile's target finds the flows crossing a link through it.
func (e *Engine) FlowHandler(id fluid.FlowID) Handler {
	i := int(id - e.flowBase)
	if i < 0 || i >= len(e.flows) || !e.flows[i].live {
		return nil
	}
	return e.flows[i].h
}

// profileCatchUp applies the profile events due by end when nothing is
// pending in the engine, before the clock jumps to end (Skip, SkipTo,
// FireOutside): look does not show them then, and their resources are
// unused, so they apply without stopping the clock at their dates, as
// SimGrid applies an event on an unused resource. A message started at
// end then sees the link as it is at end.
func (e *Engine) profileCatchUp(end float64) {
	if e.prof == nil || len(e.prof.h) == 0 || e.timers.n+e.running+len(e.batch)+len(e.cpuDone) > 0 {
		return
	}
	if pd := e.prof.h[0].date; pd <= end {
		e.fireProfile(end)
	}
}
