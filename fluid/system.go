package fluid

import (
	"fmt"
	"math"
)

// Tolerances, named with their units (STYLE habit 8).
const (
	// remainingEpsilon is the amount of data below which a flow counts as
	// done, in bytes. It absorbs the rounding of rate × elapsed-time
	// products; SimGrid clamps at 1e-14 units of work for the same reason.
	remainingEpsilon = 1e-9 // bytes
)

// FlowID names a flow of a System. IDs are handed out in increasing order
// and never reused, so they also order flows finishing at the same date
// (through the flow's tie, heap.go). (It was int32: a whole Stampede run,
// 3,785 panels of ~842,000 messages, starts 3.2e9 flows and stopped at
// 2^31 after hours.)
type FlowID int64

// FlowSpec describes a flow to start.
type FlowSpec struct {
	Links []LinkID // forward route; each link is loaded at 1 × the flow's rate
	Bytes float64  // bytes left to move (≥ 0)
	Bound float64  // max rate, bytes/s; 0 = unbounded (e.g. TCP window γ/(2·RTT))
	// Weight is SimGrid's sharing penalty: on a common bottleneck, flows get
	// rates proportional to 1/Weight (a flow of weight 2 gets half the rate
	// of a flow of weight 1). SMPI sets it to the route's latency plus
	// Σ S/bandwidth (weight-S). 0 means 1.
	Weight float64
	// Reverse lists the links of the reverse route; each is loaded at
	// ReverseShare × the flow's rate (SMPI's cross-traffic, 0.05). A link
	// in both Links and Reverse gets the sum (Shared) or the max (FatPipe)
	// of its coefficients, as SimGrid merges them.
	Reverse      []LinkID
	ReverseShare float64
	// RateFactor, under the SimGrid solver, is SimGrid's rate factor (SMPI's
	// bandwidth factor): the flow occupies its links at its max-min rate x
	// and moves x·RateFactor bytes per second. 0 means 1. Without
	// the SimGrid solver the caller scales Bytes instead (the same times, other
	// floats).
	RateFactor float64
	// Loads, when not nil, is what System.Loads made of this spec's Links,
	// Reverse and ReverseShare, which the System then does not walk again:
	// a caller that starts many flows on one route (a rank pair's
	// messages) merges its links once. It must come from the same System.
	// Links, Reverse and ReverseShare are then not read: a caller may leave
	// the reverse route out (its route's second cache line, per message).
	Loads *Loads
}

// Solver is how a System rates its flows, chosen once for its life.
type Solver uint8

const (
	// Incremental (the default) is emu's max-min (solve.go): a flow's start
	// or end re-solves only the flows it can affect, those of the connected
	// component it touches whose level is not below where the change
	// enters the sweep. The only solver the Approximations apply to.
	Incremental Solver = iota
	// FullResolve is emu's max-min re-solving every flow on each change:
	// the same rates as Incremental with more work, a baseline for tests
	// and benchmarks.
	FullResolve
	// SimGrid rates flows with lmm, a replica of SimGrid 3.32's lazy
	// network model (simgrid.go): its solve once per Settle, latency phases
	// (StartLatent), its rate factor (FlowSpec.RateFactor) and its heap's
	// order among flows finishing at the same date.
	SimGrid
)

var solverNames = [...]string{Incremental: "incremental", FullResolve: "full-resolve", SimGrid: "simgrid"}

func (v Solver) String() string {
	if int(v) < len(solverNames) {
		return solverNames[v]
	}
	return fmt.Sprintf("Solver(%d)", v)
}

