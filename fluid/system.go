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
// and never reused, so they also serve as the deterministic tie-breaker.
type FlowID int32

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
	// RateFactor, under Options.SimGridHeap, is SimGrid's rate factor (SMPI's
	// bandwidth factor): the flow occupies its links at its max-min rate x
	// and moves x·RateFactor bytes per second. 0 means 1. Without
	// SimGridHeap the caller scales Bytes instead (the same times, other
	// floats).
	RateFactor float64
}

// Options tunes a System.
type Options struct {
	// FullResolve re-solves every flow on each change instead of only the
	// flows the change can affect (its component, above its level). Same
	// rates, more work: it exists as a baseline for tests and benchmarks.
	FullResolve bool
	// SimGridHeap breaks ties between flows finishing at the same date as
	// SimGrid 3.32's lazy network model does (see simgrid.go).
	SimGridHeap bool
	// LightBytes, when positive, is an approximation (light.go): a flow of
	// at most LightBytes bytes (FlowSpec.Bytes) whose links carry no other
	// light flow gets, when it starts, the rate max-min gives it, while the
	// flows it shares links with keep theirs; its start and end re-solve
	// nothing. 0 (the default) keeps every rate exact. Ignored under
	// SimGridHeap.
	LightBytes float64
}

// System is a max-min fair sharing of links between flows. It is a
// synchronous state machine: the caller passes the current time in, the
// System never reads a clock, and ties are broken by FlowID.
type System struct {
	opts  Options
	links []linkState
	flows flowTable
	free  []*flow // finished flows, reused with their elems arrays
	// bySlot and hot are indexed by flow.slot, a dense index each flow
	// struct keeps for life (reused with it): members name their flow by
	// slot, and what the solver reads of a flow sits in hot (flowHot)
	// instead of behind a pointer into a flow struct.
	bySlot []*flow
	hot    []flowHot
	nextID FlowID
	now    float64 // time of the last call, s
	done   flowHeap
	solver solver
	batch  []elem // seeds of StartAll, reused
	sg     sgState
	// traffic is the per-link accounting of RecordTraffic; nil (the
	// default) keeps it off the hot path but for a nil check per event.
	traffic *traffic
	light   lightState // Options.LightBytes's bookkeeping (light.go)
}

// linkState is one link's constraint and the flows loading it.
type linkState struct {
	capacity float64 // bytes/s
	sharing  Sharing
	members  []member // flows with a positive coefficient on a Shared link
}

// member is a flow's entry in a link's member list. It holds no pointer,
// so the garbage collector does not scan member lists.
type member struct {
	share float64 // coefficient / weight: the flow's weight in the link's usage
	coef  float64 // copy of the flow's elem coefficient on this link
	slot  int32   // the flow's slot: System.bySlot, System.hot
	elem  int32   // index into the flow's elems
}

// flowHot is what the solver reads of a flow: its stamp, rate and level
// for every member of a link it scans, and its elems, weight and new rate
// once the flow is re-solved. It sits in one dense array (System.hot),
// 64 bytes a flow (640 KB for 10,000 flows), so a re-solve touches the
// flow structs only of the flows whose rates change.
type flowHot struct {
	stamp   uint32  // solver.stamp: being re-solved, unfixed; solver.stamp+1: fixed
	bounded bool    // flow.bound is finite
	rate    float64 // copy of flow.rate
	level   float64 // rate × weight; NaN while the flow has no rate yet (rate −1)
	weight  float64 // copy of flow.weight
	x       float64 // newly computed rate
	elems   []elem  // the flow's elems (same array as flow.elems, fixed once the flow is added)
}

// elem is one (link, coefficient) of a flow on a Shared link.
type elem struct {
	coef float64 // link load per unit of the flow's rate
	link LinkID
	pos  int32 // index of this flow in links[link].members
}

