package emu

import (
	"fmt"
	"math"

	"github.com/emu-hpc/emu/fluid"
)

// TimerID names a scheduled timer: its insertion number, unique per Engine.
type TimerID uint64

// Engine is the simulation kernel: a clock, a queue of timers and a
// fluid.System whose flows complete in virtual time.
type Engine struct {
	now    float64 // s
	seq    uint64  // insertion counter, the tie-breaker of equal times
	timers timerQueue
	sys    *fluid.System
	// flows holds the done target of flow id at index id−flowBase. fluid
	// hands out increasing ids, so a slice trimmed from the front when its
	// oldest flows are gone replaces a map (no hashing per message).
	flows    []flowDone
	flowBase fluid.FlowID
	flowHead int // flows[:flowHead] are all finished
	running  int // flows started and not yet completed or cancelled

	// Flows started by StartFlowHandler at the current instant, not yet in
	// the System (see flush), and scratch for their ids.
	batch     []fluid.FlowSpec
	batchDone []flowDone
	ids       []fluid.FlowID
	fired     uint64 // events fired so far (timers and flow completions)
	hold      bool   // StepWithin is firing: the clock stays put
	// The System's next completion (sys.NextCompletion) while known: the
	// drivers look for the next event three to five times an event, and
	// the System changes only through the engine's own calls (NewEngine),
	// each of which forgets it (changed).
	compKnown bool
	compOK    bool
	compAt    float64 // s
	compID    fluid.FlowID
	// The time of the next event past the instant, as look last found it
	// (lookKnown; under SimGrid only while the systems are settled): a
	// rank that fails to Skip queues its timer after it, and the driver's
	// next look then finds the same. A timer queued before it, a pop, a
	// flow batched and any change of the System forget it.
	lookKnown bool
	lookOK    bool
	lookAt    float64 // s
	simgrid   bool    // Options.SimGrid
	precision float64 // Options.Precision
	// Executions (SetCPUs): a fluid system whose links are processors,
	// and what to call when each execution ends; nil without one.
	cpu     *fluid.System
	cpuDone map[fluid.FlowID]Handler
	// prof: the profiles' events (AddProfile, profile.go); nil without any.
	prof *profiles
	// skipping: Skip or SkipTo is looking for the next event while the
	// driver's rank sleeps to skipEnd without a timer (profileLook).
	skipping bool
	skipEnd  float64 // s
}

// Options tunes an Engine.
type Options struct {
	// SimGrid advances the clock as SimGrid 3.32's engine does, so that
	// the same inputs give the same floats: the clock moves to a date by
	// adding (date − now) to now, a flow's latency phase is part of the
	// flow (fluid.System.StartLatent, in the network model's own order
	// among actions due at one date), and the fluid system settles once
	// per instant, when Next is asked for the next event (fluid.System.Settle).
	// sys must then have been built with the fluid.SimGrid solver.
	SimGrid bool
	// Precision is SimGrid's precision/timing under SimGrid: events less
	// than Precision apart are one instant to the driver, so Skip refuses
	// to jump to a time another event follows that closely (SimGrid would
	// handle both at the earlier date).
	Precision float64
}

// NewEngine returns an engine at time 0 over the given fluid system. sys may
// be nil for an engine that only runs timers; StartFlow then panics. From
// then on sys changes only through the engine (its flows start, end and
// settle in the engine's calls), which keeps its next completion.
func NewEngine(sys *fluid.System) *Engine { return NewEngineOptions(sys, Options{}) }

// NewEngineOptions is NewEngine with options.
func NewEngineOptions(sys *fluid.System, opts Options) *Engine {
	return &Engine{
		timers:    newTimerQueue(),
		sys:       sys,
		simgrid:   opts.SimGrid,
		precision: opts.Precision,
	}
}

// Now returns the current virtual time in seconds.
func (e *Engine) Now() float64 { return e.now }

// System returns the fluid system the engine drives (nil if none).
func (e *Engine) System() *fluid.System { return e.sys }

// Fired returns the number of events (timers and flow completions) fired so
// far; benchmarks report it as events.
func (e *Engine) Fired() uint64 { return e.fired }

// After schedules fn to run at Now()+d. d must be ≥ 0 (a zero delay runs fn
// at the current time, after the events already due then).
func (e *Engine) After(d float64, fn func()) TimerID { return e.schedule(d, fn, nil) }

// AfterHandler schedules h.Handle to run at Now()+d, like After.
func (e *Engine) AfterHandler(d float64, h Handler) TimerID { return e.schedule(d, nil, h) }