// Approximations trade exact max-min rates for speed on runs of many
// flows. Each is off at its zero value and applies to the Incremental
// solver only: FullResolve exists to be exact and SimGrid to be SimGrid's,
// so Options.Check refuses an approximation under either.
type Approximations struct {
	// LightBytes, when positive (light.go): a flow of at most LightBytes
	// bytes (FlowSpec.Bytes) whose links carry no other light flow gets,
	// when it starts, the rate max-min gives it, while the flows it shares
	// links with keep theirs; its start and end re-solve nothing. The
	// error is at most LightBytes bytes of light flows a link.
	LightBytes float64
	// LocalSolve (local.go): a flow's start or end re-solves the flows on
	// its links and grows that region only where a rate moved by more than
	// a relative 1e-9 next to a flow outside it, instead of re-solving the
	// whole component. The rates are max-min's but for such unpropagated
	// moves and rounding.
	LocalSolve bool
}

// Any reports whether an approximation is on.
func (a Approximations) Any() bool { return a.LightBytes != 0 || a.LocalSolve }

// Options choose a System's solver and the approximations it applies.
type Options struct {
	Solver Solver
	Approx Approximations
	// FreeFlows makes every flow a transfer that costs no time (the
	// compute-only bound: communication is free): a flow completes when it
	// starts, its links' traffic (RecordTraffic) still books its Bytes.
	// Links of a finite bandwidth, however large, left a 100-byte message
	// 1e-28 s. It is the System's, not a FlowSpec's: a bound frees every
	// message, and a field in each spec cost every run's copies of it.
	FreeFlows bool
}

// Check reports options no System can honour: an unknown Solver, a
// LightBytes that is negative, NaN or infinite, or an approximation
// under a Solver other than Incremental.
func (o Options) Check() error {
	if int(o.Solver) >= len(solverNames) {
		return fmt.Errorf("fluid: unknown solver %v", o.Solver)
	}
	if l := o.Approx.LightBytes; !(l >= 0) || math.IsInf(l, 1) {
		return fmt.Errorf("fluid: LightBytes = %v, want a finite value ≥ 0", l)
	}
	if o.Solver != Incremental && o.Approx.Any() {
		return fmt.Errorf("fluid: the %v solver takes no approximation (light bytes %v, local solve %v): they apply to the incremental solver only",
			o.Solver, o.Approx.LightBytes, o.Approx.LocalSolve)
	}
	return nil
}

// System is a max-min fair sharing of links between flows. It is a
// synchronous state machine: the caller passes the current time in, the
// System never reads a clock, and ties are broken by FlowID.
//
// The System owns what every flow has whichever solver rates it: its id,
// route (elems) and bound, its progress (rate, remaining bytes, completion
// date) and the completion heap, and the traffic accounting. The rates
// come from its solver, chosen once by NewSystemOptions, which owns the
// per-link and per-flow state of its own arithmetic (solver.go).
type System struct {
	links []linkCap
	flows flowTable
	free  []*flow // finished flows, reused with their elems arrays
	// bySlot is indexed by flow.slot, a dense index each flow struct keeps
	// for life (reused with it): the solvers keep their per-flow state in
	// arrays indexed by slot, and name flows by slot where a pointer would
	// make the garbage collector scan their lists.
	bySlot []*flow
	// idBySlot[slot] is the id of the flow in that slot while it runs:
	// NextCompletion, called at every event, names the first flow from
	// this dense array instead of a cache miss on its flow struct.
	idBySlot []FlowID
	nextID   FlowID
	// nextTie is the tie of the next flow added: its id, until 2^32 ties
	// have been handed out and retie renumbers them (heap.go).
	nextTie uint64
	now     float64 // time of the last call, s
	done    flowHeap
	model   solver // maxmin (solve.go) or, under the SimGrid solver, lmm (simgrid.go)
	sg      *lmm   // model under the SimGrid solver, nil otherwise (Settled reads it inline)
	// traffic is the per-link accounting of RecordTraffic; nil (the
	// default) keeps it off the hot path but for a nil check per event.
	traffic *traffic
	solves  SolveStats // emu's solver's work (maxmin.applySolve)
	// varying: link capacities will change (VaryCapacities, capacity.go),
	// so every flow keeps its bound.
	varying bool
	// freeFlows: Options.FreeFlows, every flow done when it starts.
	freeFlows bool
}

