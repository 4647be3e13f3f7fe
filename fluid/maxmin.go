package fluid

import "math"

// maxmin is emu's own solver (solver.go): weighted max-min fair rates by
// progressive filling, re-solved when a flow starts or ends, for only the
// flows the change can affect (solve.go, threshold.go), and light flows
// (light.go) when Approximations.LightBytes asks for them.
type maxmin struct {
	sys   *System
	full  bool        // Solver FullResolve: every change re-solves every flow
	local bool        // Approximations.LocalSolve: re-solve a region grown from the change (local.go)
	links []linkState // per link
	// hot is indexed by flow.slot: members name their flow by slot, and
	// what the solver reads of a flow sits here (flowHot) instead of
	// behind a pointer into a flow struct.
	hot   []flowHot
	fill  filling    // one re-solve's scratch (solve.go)
	batch []elem     // seeds of startAll, reused
	added []*flow    // the flows of startAll, reused
	light lightState // Approximations.LightBytes' bookkeeping (light.go)
}

// linkState is one link's constraint and the flows loading it.
type linkState struct {
	capacity float64  // bytes/s
	members  []member // flows with a positive coefficient on a Shared link
}

// member is a flow's entry in a link's member list. It holds no pointer,
// so the garbage collector does not scan member lists.
type member struct {
	share float64 // coefficient / weight: the flow's weight in the link's usage
	coef  float64 // copy of the flow's elem coefficient on this link
	slot  int32   // the flow's slot: System.bySlot, maxmin.hot
	elem  int32   // index into the flow's elems
}

// flowHot is what the solver reads of a flow: its stamp, rate and level
// for every member of a link it scans, and its elems, weight and new rate
// once the flow is re-solved. It sits in one dense array (maxmin.hot),
// 64 bytes a flow (640 KB for 10,000 flows), so a re-solve touches the
// flow structs only of the flows whose rates change.
type flowHot struct {
	stamp   uint32  // filling.stamp: being re-solved, unfixed; filling.stamp+1: fixed
	bounded bool    // flow.bound is finite
	rate    float64 // copy of flow.rate
	level   float64 // rate × weight; NaN while the flow has no rate yet (rate −1)
	weight  float64 // copy of flow.weight
	x       float64 // newly computed rate
	elems   []elem  // the flow's elems (same array as flow.elems, fixed once the flow is added)
}

func newMaxmin(s *System, opts Options) *maxmin {
	m := &maxmin{sys: s, full: opts.Solver == FullResolve, local: opts.Approx.LocalSolve, links: make([]linkState, len(s.links)), fill: filling{queue: newLevelQueue()}}
	for l, c := range s.links {
		m.links[l].capacity = c.capacity
	}
	m.light.max = opts.Approx.LightBytes
	return m
}

func (m *maxmin) start(now float64, spec FlowSpec) FlowID {
	f := m.add(now, &spec)
	if x, ok := m.alone(f); ok {
		m.setRate(now, f, x)
	} else if !m.startLight(now, f, spec) {
		m.resolveFrom(now, f)
	}
	return f.id
}

func (m *maxmin) startAll(now float64, specs []FlowSpec, ids []FlowID) []FlowID {
	m.batch, m.added = m.batch[:0], m.added[:0]
	first := len(ids)
	for i := range specs {
		f := m.add(now, &specs[i]) // by address: a FlowSpec is 12 words
		ids, m.added = append(ids, f.id), append(m.added, f)
	}
	// Only once all are in can a flow be known to be alone on its links.
	light := false
	for i, f := range m.added {
		// (kept by pointer: no look-up of each id in the flow table)
		if x, ok := m.alone(f); ok {
			m.setRate(now, f, x)
		} else if m.isLight(specs[i]) {
			light = true // rated after the others (light.go)
		} else {
			m.batch = append(m.batch, f.elems...)
		}
	}
	if len(m.batch) > 0 {
		// Only flows at or above the level where the first link of the
		// batch's unrated flows saturates can change (threshold.go). That
		// needs the current rates to be max-min, which light flows break:
		// one overloads its links while it runs, and its end leaves
		// capacity unused. With them on, a batch re-solves whole
		// components, which also makes the light flows it reaches
		// ordinary; above a level, a flow could be fixed at rate 0 beside
		// frozen light flows and never restarted.
		level := 0.0
		if !m.full && m.light.max == 0 {
			level = m.batchLevel(m.added)
		}
		m.resolveAbove(now, m.batch, level)
	}
	if light {
		m.startLightBatch(now, specs, ids[first:])
	}
	return ids
}

// add registers a flow with the System and puts it on its links' member
// lists, unrated but for a flow that crosses no Shared link.
func (m *maxmin) add(now float64, spec *FlowSpec) *flow {
	s := m.sys
	f := s.add(now, spec)
	m.attach(f)
	if s.traffic != nil {
		s.traffic.enter(f, now)
	}
	if int(f.slot) == len(m.hot) {
		m.hot = append(m.hot, flowHot{})
	}
	h := &m.hot[f.slot] // field by field, every one: a composite literal is built aside, then copied
	h.stamp, h.bounded, h.rate, h.level, h.weight, h.x, h.elems = 0, !math.IsInf(f.bound, 1), -1, math.NaN(), f.weight, 0, f.elems
	if len(f.elems) == 0 {
		m.setRate(now, f, f.bound)
	}
	return f
}