func (e *Engine) schedule(d float64, fn func(), h Handler) TimerID {
	if !(d >= 0) || math.IsInf(d, 1) {
		panic(fmt.Sprintf("emu: After(%v): delay must be finite and ≥ 0", d))
	}
	e.seq++
	e.queued(e.now + d)
	e.timers.push(d, e.now+d, e.seq, action{fn: fn, h: h})
	return TimerID(e.seq)
}

// A Revocable is a Handler whose timer can be withdrawn (Engine.Revoke):
// a driver that moves an event to another date revokes its timer and
// queues a new one. Give each timer a Revocable of its own.
type Revocable struct {
	H       Handler
	revoked bool
}

// Handle runs v's handler.
func (v *Revocable) Handle() { v.H.Handle() }

// Revoke withdraws the queued timer whose handler is v: it will not fire,
// and the clock does not move to its date. v must be queued (not fired).
func (e *Engine) Revoke(v *Revocable) {
	if v.revoked {
		return
	}
	v.revoked = true
	e.timers.revoked++
	e.timers.valid = false
	e.lookKnown = false
}

// AtHandler schedules h.Handle to run at time at, which must be finite and
// not before Now(): a sleep made of several delays summed as the clock
// would have summed them, one after the other (ranks' merged kernel
// sleeps). Its timer orders among the others by (at, insertion) as
// AfterHandler's do; it never takes a lane (a lane's times come from one
// delay).
func (e *Engine) AtHandler(at float64, h Handler) TimerID {
	if !(at >= e.now) || math.IsInf(at, 1) {
		panic(fmt.Sprintf("emu: At(%v) at time %v: want a finite time, not before now", at, e.now))
	}
	e.seq++
	e.queued(at)
	e.timers.pushAt(at, e.seq, action{h: h})
	return TimerID(e.seq)
}

// flowDone is what to call when a flow completes: a func or a Handler.
// latent says the flow is in its latency phase (StartLatentFlowHandler),
// which only the engine ends (System.Activate): its first event is the
// phase's end, not a completion, and the engine knows it without asking
// the System.
type flowDone struct {
	fn     func()
	h      Handler
	live   bool
	latent bool
}

// StartFlow starts a flow in the fluid system at the current time; done runs
// when its last byte has arrived.
func (e *Engine) StartFlow(f fluid.FlowSpec, done func()) fluid.FlowID {
	if e.sys == nil {
		panic("emu: StartFlow on an engine without a fluid.System")
	}
	e.flush()
	id := e.sys.Start(e.now, f)
	e.changed()
	e.track(id, flowDone{fn: done, live: true})
	return id
}

// track records what to call when flow id completes.
func (e *Engine) track(id fluid.FlowID, d flowDone) {
	if e.running == 0 {
		e.flowBase, e.flowHead = id, 0
		e.flows = e.flows[:0]
	}
	for fluid.FlowID(len(e.flows)) < id-e.flowBase {
		e.flows = append(e.flows, flowDone{}) // ids taken by flows started elsewhere on sys
	}
	e.flows = append(e.flows, d)
	e.running++
}

// untrack forgets flow id and returns its done target (ok false if the
// engine did not start it or it is gone).
func (e *Engine) untrack(id fluid.FlowID) (flowDone, bool) {
	i := int(id - e.flowBase)
	if i < 0 || i >= len(e.flows) || !e.flows[i].live {
		return flowDone{}, false
	}
	d := e.flows[i]
	e.flows[i] = flowDone{}
	e.running--
	// Advance past finished flows at the front (amortised O(1): each entry
	// is passed once), and slide the live tail down once the dead prefix is
	// half the slice, so steady traffic reuses one array.
	for e.flowHead < len(e.flows) && !e.flows[e.flowHead].live {
		e.flowHead++
	}
	if k := e.flowHead; k > 0 && k >= len(e.flows)/2 {
		n := copy(e.flows, e.flows[k:])
		e.flows = e.flows[:n]
		e.flowBase += fluid.FlowID(k)
		e.flowHead = 0
	}
	return d, true
}

// StartFlowHandler starts a flow at the current time like StartFlow, with a
// Handler instead of a func, but lazily: flows started at one instant enter
// the fluid.System together (System.StartAll, one re-solve) before the
// engine next looks at or fires an event. SimGrid batches the same way (it
// solves once per instant); the rates are those of starting them one by one.
func (e *Engine) StartFlowHandler(f fluid.FlowSpec, h Handler) {
	if e.sys == nil {
		panic("emu: StartFlow on an engine without a fluid.System")
	}
	if e.simgrid {
		e.StartLatentFlowHandler(&f, 0, h)
		return
	}
	e.BatchFlowHandler(&f, h)
}