// SolveStats counts the work of emu's max-min solver since the System was
// made: how many times a start or end re-solved rates by progressive
// filling, how many flows those re-solves took in, and how many of those
// got a new rate. Flows alone on their links, light flows and flows on no
// Shared link are rated without a re-solve and not counted; under
// the SimGrid solver (SimGrid's lmm) nothing is counted.
//
// It tells where a run's network time goes: many re-solves of few flows
// cost their fixed part, few of many flows their size; Changed far below
// Flows means re-solves mostly confirm rates (what local re-solves,
// Approximations.LocalSolve, skip).
type SolveStats struct {
	Resolves uint64 // progressive fillings run
	Flows    uint64 // flows re-solved, summed over them
	Changed  uint64 // of Flows, those whose rate moved
}

// SolveStats returns the solver's counts so far.
func (s *System) SolveStats() SolveStats { return s.solves }

// linkCap is a link as a flow's route sees it: a FatPipe link caps the
// flow's rate, a Shared one becomes one of its elems.
type linkCap struct {
	capacity float64 // bytes/s
	sharing  Sharing
}

// elem is one (link, coefficient) of a flow on a Shared link.
type elem struct {
	coef float64 // link load per unit of the flow's rate
	link LinkID
	pos  int32 // maxmin's: index of this flow in its link's members
}

// flow is what the System keeps of a flow whichever solver rates it.
type flow struct {
	id        FlowID
	elems     []elem
	weight    float64 // penalty (> 0)
	bound     float64 // effective bound incl. fat-pipe caps, bytes/s; +Inf if none
	rate      float64 // bytes/s, current solution
	remaining float64 // bytes left at time last
	last      float64 // time remaining was last brought up to date, s
	finish    float64 // projected completion time, s; +Inf while stalled
	tie       uint64  // heap tie-breaker: id, or lmm's heap stamp
	slot      int32   // index in System.bySlot and the solvers' per-flow arrays, kept for life
	// routeElems: elems is its Loads' array (lmm's flows started with
	// FlowSpec.Loads), never to be written.
	routeElems bool
	// userBound and fats: the flow's own bound (+Inf if none) and the
	// FatPipe links folded into bound, kept only under emu's max-min when
	// capacities vary (VaryCapacities), so that a FatPipe link's new
	// capacity can re-cap its flows (capacity.go).
	userBound float64
	fats      []elem
}

// NewSystem returns an empty System over links, re-solving incrementally.
func NewSystem(links []Link) *System { return NewSystemOptions(links, Options{}) }

// NewSystemOptions is NewSystem with options. Options that Check refuses,
// and a negative or NaN bandwidth, are programmer errors (callers check
// their options, topologies their configs) and panic.
func NewSystemOptions(links []Link, opts Options) *System {
	if err := opts.Check(); err != nil {
		panic(err.Error())
	}
	s := &System{links: make([]linkCap, len(links)), done: flowHeap{}, freeFlows: opts.FreeFlows}
	for i, l := range links {
		if !(l.Bandwidth >= 0) {
			panic(fmt.Sprintf("fluid: link %d (%q) has bandwidth %v", i, l.Name, l.Bandwidth))
		}
		s.links[i] = linkCap{capacity: l.Bandwidth, sharing: l.Sharing}
	}
	if opts.Solver == SimGrid {
		s.sg = newLmm(s)
		s.model = s.sg
	} else {
		s.model = newMaxmin(s, opts)
	}
	return s
}

// Start adds a flow at time now, re-solves the part of the system it
// touches and returns the flow's id. A bad spec (unknown link, negative or
// NaN bytes, bound, weight or share) or a time earlier than the last call
// is a programmer error and panics. Under the SimGrid solver the flow gets
// its rate at the next Settle, as a StartLatent without latency.
func (s *System) Start(now float64, spec FlowSpec) FlowID {
	s.advance(now)
	return s.model.start(now, spec)
}