type flow struct {
	id        FlowID
	elems     []elem
	weight    float64 // penalty (> 0)
	bound     float64 // effective bound incl. fat-pipe caps, bytes/s; +Inf if none
	rate      float64 // bytes/s, current solution
	remaining float64 // bytes left at time last
	last      float64 // time remaining was last brought up to date, s
	finish    float64 // projected completion time, s; +Inf while stalled
	tie       uint64  // heap tie-breaker: id, or the SimGrid heap stamp
	// SimGrid heap semantics (Options.SimGridHeap)
	latent     bool    // in its latency phase: not yet on its links
	visited    uint64  // update_modified_cnst_set_rec's marker
	inMod      uint64  // in the modified action list of solve inMod
	sgValue    float64 // SimGrid's variable value from the last sgSolve
	factor     float64 // FlowSpec.RateFactor (SimGridHeap), 1 if none
	inSat      bool    // in the saturated_variable_set
	activeMask uint64  // elems (by index, first 64) in their links' active_element_set
	slot       int32   // index in System.bySlot and System.hot, kept for life
}

// NewSystem returns an empty System over links, re-solving incrementally.
func NewSystem(links []Link) *System { return NewSystemOptions(links, Options{}) }

// NewSystemOptions is NewSystem with options. A negative or NaN bandwidth is
// a programmer error (topologies validate their configs) and panics.
func NewSystemOptions(links []Link, opts Options) *System {
	s := &System{opts: opts, links: make([]linkState, len(links)), done: flowHeap{}, solver: solver{queue: newLevelQueue()}}
	for i, l := range links {
		if !(l.Bandwidth >= 0) {
			panic(fmt.Sprintf("fluid: link %d (%q) has bandwidth %v", i, l.Name, l.Bandwidth))
		}
		s.links[i] = linkState{capacity: l.Bandwidth, sharing: l.Sharing}
	}
	return s
}

// Start adds a flow at time now, re-solves the part of the system it
// touches and returns the flow's id. A bad spec (unknown link, negative or
// NaN bytes, bound, weight or share) or a time earlier than the last call
// is a programmer error and panics. Under Options.SimGridHeap the flow gets
// its rate at the next Settle, as a StartLatent without latency.
func (s *System) Start(now float64, spec FlowSpec) FlowID {
	if s.opts.SimGridHeap {
		return s.StartLatent(now, spec, 0) // SimGrid's solve, at the next Settle
	}
	s.advance(now)
	f := s.add(now, spec)
	if x, ok := s.alone(f); ok {
		s.setRate(now, f, x)
	} else if !s.startLight(now, f, spec) {
		s.resolveFrom(now, f)
	}
	return f.id
}

// StartAll starts several flows at time now with one re-solve, appends
// their ids to ids and returns it. It gives the same rates as calling
// Start for each spec in order, for the cost of one call.
func (s *System) StartAll(now float64, specs []FlowSpec, ids []FlowID) []FlowID {
	if s.opts.SimGridHeap {
		for _, spec := range specs {
			ids = append(ids, s.StartLatent(now, spec, 0))
		}
		return ids
	}
	s.advance(now)
	s.batch = s.batch[:0]
	first := len(ids)
	for _, spec := range specs {
		f := s.add(now, spec)
		ids = append(ids, f.id)
	}
	// Only once all are in can a flow be known to be alone on its links.
	light := false
	for i, id := range ids[first:] {
		f := s.flows.get(id)
		if x, ok := s.alone(f); ok {
			s.setRate(now, f, x)
		} else if s.isLight(specs[i]) {
			light = true // rated after the others (light.go)
		} else {
			s.batch = append(s.batch, f.elems...)
		}
	}
	if len(s.batch) > 0 {
		s.resolveAbove(now, s.batch, 0)
	}
	if light {
		s.startLightBatch(now, specs, ids[first:])
	}
	return ids
}

// alone returns the rate of a flow that is the only one on each of its
// Shared links, and whether it is. Such a flow is a component of its own:
// progressive filling would fix it at the level of its lowest link,
// capacity/share, or at its bound if that comes first — computed here with
// the solver's very operations, so the rate is the same float, without
// building a heap. (SPMD traffic on private links is mostly such flows.)
func (s *System) alone(f *flow) (float64, bool) {
	if s.opts.FullResolve || len(f.elems) == 0 {
		return 0, false
	}
	level := math.Inf(1)
	for _, e := range f.elems {
		ls := &s.links[e.link]
		if len(ls.members) != 1 {
			return 0, false
		}
		level = math.Min(level, max(ls.capacity, 0)/ls.members[0].share)
	}
	if f.bound*f.weight <= level {
		return f.bound, true
	}
	return level / f.weight, true
}

