package fluid

import (
	"fmt"
	"math"
	"slices"
)

// Capacities that change in time: SimGrid's availability profiles
// (profile.go) change a link's bandwidth, or a processor's speed, at dates,
// and the flows crossing it are re-rated from that date. These are the
// System's calls for it; the engine (emu) decides when they happen.

// VaryCapacities declares, before the first flow starts, that link
// capacities will change (SetCapacity). The System then keeps every
// flow's bound, even one no lower than some link's capacity at its start
// (which it otherwise drops as one that can never bind): a capacity that
// grows later can make it bind.
func (s *System) VaryCapacities() {
	if s.flows.n > 0 {
		panic("fluid: VaryCapacities after flows started")
	}
	s.varying = true
}

// Capacity returns link l's capacity, bytes/s.
func (s *System) Capacity(l LinkID) float64 { return s.links[s.checkLink(l)].capacity }

// SetCapacity changes link l's capacity at time now. Under emu's max-min
// the flows of the link's component are re-solved at once, each brought
// up to now at its old rate first (a FatPipe link, a cap on each of its
// flows, re-caps each and re-solves its component: only after
// VaryCapacities, which has the flows keep their FatPipe links); under
// the SimGrid solver the link, Shared or FatPipe, is marked modified, as
// SimGrid's update_constraint_bound marks it, and its flows get their
// new rates at the next Settle (their bytes moved at the old rate until
// then).
func (s *System) SetCapacity(now float64, l LinkID, capacity float64) {
	s.advance(now)
	s.checkLink(l)
	if !(capacity >= 0) || math.IsInf(capacity, 1) {
		panic(fmt.Sprintf("fluid: SetCapacity(%d, %v): want a finite capacity ≥ 0", l, capacity))
	}
	if s.links[l].sharing == FatPipe && s.sg == nil {
		if !s.varying {
			panic(fmt.Sprintf("fluid: SetCapacity on the FatPipe link %d without VaryCapacities", l))
		}
		s.links[l].capacity = capacity
		for _, f := range s.bySlot {
			if s.live(f) && f.crosses(l) {
				f.bound = s.capped(f, f.userBound)
				s.model.rebound(now, f)
			}
		}
		return
	}
	s.links[l].capacity = capacity
	s.model.setCapacity(now, l)
}

// SetBound changes flow id's bound at time now, bytes/s (0: none), and
// re-rates it as SetCapacity re-rates a link's flows: SimGrid's
// update_variable_bound, which marks the flow's first link modified.
func (s *System) SetBound(now float64, id FlowID, bound float64) {
	s.advance(now)
	f := s.mustFlow(id)
	if !(bound >= 0) || math.IsInf(bound, 1) {
		panic(fmt.Sprintf("fluid: SetBound(%d, %v): want a finite bound ≥ 0", id, bound))
	}
	f.userBound = math.Inf(1)
	if bound > 0 {
		f.userBound = bound
	}
	f.bound = s.capped(f, f.userBound)
	s.model.rebound(now, f)
}

// SetWeight changes flow id's sharing penalty at time now (0: 1) and
// re-rates it: SimGrid's update_variable_penalty on an enabled variable,
// which marks its first link modified. A flow in its latency phase takes
// the weight when it starts loading its links.
func (s *System) SetWeight(now float64, id FlowID, weight float64) {
	s.advance(now)
	f := s.mustFlow(id)
	if !(weight >= 0) || math.IsInf(weight, 1) {
		panic(fmt.Sprintf("fluid: SetWeight(%d, %v): want a finite weight ≥ 0", id, weight))
	}
	if weight == 0 {
		weight = 1
	}
	f.weight = weight
	s.model.reweight(now, f)
}

// FlowsOn appends to ids the flows loading link l, and returns it: under
// the SimGrid solver in SimGrid's order (the link's enabled flows, the
// latest enabled first, then those in their latency phase, oldest first),
// else by slot.
func (s *System) FlowsOn(l LinkID, ids []FlowID) []FlowID {
	s.checkLink(l)
	if m, ok := s.model.(*lmm); ok {
		return m.flowsOn(l, ids)
	}
	for _, f := range s.bySlot {
		if s.live(f) && f.crosses(l) {
			ids = append(ids, f.id)
		}
	}
	return ids
}

// live reports whether f is a running flow (not a recycled struct).
func (s *System) live(f *flow) bool { return s.flows.get(f.id) == f }

// crosses reports whether f loads link l, or is capped by it (a FatPipe
// link of flow.fats).
func (f *flow) crosses(l LinkID) bool {
	for _, e := range f.elems {
		if e.link == l {
			return true
		}
	}
	for _, e := range f.fats {
		if e.link == l {
			return true
		}
	}
	return false
}