// StartAll starts several flows at time now with one re-solve, appends
// their ids to ids and returns it. It gives the rates of calling Start
// for each spec in order, for the cost of one call: the same max-min
// allocation, equal to rounding (each re-solves above its own threshold,
// so the floats' order of operations differs; threshold.go).
func (s *System) StartAll(now float64, specs []FlowSpec, ids []FlowID) []FlowID {
	s.advance(now)
	return s.model.startAll(now, specs, ids)
}

// StartLatent starts a flow in its latency phase: it loads no link until
// latency has passed, when it is enabled (Activate) — SimGrid's
// communicate(): a disabled variable, a heap entry of type latency at
// latency + now, and every link of the route marked modified. It needs
// the SimGrid solver; without it, it panics. spec is read during the
// call only: a pointer, so that a message's spec is not copied at each
// call on its way from the ranks to lmm.
func (s *System) StartLatent(now float64, spec *FlowSpec, latency float64) FlowID {
	s.advance(now)
	if s.sg == nil { // maxmin rates every flow when it starts: it has no latency phase
		panic("fluid: StartLatent needs the SimGrid solver")
	}
	return s.sg.startLatent(now, spec, latency)
}

// Latent reports whether flow id is still in its latency phase (never,
// without the SimGrid solver).
func (s *System) Latent(id FlowID) bool {
	f := s.mustFlow(id)
	return s.sg != nil && s.sg.latent(f)
}

// Activate ends flow id's latency phase at now: SimGrid's
// update_variable_penalty enables the variable (its elements go to the
// front of their links' lists) and marks its first link modified; the
// rate comes at the next Settle. It needs the SimGrid solver.
func (s *System) Activate(now float64, id FlowID) {
	s.advance(now)
	if s.sg == nil {
		panic("fluid: Activate needs the SimGrid solver")
	}
	s.sg.activate(now, s.mustFlow(id))
}

// Settle is SimGrid's solve at the end of an instant (the SimGrid solver,
// simgrid.go): the flows started, activated or finished since the last
// Settle get their rates and completion dates. Without the SimGrid solver every
// call is solved when it is made, and Settle only moves the clock.
func (s *System) Settle(now float64) {
	s.advance(now)
	if s.sg != nil {
		s.sg.settle(now)
	}
}

// Settled reports whether a Settle now would change nothing: under the
// SimGrid solver, no flow has started, ended or left its latency phase
// since the last one; under emu's solver, always. The engine asks before
// each Settle, about twice an event, most often of a settled System.
func (s *System) Settled() bool {
	return s.sg == nil || len(s.sg.frees) == 0 && len(s.sg.modified) == 0 && s.sg.lazies == 0
}

// NextCompletion returns the earliest projected completion among the
// running flows, ties broken by the lower id; ok is false when no flow will
// ever complete (none running, or all stalled at rate 0).
func (s *System) NextCompletion() (t float64, id FlowID, ok bool) {
	// Written to stay within the inliner's budget: the engine asks about
	// twice an event. (!(k > MaxFloat64) is !math.IsInf(k, 1), cheaper.)
	if e := s.done.Entries(); len(e) > 0 && !(e[0].Key > math.MaxFloat64) { // entries carry their flow's finish
		return e[0].Key, s.idBySlot[uint32(e[0].ID)], true
	}
	return 0, 0, false
}

// Finish removes a completed flow at time now and re-solves the part of the
// system it shared links with.
func (s *System) Finish(now float64, id FlowID) {
	s.advance(now)
	f := s.mustFlow(id)
	if s.traffic != nil {
		s.traffic.done[f.slot] = true
	}
	s.model.end(now, f)
}

// Cancel removes a flow whether or not it has completed.
func (s *System) Cancel(now float64, id FlowID) {
	s.advance(now)
	s.model.end(now, s.mustFlow(id))
}