// add registers a flow without solving. A flow that crosses no Shared
// link shares nothing: it gets its bound (or +Inf) at once.
func (s *System) add(now float64, spec FlowSpec) *flow { return s.addFlow(now, spec, true) }

func (s *System) addFlow(now float64, spec FlowSpec, attach bool) *flow {
	if !(spec.Bytes >= 0) || !(spec.Bound >= 0) || !(spec.Weight >= 0) || !(spec.ReverseShare >= 0) ||
		math.IsInf(spec.Weight, 1) || math.IsInf(spec.ReverseShare, 1) {
		panic(fmt.Sprintf("fluid: bad flow spec %+v", spec))
	}
	if s.nextID < 0 {
		panic("fluid: more than 2^31 flows started in one System")
	}
	f := s.newFlow()
	f.id, f.remaining, f.last, f.weight, f.bound = s.nextID, spec.Bytes, now, spec.Weight, math.Inf(1)
	f.tie = uint64(f.id)
	f.factor = 1
	if spec.RateFactor > 0 {
		f.factor = spec.RateFactor
	}
	s.nextID++
	if s.traffic != nil {
		s.traffic.reset(f.slot)
	}
	if f.weight == 0 {
		f.weight = 1
	}
	if spec.Bound > 0 {
		f.bound = spec.Bound
	}
	for _, l := range spec.Links {
		s.addElem(f, l, 1)
	}
	if spec.ReverseShare > 0 {
		for _, l := range spec.Reverse {
			s.addElem(f, l, spec.ReverseShare)
		}
	}
	// A bound no lower than every Shared link's C/coef can never bind
	// (feasibility already caps the rate there): drop it, so the solver
	// does not sort flows whose TCP window is far above any link's speed.
	linkCap := math.Inf(1)
	for _, e := range f.elems {
		linkCap = math.Min(linkCap, s.links[e.link].capacity/e.coef)
	}
	if f.bound >= linkCap {
		f.bound = math.Inf(1)
	}
	if attach {
		s.attach(f)
		if s.traffic != nil {
			s.traffic.enter(f, now)
		}
	}
	s.flows.put(f)
	f.finish = math.Inf(1)
	f.rate = -1 // no rate yet: forces setRate to project the completion
	s.hot[f.slot] = flowHot{rate: -1, level: math.NaN(), elems: f.elems, weight: f.weight, bounded: !math.IsInf(f.bound, 1)}
	s.done.push(f)
	if len(f.elems) == 0 {
		s.setRate(now, f, f.bound)
	}
	return f
}

// attach puts f on its links' member lists.
func (s *System) attach(f *flow) {
	for i := range f.elems {
		e := &f.elems[i]
		e.pos = int32(len(s.links[e.link].members))
		s.links[e.link].members = append(s.links[e.link].members, member{share: e.coef / f.weight, coef: e.coef, slot: f.slot, elem: int32(i)})
	}
}

// detach takes f off its links' member lists.
func (s *System) detach(f *flow) {
	for _, e := range f.elems {
		ls := &s.links[e.link]
		last := len(ls.members) - 1
		moved := ls.members[last]
		ls.members[e.pos] = moved
		s.bySlot[moved.slot].elems[moved.elem].pos = e.pos
		ls.members = ls.members[:last]
	}
}

// resolveFrom re-solves after flow f started: only flows at or above the
// level where f's first link saturates can change (see threshold.go).
func (s *System) resolveFrom(now float64, f *flow) {
	if len(f.elems) > 0 {
		s.resolveAbove(now, f.elems, s.startLevel(f))
	}
}

// addElem records that f loads link l at coef × its rate, merging repeated
// links as SimGrid does (sum on Shared links, max on FatPipe ones). A
// FatPipe link only caps the flow: coef·x ≤ capacity.
func (s *System) addElem(f *flow, l LinkID, coef float64) {
	if l < 0 || int(l) >= len(s.links) {
		panic(fmt.Sprintf("fluid: flow uses link %d, system has %d links", l, len(s.links)))
	}
	if s.links[l].sharing == FatPipe {
		f.bound = math.Min(f.bound, s.links[l].capacity/coef)
		if s.traffic != nil {
			s.traffic.addFat(f.slot, l, coef)
		}
		return
	}
	for i := range f.elems {
		if f.elems[i].link == l {
			f.elems[i].coef += coef
			return
		}
	}
	f.elems = append(f.elems, elem{link: l, coef: coef})
}