// BatchFlowHandler is StartFlowHandler for an engine without
// Options.SimGrid, which batches its flows; f is read during the call
// only. It panics on a SimGrid engine. Without StartFlowHandler's SimGrid
// branch (a call) it fits the inliner's budget and inlines at a caller's
// hot sites, where StartFlowHandler (cost 97 against 80) stays a call.
func (e *Engine) BatchFlowHandler(f *fluid.FlowSpec, h Handler) {
	if e.sys == nil || e.simgrid {
		panic("emu: BatchFlowHandler needs an engine with a fluid.System and without Options.SimGrid")
	}
	e.lookKnown = false // flush has work again
	e.batch = append(e.batch, *f)
	e.batchDone = append(e.batchDone, flowDone{h: h, live: true})
}

// StartLatentFlowHandler starts a flow whose first latency seconds load no
// link, as SimGrid's network model does: the latency phase and the transfer
// are one action, and h runs when the last byte has arrived. It needs
// Options.SimGrid; other engines time a latency phase with AfterHandler.
// f is read during the call only (fluid.System.StartLatent).
func (e *Engine) StartLatentFlowHandler(f *fluid.FlowSpec, latency float64, h Handler) {
	if e.sys == nil || !e.simgrid {
		panic("emu: StartLatentFlowHandler needs an engine with Options.SimGrid and a fluid.System")
	}
	e.flush()
	id := e.sys.StartLatent(e.now, f, latency)
	e.changed()
	e.track(id, flowDone{h: h, live: true, latent: latency > 0})
}

// flush starts the flows batched by StartFlowHandler. It inlines: the
// engine calls it once an event, most often with no flow batched.
func (e *Engine) flush() {
	if len(e.batch) > 0 {
		e.startBatch()
	}
}

// startBatch is flush once flows are batched.
func (e *Engine) startBatch() {
	e.ids = e.sys.StartAll(e.now, e.batch, e.ids[:0])
	e.changed()
	for i, id := range e.ids {
		e.track(id, e.batchDone[i])
	}
	clear(e.batch)
	clear(e.batchDone)
	e.batch, e.batchDone = e.batch[:0], e.batchDone[:0]
}

// SetCPUs gives the engine a second fluid system, whose links are hosts'
// processors and whose flows are executions (StartExec): SimGrid's CPU
// model, an lmm system of its own beside the network's. Under
// Options.SimGrid it must use the fluid.SimGrid solver; it then settles
// once per instant, as the network does. An execution's end fires after
// the timers due at the same time and before the flows (SimGrid's CPU
// model ends its actions before the network model). Call it before the
// first event.
func (e *Engine) SetCPUs(sys *fluid.System) {
	e.cpu, e.cpuDone = sys, make(map[fluid.FlowID]Handler)
	e.changed()
}

// StartExec starts an execution on the CPU system (SetCPUs) at the
// current time: f's links are the processor, its bytes the flops, its
// bound one core's speed. h runs when it ends.
func (e *Engine) StartExec(f fluid.FlowSpec, h Handler) fluid.FlowID {
	if e.cpu == nil {
		panic("emu: StartExec on an engine without CPUs (SetCPUs)")
	}
	id := e.cpu.Start(e.now, f)
	e.cpuDone[id] = h
	e.changed()
	return id
}

// CancelFlow removes a running flow without calling its done function.
func (e *Engine) CancelFlow(id fluid.FlowID) {
	e.flush()
	if _, ok := e.untrack(id); ok {
		e.sys.Cancel(e.now, id)
		e.changed()
	}
}

// Next returns the time of the next event without firing it; ok is false
// when nothing is pending. Under Options.SimGrid, once the current instant
// has nothing left to fire, the fluid system settles first (SimGrid solves
// when it looks for its next date).
//
// While the next event look found is known (lookKnown) and no timer is due
// at the current instant, Next answers it without a call: the drivers ask
// twice an event, and the second answer is mostly the first.
func (e *Engine) Next() (t float64, ok bool) {
	if q := &e.timers; e.lookKnown && q.valid && q.frontAt > e.now {
		return e.lookAt, e.lookOK // look's answer: the front is past the instant
	}
	return e.look(true)
}

// peek is Next without the settle: StepWithin looks ahead within an
// instant, where SimGrid does not solve.
func (e *Engine) peek() (t float64, ok bool) { return e.look(false) }