// add registers a flow: its id, elems and bound, in the table and the
// completion heap, without a rate (−1) and without loading its links,
// which is its solver's part. A flow that crosses no Shared link shares
// nothing: its solver rates it at its bound (or +Inf) at once.
func (s *System) add(now float64, spec *FlowSpec) *flow {
	f := s.addUnqueued(now, spec)
	s.done.push(f)
	return f
}

// addUnqueued is add without the heap entry: the caller pushes f once its
// finish time and tie are set (lmm, which sets both at once), instead of
// pushing it at +Inf and moving it there.
func (s *System) addUnqueued(now float64, spec *FlowSpec) *flow {
	if !(spec.Bytes >= 0) || !(spec.Bound >= 0) || !(spec.Weight >= 0) || !(spec.ReverseShare >= 0) ||
		math.IsInf(spec.Weight, 1) || math.IsInf(spec.ReverseShare, 1) {
		panic(fmt.Sprintf("fluid: bad flow spec %+v", *spec))
	}
	if s.nextTie > tieLimit {
		s.nextTie = s.retie() + 1
	}
	f := s.newFlow()
	f.id, f.remaining, f.last, f.weight, f.bound = s.nextID, spec.Bytes, now, spec.Weight, math.Inf(1)
	if s.freeFlows {
		f.remaining = 0
	}
	f.tie = s.nextTie
	s.idBySlot[f.slot] = f.id
	s.nextID++
	s.nextTie++
	if s.traffic != nil {
		whole := spec.Bytes
		if s.sg != nil && spec.RateFactor > 0 {
			whole /= spec.RateFactor // its links carry its rate, it moves RateFactor × as many bytes
		}
		s.traffic.reset(f.slot, whole)
	}
	if f.weight == 0 {
		f.weight = 1
	}
	if spec.Bound > 0 {
		f.bound = spec.Bound
	}
	if ld := spec.Loads; ld != nil {
		if ld.sys != s {
			panic("fluid: FlowSpec.Loads made by another System")
		}
		if s.sg != nil {
			// lmm only reads a flow's elems (maxmin keeps its places in
			// them): the flow takes its route's, capped so that no append
			// can write into them, and recycle lets them go.
			f.elems, f.routeElems = ld.elems[:len(ld.elems):len(ld.elems)], true
		} else {
			for _, e := range ld.elems { // one at a time: a route has a few, fewer than a call of memmove costs
				f.elems = append(f.elems, e)
			}
		}
		f.bound = min(f.bound, ld.fatCap) // exact: the float addElem's mins reach one link at a time
		if s.keepsFats() {
			f.userBound, f.fats = spec.boundOrInf(), append(f.fats[:0], ld.fat...)
		}
		if s.traffic != nil {
			for _, e := range ld.fat {
				s.traffic.addFat(f.slot, e.link, e.coef)
			}
		}
		// The test below holds for some elem exactly when it holds for
		// the least C/coef.
		if f.bound >= ld.sharedCap && !s.keepsBounds() {
			f.bound = math.Inf(1)
		}
	} else {
		if s.keepsFats() {
			f.userBound, f.fats = spec.boundOrInf(), f.fats[:0]
		}
		for _, l := range spec.Links {
			s.addElem(f, l, 1)
		}
		if spec.ReverseShare > 0 {
			for _, l := range spec.Reverse {
				s.addElem(f, l, spec.ReverseShare)
			}
		}
		// A bound no lower than some Shared link's C/coef can never bind
		// (feasibility already caps the rate there): drop it, so the solver
		// does not sort flows whose TCP window is far above any link's speed.
		// (An SMPI route's TCP window is already above its first link's C/coef:
		// one division a start, not one a link.)
		if !math.IsInf(f.bound, 1) && !s.keepsBounds() {
			for _, e := range f.elems {
				if f.bound >= s.links[e.link].capacity/e.coef {
					f.bound = math.Inf(1)
					break
				}
			}
		}
	}
	s.flows.put(f)
	f.finish = math.Inf(1)
	f.rate = -1 // no rate yet: the first rate, whatever it is, projects the completion
	return f
}