// Used reports whether a flow loads link l: SimGrid's is_used, which
// decides whether a profile's event at a later date stops the clock.
func (s *System) Used(l LinkID) bool { return s.model.used(s.checkLink(l)) }

func (s *System) checkLink(l LinkID) LinkID {
	if l < 0 || int(l) >= len(s.links) {
		panic(fmt.Sprintf("fluid: link %d, system has %d links", l, len(s.links)))
	}
	return l
}

// setCapacity re-solves the component of link l, whose capacity changed.
func (m *maxmin) setCapacity(now float64, l LinkID) {
	m.links[l].capacity = m.sys.links[l].capacity
	if len(m.links[l].members) > 0 {
		m.resolveWhole(now, []elem{{link: l, coef: 1}}, 0)
	}
}

// rebound re-solves the component of f, whose bound changed.
func (m *maxmin) rebound(now float64, f *flow) {
	m.hot[f.slot].bounded = !math.IsInf(f.bound, 1)
	if len(f.elems) == 0 {
		m.setRate(now, f, f.bound)
		return
	}
	m.resolveWhole(now, f.elems, 0)
}

// used: a FatPipe link, a cap and no member, is used by the flows it caps.
func (m *maxmin) used(l LinkID) bool {
	if len(m.links[l].members) > 0 {
		return true
	}
	if m.sys.links[l].sharing != FatPipe {
		return false
	}
	for _, f := range m.sys.bySlot {
		if m.sys.live(f) && f.crosses(l) {
			return true
		}
	}
	return false
}

// reweight re-solves the component of f, whose weight changed: its
// members' shares and its solver entry follow.
func (m *maxmin) reweight(now float64, f *flow) {
	h := &m.hot[f.slot]
	h.weight = f.weight
	if h.rate >= 0 {
		h.level = h.rate * f.weight
	}
	for _, e := range f.elems {
		m.links[e.link].members[e.pos].share = e.coef / f.weight
	}
	if len(f.elems) > 0 {
		m.resolveWhole(now, f.elems, 0)
	}
}

// setCapacity is update_constraint_bound: the link is marked modified.
func (m *lmm) setCapacity(_ float64, l LinkID) {
	m.cn[l].capacity = m.sys.links[l].capacity
	m.markCnst(l)
}

// rebound is update_variable_bound: each of the flow's links is marked
// modified, in order. A flow on no Shared link runs at its new bound at
// once.
func (m *lmm) rebound(now float64, f *flow) {
	if len(f.elems) == 0 {
		if !m.latent(f) {
			v := &m.vars[f.slot]
			v.value = f.bound
			m.reproject(now, f)
		}
		return
	}
	for _, e := range f.elems {
		m.markCnst(e.link)
	}
}

// reweight is update_variable_penalty: an enabled variable's elements'
// shares follow, and its first link is marked modified. A latent flow is
// enabled at once with that penalty, as SimGrid 3.32 enables it (its
// action keeps its latency event; activate then finds it enabled: the
// stall of simgrid.go's sgVar.early).
func (m *lmm) reweight(_ float64, f *flow) {
	if len(f.elems) == 0 {
		return
	}
	if v := &m.vars[f.slot]; v.latent && !v.early {
		v.early = true
		m.enable(f)
		m.markCnst(f.elems[0].link)
		return
	}
	for i, e := range f.elems {
		en := m.cn[e.link].enabled
		for j := range en {
			if en[j].f == f {
				en[j].share = f.elems[i].coef / f.weight
			}
		}
	}
	m.markCnst(f.elems[0].link)
}

// flowsOn lists link l's flows in SimGrid's get_variable_safe order.
func (m *lmm) flowsOn(l LinkID, ids []FlowID) []FlowID {
	en := m.cn[l].enabled
	for i := len(en) - 1; i >= 0; i-- {
		ids = append(ids, en[i].f.id)
	}
	first := len(ids)
	for _, f := range m.sys.bySlot {
		if m.sys.live(f) && m.latent(f) && !m.vars[f.slot].early && f.crosses(l) {
			ids = append(ids, f.id)
		}
	}
	slices.Sort(ids[first:]) // latent flows in the order they started (disabled_element_set, push_back)
	return ids
}

// used is constraint_used: the link is in the active constraint set,
// which it joins when a flow's element is added to it, enabled or not (a
// flow in its latency phase too), and leaves when the last is freed.
func (m *lmm) used(l LinkID) bool {
	if len(m.cn[l].enabled) > 0 {
		return true
	}
	for _, f := range m.sys.bySlot {
		if m.sys.live(f) && m.latent(f) && f.crosses(l) {
			return true
		}
	}
	return false
}