// look is Next's body (settle true) and peek's (false): both inline to a
// call of it, one call where Next called peek, and the drivers call Next
// about twice an event.
func (e *Engine) look(settle bool) (t float64, ok bool) {
	at, tok := e.timers.peek()
	if tok && at <= e.now {
		return at, true // more of this instant: keep batching flow starts
	}
	if e.lookKnown {
		return e.lookAt, e.lookOK
	}
	if settle && e.simgrid && e.sys != nil && !e.sys.Settled() {
		e.sys.Settle(e.now)
		e.changed()
	}
	e.flush() // starts flows, and queues no timer
	t = math.Inf(1)
	if tok {
		t, ok = at, true
	}
	if e.sys != nil {
		if !e.compKnown {
			e.learnCompletion()
		}
		if ft := e.compAt; e.compOK && ft < t {
			t, ok = ft, true
		}
	}
	if e.cpu != nil {
		if settle && e.simgrid && !e.cpu.Settled() {
			e.cpu.Settle(e.now)
		}
		if ct, _, cok := e.cpu.NextCompletion(); cok && ct < t {
			t, ok = ct, true
		}
	}
	if e.prof != nil && !e.hold { // StepWithin's look: no profile event (StepWithin)
		t, ok = e.profileLook(t, ok, settle)
	}
	// Under SimGrid's order the answer is kept while the systems are
	// settled, unless profiles are played: a look that settles fires the
	// unused resources' events (profileLook), one that does not leaves them.
	e.lookAt, e.lookOK, e.lookKnown = t, ok, !e.simgrid || e.prof == nil && e.settled()
	return t, ok
}

// settled says whether the engine's systems are settled (under SimGrid,
// look keeps its answer only then: a look of an unsettled System, peek's,
// finds what the next settle may change).
func (e *Engine) settled() bool {
	return (e.sys == nil || e.sys.Settled()) && (e.cpu == nil || e.cpu.Settled())
}

// queued forgets the next event look found when a timer is queued for
// time at before it (or when there was none: lookAt is then +Inf).
func (e *Engine) queued(at float64) {
	if !(at >= e.lookAt) {
		e.lookKnown = false
	}
}

// learnCompletion asks the System for its next completion, and keeps it
// (compAt, compID, compOK) until the System changes. The lookers call it
// only when none is kept, testing compKnown themselves (a call the
// inliner would not take, for three results, on every look).
func (e *Engine) learnCompletion() {
	e.compAt, e.compID, e.compOK = e.sys.NextCompletion()
	e.compKnown = true
}

// changed forgets the System's next completion, and the next event look
// found: a call of the engine's has changed the System, or is about to.
func (e *Engine) changed() { e.compKnown, e.lookKnown = false, false }

// Skip moves the clock forward by d when no event is due at or before
// Now()+d, and reports whether it did. A driver whose only runnable actor
// is about to sleep d uses it instead of scheduling a timer it would be the
// next to fire: same outcome, no queue traffic. The end time is computed
// as After computes it, so both paths land on the same float.
func (e *Engine) Skip(d float64) bool {
	if !(d >= 0) || math.IsInf(d, 1) {
		panic(fmt.Sprintf("emu: Skip(%v): delay must be finite and ≥ 0", d))
	}
	end := e.now + d
	if next, ok := e.lookSkip(end); ok && (next <= end || e.simgrid && next-end < e.precision) {
		return false
	}
	if e.prof != nil {
		e.profileCatchUp(end)
	}
	e.advance(end)
	return true
}

// lookSkip is Skip's and SkipTo's Next, while a rank sleeps to end
// without a timer: the sleep is one of SimGrid's actions, whose end bounds
// the step in which its solve applies the profile events of unused
// resources (profileLook), as a timer's date does.
func (e *Engine) lookSkip(end float64) (float64, bool) {
	if e.prof == nil {
		return e.Next()
	}
	e.skipping, e.skipEnd = true, end
	t, ok := e.Next()
	e.skipping = false
	return t, ok
}

// SkipTo is Skip to time at (not before Now()): it moves the clock to at
// when no event is due at or before it, and reports whether it did.
func (e *Engine) SkipTo(at float64) bool {
	if !(at >= e.now) || math.IsInf(at, 1) {
		panic(fmt.Sprintf("emu: SkipTo(%v) at time %v: want a finite time, not before now", at, e.now))
	}
	if next, ok := e.lookSkip(at); ok && (next <= at || e.simgrid && next-at < e.precision) {
		return false
	}
	if e.prof != nil {
		e.profileCatchUp(at)
	}
	e.advance(at)
	return true
}

// Pending returns the number of scheduled timers plus running flows.
func (e *Engine) Pending() int {
	return e.timers.n - e.timers.revoked + e.running + len(e.batch) + len(e.cpuDone)
}