// keepsBounds says whether the solver needs a flow's bound even where a
// link's C/coef is lower: SimGrid's (lmm) solves only the constraints
// modified since its last solve, so a flow can be rated without the link
// that caps it, and then its bound binds, as in SimGrid.
func (s *System) keepsBounds() bool { return s.sg != nil || s.varying }

// addElem records that f loads link l at coef × its rate, merging repeated
// links as SimGrid does (sum on Shared links, max on FatPipe ones). A
// FatPipe link only caps the flow, coef·x ≤ capacity; under the SimGrid
// solver it is an elem like a Shared link's, which lmm solves as SimGrid's
// FATPIPE constraint (simgrid.go).
func (s *System) addElem(f *flow, l LinkID, coef float64) {
	var fat bool
	if f.elems, f.bound, fat = s.merge(f.elems, f.bound, l, coef); fat && s.traffic != nil {
		s.traffic.addFat(f.slot, l, coef)
	}
	if fat && s.keepsFats() {
		f.fats = append(f.fats, elem{link: l, coef: coef})
	}
}

// boundOrInf is the spec's Bound, +Inf for none.
func (spec *FlowSpec) boundOrInf() float64 {
	if spec.Bound > 0 {
		return spec.Bound
	}
	return math.Inf(1)
}

// keepsFats says whether flows keep their FatPipe links and own bound
// (flow.fats): under emu's max-min, where a FatPipe link is a cap folded
// into each flow's bound, once capacities vary.
func (s *System) keepsFats() bool { return s.varying && s.sg == nil }

// capped is bound (+Inf if none) capped by f's FatPipe links at their
// capacities now (f.fats: none unless keepsFats).
func (s *System) capped(f *flow, bound float64) float64 {
	for _, e := range f.fats {
		bound = min(bound, s.links[e.link].capacity/e.coef)
	}
	return bound
}

// merge is addElem on a flow's elems and bound, for a flow or for Loads;
// fat says that l is a FatPipe link it folded into the bound (all of them
// but under the SimGrid solver).
func (s *System) merge(elems []elem, bound float64, l LinkID, coef float64) (_ []elem, _ float64, fat bool) {
	if l < 0 || int(l) >= len(s.links) {
		panic(fmt.Sprintf("fluid: flow uses link %d, system has %d links", l, len(s.links)))
	}
	fatPipe := s.links[l].sharing == FatPipe
	if fatPipe && s.sg == nil {
		return elems, min(bound, s.links[l].capacity/coef), true
	}
	for i := range elems {
		if elems[i].link == l {
			if fatPipe { // SimGrid's expand_add_to_elem: the max on a FATPIPE constraint
				elems[i].coef = max(elems[i].coef, coef)
			} else {
				elems[i].coef += coef
			}
			return elems, bound, false
		}
	}
	return append(elems, elem{link: l, coef: coef}), bound, false
}

// Loads is a route as a flow loads it, made once for many flows by
// System.Loads: its Shared links merged with their coefficients, in the
// order a flow's start merges them, and the rate caps of its FatPipe
// links and of its Shared ones.
type Loads struct {
	sys       *System
	elems     []elem  // the Shared links and coefficients, as addElem leaves them
	fat       []elem  // the FatPipe links and coefficients, for the traffic accounting
	fatCap    float64 // min over fat of capacity/coef; +Inf if none
	sharedCap float64 // min over elems of capacity/coef; +Inf if none
}