// alone returns the rate of a flow that is the only one on each of its
// Shared links, and whether it is. Such a flow is a component of its own:
// progressive filling would fix it at the level of its lowest link,
// capacity/share, or at its bound if that comes first — computed here with
// the solver's very operations, so the rate is the same float, without
// building a heap. (SPMD traffic on private links is mostly such flows.)
func (m *maxmin) alone(f *flow) (float64, bool) {
	if m.full || len(f.elems) == 0 {
		return 0, false
	}
	level := math.Inf(1)
	for _, e := range f.elems {
		ls := &m.links[e.link]
		if len(ls.members) != 1 {
			return 0, false
		}
		c := ls.capacity
		if !(c > 0) { // max, whose NaN and −0 care costs a dozen instructions, only when it can change something
			c = max(c, 0)
		}
		level = min(level, c/ls.members[0].share)
	}
	if f.bound*f.weight <= level {
		return f.bound, true
	}
	return level / f.weight, true
}

// attach puts f on its links' member lists.
func (m *maxmin) attach(f *flow) {
	// Locals: the stores below would make the compiler reload the fields.
	links, elems, weight, slot := m.links, f.elems, f.weight, f.slot
	for i := range elems {
		e := &elems[i]
		ls := &links[e.link]
		e.pos = int32(len(ls.members))
		ls.members = append(ls.members, member{share: e.coef / weight, coef: e.coef, slot: slot, elem: int32(i)})
	}
}

// detach takes f off its links' member lists.
func (m *maxmin) detach(f *flow) {
	for _, e := range f.elems {
		ls := &m.links[e.link]
		last := len(ls.members) - 1
		moved := ls.members[last]
		ls.members[e.pos] = moved
		m.hot[moved.slot].elems[moved.elem].pos = e.pos // the flow's elems, without a trip through its struct
		ls.members = ls.members[:last]
	}
}

// resolveFrom re-solves after flow f started: only flows at or above the
// level where f's first link saturates can change (see threshold.go).
func (m *maxmin) resolveFrom(now float64, f *flow) {
	if len(f.elems) > 0 {
		m.resolveAbove(now, f.elems, m.startLevel(f))
	}
}

// end removes f and re-solves the flows it shared links with.
func (m *maxmin) end(now float64, f *flow) {
	s := m.sys
	// Only flows at or above f's level can change (see threshold.go).
	level := 0.0
	if f.rate > 0 && !math.IsInf(f.rate, 1) {
		level = f.rate * f.weight
	}
	if s.traffic != nil {
		s.traffic.leave(f, now)
	}
	s.flows.del(f.id)
	s.done.remove(f)
	m.detach(f)
	if m.light.is(f.slot) {
		if !m.endLight(f) { // it moved no other flow: nothing to give back
			m.recycle(f)
			return
		}
		level = 0 // restart the stalled flows (light.go)
	}
	if m.full || !m.emptied(f) && !m.endAlone(now, f, level) {
		m.resolveAbove(now, f.elems, level)
	}
	m.recycle(f)
}

// recycle forgets f's solver entry and gives f back to the System.
func (m *maxmin) recycle(f *flow) {
	m.hot[f.slot] = flowHot{}
	m.sys.recycle(f)
}

// emptied reports whether every link of a removed flow f is now idle: the
// re-solve would then find no flow to update.
func (m *maxmin) emptied(f *flow) bool {
	for _, e := range f.elems {
		if len(m.links[e.link].members) > 0 {
			return false
		}
	}
	return true
}

// endAloneOn is endAlone's switch: a variable so that the tests can
// compare it with the re-solve it stands for.
var endAloneOn = true

// endAlone does, where it can, the re-solve that the end of f (already
// off its links, which are not all empty) asks for, without its
// machinery, and reports whether it did. That re-solve takes in the flows
// on f's links at or above the floor (level·(1 − levelSlack), beginSolve)
// and whatever those reach. When it takes in none (every flow there is
// frozen below the floor), it changes nothing. When it takes in one flow
// g, alone on each of its own links, it fills g alone: scanLinks gives
// each of g's links remaining = capacity (clamped at 0) and usage = 0 +
// g's share, and fillFew fixes g at the least remaining/usage over them,
// divided by g's weight, or at its bound if that binds first: the floats
// alone computes, in an order that does not matter (min of non-negative
// keys, no NaN). A level of +Inf is left to the re-solve (fillTree's case).
// SolveStats count what the re-solve would have counted. With light
// flows or local re-solves, the re-solve does more, and runs.
//
// A Dahu run (docs/evidence/fluid48.md) ends about one flow in ten this way.
func (m *maxmin) endAlone(now float64, f *flow, level float64) bool {
	if m.local || m.light.n > 0 || !endAloneOn {
		return false
	}
	floor, hot := level*(1-levelSlack), m.hot
	g := int32(-1)
	for _, e := range f.elems {
		for _, mb := range m.links[e.link].members {
			if hot[mb.slot].level < floor { // frozen: scanLinks only takes its load off the link
				continue
			}
			if g >= 0 && mb.slot != g {
				return false
			}
			g = mb.slot
		}
	}
	st := &m.sys.solves
	if g < 0 {
		st.Resolves++
		return true
	}
	gf := m.sys.bySlot[g]
	x, ok := m.alone(gf)
	if !ok || x > math.MaxFloat64 {
		return false
	}
	st.Resolves++
	st.Flows++
	if gf.rate != x {
		st.Changed++
		hot[g].rated(x)
		m.sys.switchRate(now, gf, x)
	}
	return true
}

// setRate gives f rate x (System.switchRate) and its solver entry the
// same. An unchanged rate leaves the flow alone: its projection still
// holds, and skipping it keeps rounding from accumulating on flows a
// re-solve did not really affect.
func (m *maxmin) setRate(now float64, f *flow, x float64) {
	if f.rate != x {
		m.hot[f.slot].rated(x)
		m.sys.switchRate(now, f, x)
	}
}

// rated records the flow's new rate x in its solver entry.
func (h *flowHot) rated(x float64) { h.rate, h.level = x, x*h.weight }