// NextCompletion returns the earliest projected completion among the
// running flows, ties broken by the lower id; ok is false when no flow will
// ever complete (none running, or all stalled at rate 0).
func (s *System) NextCompletion() (t float64, id FlowID, ok bool) {
	if e := s.done.Entries(); len(e) > 0 && !math.IsInf(e[0].Key, 1) { // entries carry their flow's finish
		return e[0].Key, s.bySlot[uint32(e[0].ID)].id, true
	}
	return 0, 0, false
}

// Finish removes a completed flow at time now and re-solves the part of the
// system it shared links with.
func (s *System) Finish(now float64, id FlowID) {
	if s.opts.SimGridHeap {
		s.finishSG(now, id)
		return
	}
	s.remove(now, id)
}

// Cancel removes a flow whether or not it has completed.
func (s *System) Cancel(now float64, id FlowID) {
	if s.opts.SimGridHeap {
		s.finishSG(now, id)
		return
	}
	s.remove(now, id)
}

func (s *System) remove(now float64, id FlowID) {
	s.advance(now)
	f := s.mustFlow(id)
	// Only flows at or above f's level can change (see threshold.go).
	level := 0.0
	if f.rate > 0 && !math.IsInf(f.rate, 1) {
		level = f.rate * f.weight
	}
	if s.traffic != nil {
		s.traffic.leave(f, now)
	}
	s.flows.del(id)
	s.done.remove(f)
	s.detach(f)
	if s.light.is(f.slot) {
		if !s.endLight(f) { // it moved no other flow: nothing to give back
			s.recycle(f)
			return
		}
		level = 0 // restart the stalled flows (light.go)
	}
	if s.opts.FullResolve || !s.emptied(f) {
		s.resolveAbove(now, f.elems, level)
	}
	s.recycle(f)
}

// emptied reports whether every link of a removed flow f is now idle: the
// re-solve would then find no flow to update.
func (s *System) emptied(f *flow) bool {
	for _, e := range f.elems {
		if len(s.links[e.link].members) > 0 {
			return false
		}
	}
	return true
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
	s.hot = append(s.hot, flowHot{})
	return f
}

// recycle keeps a removed flow for newFlow. Nothing refers to it any more:
// remove took it out of the links, the heap and the table, and the
// solver's lists are rebuilt before each use.
func (s *System) recycle(f *flow) {
	*f = flow{elems: f.elems[:0], slot: f.slot}
	s.hot[f.slot] = flowHot{}
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

func (s *System) advance(now float64) {
	if now < s.now || math.IsNaN(now) {
		panic(fmt.Sprintf("fluid: time goes back from %v to %v", s.now, now))
	}
	s.now = now
}

// setRate brings f's remaining bytes up to now at its old rate, then
// switches it to rate x and re-projects its completion. An unchanged rate
// leaves the flow alone: its projection still holds, and skipping it keeps
// rounding from accumulating on flows a re-solve did not really affect.
func (s *System) setRate(now float64, f *flow, x float64) {
	if f.rate == x {
		return
	}
	if s.traffic != nil {
		s.traffic.carry(f, now)
	}
	if f.rate > 0 && !math.IsInf(f.rate, 1) {
		f.remaining -= f.rate * (now - f.last)
	}
	f.last = now
	f.rate = x
	h := &s.hot[f.slot]
	h.rate, h.level = x, x*f.weight
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

func (f *flow) activeOn(l LinkID) bool {
	for i, e := range f.elems {
		if e.link == l {
			return i < 64 && f.activeMask&(1<<uint(i)) != 0
		}
	}
	return false
}

func (f *flow) setActive(l LinkID, on bool) {
	for i, e := range f.elems {
		if e.link == l && i < 64 {
			if on {
				f.activeMask |= 1 << uint(i)
			} else {
				f.activeMask &^= 1 << uint(i)
			}
		}
	}
}