// Loads merges the links of spec (Links, and Reverse at ReverseShare) as
// starting a flow of that spec would, for FlowSpec.Loads: flows started
// with it skip the merge, and get the very elems, bound and traffic
// accounting they would get without it. A bad link panics, as at a start.
func (s *System) Loads(spec FlowSpec) *Loads {
	ld := &Loads{sys: s, fatCap: math.Inf(1), sharedCap: math.Inf(1)}
	add := func(l LinkID, coef float64) {
		var fat bool
		if ld.elems, ld.fatCap, fat = s.merge(ld.elems, ld.fatCap, l, coef); fat {
			ld.fat = append(ld.fat, elem{link: l, coef: coef})
		}
	}
	for _, l := range spec.Links {
		add(l, 1)
	}
	if spec.ReverseShare > 0 {
		for _, l := range spec.Reverse {
			add(l, spec.ReverseShare)
		}
	}
	for _, e := range ld.elems {
		ld.sharedCap = min(ld.sharedCap, s.links[e.link].capacity/e.coef)
	}
	return ld
}

// newFlow returns a zeroed flow, reusing a finished one (and its elems
// array) when there is one: a flow start then allocates nothing.
func (s *System) newFlow() *flow {
	if n := len(s.free); n > 0 {
		f := s.free[n-1]
		s.free[n-1] = nil
		s.free = s.free[:n-1]
		return f
	}
	f := &flow{slot: int32(len(s.bySlot))}
	s.bySlot = append(s.bySlot, f)
	s.idBySlot = append(s.idBySlot, 0)
	return f
}

// recycle keeps a removed flow for newFlow. Nothing refers to it any more:
// its solver took it off its links, the heap and the table.
func (s *System) recycle(f *flow) {
	elems, fats, slot := f.elems[:0], f.fats[:0], f.slot
	if f.routeElems { // its Loads' own, not the flow's to reuse
		elems = nil
	}
	*f = flow{} // cleared in place, then given back what it keeps: a literal that reads *f is built aside and copied
	f.elems, f.fats, f.slot = elems, fats, slot
	s.free = append(s.free, f)
}

// Rate returns the flow's current rate in bytes/s (+Inf for a flow that
// crosses no Shared link and has no bound).
func (s *System) Rate(id FlowID) float64 { return s.mustFlow(id).rate }

// Remaining returns the bytes the flow still has to move at time now
// (≥ the time of the last call).
func (s *System) Remaining(now float64, id FlowID) float64 {
	f := s.mustFlow(id)
	if f.rate <= 0 || math.IsInf(f.rate, 1) {
		return f.remaining
	}
	return math.Max(0, f.remaining-f.rate*(now-f.last))
}

// Active returns the number of flows in the system.
func (s *System) Active() int { return s.flows.n }

func (s *System) mustFlow(id FlowID) *flow {
	f := s.flows.get(id)
	if f == nil {
		panic(fmt.Sprintf("fluid: unknown flow %d", id))
	}
	return f
}

// advance runs at every call: its panic is a call of its own, so that it
// inlines.
func (s *System) advance(now float64) {
	if !(now >= s.now) { // earlier, or NaN
		s.timeGoesBack(now)
	}
	s.now = now
}

//go:noinline
func (s *System) timeGoesBack(now float64) {
	panic(fmt.Sprintf("fluid: time goes back from %v to %v", s.now, now))
}

// switchRate brings f's remaining bytes up to now at its old rate, then
// switches it to rate x and re-projects its completion, with emu's
// arithmetic (maxmin.setRate; lmm uses it only to rate a flow that
// crosses no Shared link when it starts, and otherwise its own,
// reproject).
func (s *System) switchRate(now float64, f *flow, x float64) {
	if s.traffic != nil {
		s.traffic.carry(f, now)
	}
	if f.rate > 0 && !math.IsInf(f.rate, 1) {
		f.remaining -= f.rate * (now - f.last)
	}
	f.last = now
	f.rate = x
	switch {
	case f.remaining < remainingEpsilon || math.IsInf(x, 1):
		f.remaining = 0
		f.finish = now
	case x > 0:
		f.finish = now + f.remaining/x
	default:
		f.finish = math.Inf(1)
	}
	s.done.fix(f)
}