// Step advances the clock to the next event and fires it: a timer's function
// or a completed flow's done function. It returns false, without changing
// anything, when no event is pending (no timer and no flow that will ever
// complete).
func (e *Engine) Step() bool {
	tt, tok := e.timers.peek()
	if !tok || tt > e.now {
		// The instant is over: batched flows enter the System before any
		// flow completion is looked at. (Timers still due now fire first,
		// so that the flows they start join the same batch.)
		e.flush()
	}
	if e.prof != nil && !e.hold && e.stepProfile(tt, tok) {
		return true
	}
	if e.cpu != nil && e.stepExec(tt, tok) {
		return true
	}
	if e.sys != nil {
		if !e.compKnown {
			e.learnCompletion()
		}
		if ft, id := e.compAt, e.compID; e.compOK && (!tok || ft < tt) {
			e.advance(ft)
			e.changed()
			if e.simgrid && e.endsLatency(id) {
				e.sys.Activate(e.now, id) // the latency phase is over: nothing to call
				e.fired++
				return true
			}
			e.sys.Finish(e.now, id)
			done, _ := e.untrack(id)
			e.fired++
			switch {
			case done.h != nil:
				done.h.Handle()
			case done.fn != nil:
				done.fn()
			}
			return true
		}
	}
	if !tok {
		return false
	}
	at, a := e.timers.pop()
	e.lookKnown = false
	e.advance(at)
	e.fired++
	if a.h != nil {
		a.h.Handle()
	} else {
		a.fn()
	}
	return true
}

// endsLatency reports whether flow id's next event ends its latency phase,
// and forgets the phase if so. A flow the engine tracks says so itself; one
// started on the System elsewhere, the System says.
func (e *Engine) endsLatency(id fluid.FlowID) bool {
	i := int(id - e.flowBase)
	if i < 0 || i >= len(e.flows) || !e.flows[i].live {
		return e.sys.Latent(id)
	}
	d := &e.flows[i]
	if !d.latent {
		return false
	}
	d.latent = false
	return true
}

// stepExec ends the next execution if it is due before the next timer
// (tt, if tok) and no later than the next flow completion, and reports
// whether it did.
func (e *Engine) stepExec(tt float64, tok bool) bool {
	ct, id, ok := e.cpu.NextCompletion()
	if !ok || tok && !(ct < tt) {
		return false
	}
	if e.sys != nil {
		if !e.compKnown {
			e.learnCompletion()
		}
		if e.compOK && e.compAt < ct {
			return false
		}
	}
	e.advance(ct)
	e.changed()
	e.cpu.Finish(e.now, id)
	h := e.cpuDone[id]
	delete(e.cpuDone, id)
	e.fired++
	h.Handle()
	return true
}

// StepWithin fires the next event if it is due less than d after Now(),
// without moving the clock, and reports whether it fired one. A driver that
// treats events closer than some precision as one instant (SimGrid finishes
// every action due within precision/timing of the current date at that
// date) calls Step for the first and StepWithin(precision) for the rest.
// The test is SimGrid's double_equals, date − now < d: the difference, not
// date < now + d, whose sum rounds (at a date of 1.7 ms one event 1 ns after
// another is one instant to SimGrid or not by the last bit). A profile's
// event is not one of them: SimGrid's solve applies those by their dates,
// after the instant's actors have run (a change dated 2e-18 s after a
// message's start then finds the message on its link).
func (e *Engine) StepWithin(d float64) bool {
	e.hold = true
	t, ok := e.look(false) // peek's look, without its call
	if !ok || !(t-e.now < d) {
		e.hold = false
		return false
	}
	e.Step()
	e.hold = false
	return true
}

// advance moves the clock forward to t; the clock never goes back (a flow
// projected to finish a rounding error in the past finishes now). SimGrid
// moves its clock by the delay to the next date, now + (t − now), which
// can differ from t in the last bit; under Options.SimGrid so does this.
func (e *Engine) advance(t float64) {
	if t > e.now && !e.hold {
		if e.simgrid {
			e.now += t - e.now
			return
		}
		e.now = t
	}
}

// FireOutside counts an event that the engine's driver kept outside the
// queue, due at time at, and moves the clock there: a timer of the driver's
// own (the ranks' probe costs in rank order) that it fires itself, having
// checked with Next that nothing in the queue is due before it. Events of
// the queue due at at as well fire after it, at the same instant.
func (e *Engine) FireOutside(at float64) {
	if !(at >= e.now) || math.IsInf(at, 1) {
		panic(fmt.Sprintf("emu: FireOutside(%v) at time %v: want a finite time, not before now", at, e.now))
	}
	if e.prof != nil {
		e.profileCatchUp(at)
	}
	e.advance(at)
	e.fired++
}
