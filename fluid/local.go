package fluid

import "math"

// Local re-solves (Approximations.LocalSolve) are an approximation for large
// components in which a change moves few rates: a panel broadcast's ring
// on a fat tree joins most of the network into one component through the
// leaf uplinks, and every message start or end re-solves all of it
// (resolveAbove) to move, most of the time, nothing but its own links'
// flows.
//
// A local re-solve starts from the changed flow's links (the core) and
// re-solves only the flows on core links at or above the threshold level
// (threshold.go). Their other links are the boundary: there, flows outside
// the solve keep their rates and only take capacity, as frozen flows do
// below the threshold. A boundary link that may have been, or may now be,
// the bottleneck of a flow where the solve moved a rate (boundaryMoved: a
// link saturated before or after, shared with an outside flow at or above
// the threshold, where a re-solved rate moved by more than levelSlack
// relatively, or where a re-solved flow ends below the outside one) becomes
// core, and the solve is done again over the larger region, until no such
// link is left. Then every outside flow keeps, on each of its links, either
// the same load as before or a link that is no one's bottleneck, so it keeps
// its max-min rate, and the re-solved flows are max-min fair given them:
// the result is the max-min solution, but for rates that moved by less
// than levelSlack and were not propagated, and for rounding (frozen flows
// are subtracted from capacities in another order than the full sweep's),
// which is why this is a switch and not the default: figures can move in
// their last digits, and HPL's polling can amplify that. After
// maxLocalRounds growths it falls back to the full re-solve.
//
// maxLocalRounds is a variable only for the tests of that fallback.
var maxLocalRounds = 8

// resolveLocal is resolveAbove restricted to a region grown from the seed
// links, as described above.
func (m *maxmin) resolveLocal(now float64, seeds []elem, level float64) {
	sv := &m.fill
	m.beginSolve(level)
	if len(sv.coreStamp) != len(m.links) {
		sv.coreStamp = make([]uint32, len(m.links))
	}
	sv.core = sv.core[:0]
	for _, e := range seeds {
		m.makeCore(e.link)
	}
	taken := 0 // sv.core[:taken] have had their members taken into the solve
	for round := 0; ; {
		for ; taken < len(sv.core); taken++ {
			m.takeMembers(sv.core[taken])
		}
		for _, slot := range sv.flows {
			h := &m.hot[slot]
			h.stamp, h.x = sv.stamp, 0
		}
		sv.queue.clear()
		unrated := false
		for _, l := range sv.links {
			unrated = m.loadLink(l) || unrated
		}
		if unrated {
			continue // a flow without a rate on a boundary link: take it in first
		}
		m.progressiveFill()
		grew := false
		for _, l := range sv.links {
			if sv.coreStamp[l] != sv.stamp && m.boundaryMoved(l) {
				m.makeCore(l)
				grew = true
			}
		}
		if !grew {
			break
		}
		if round++; round == maxLocalRounds {
			m.resolveWhole(now, seeds, level)
			return
		}
	}
	m.applySolve(now)
}

// makeCore marks link l as core: all its flows at or above the floor join
// the solve.
func (m *maxmin) makeCore(l LinkID) {
	sv := &m.fill
	if sv.coreStamp[l] != sv.stamp {
		sv.coreStamp[l] = sv.stamp
		sv.core = append(sv.core, l)
		m.visitLink(l)
	}
}

// takeMembers takes core link l's flows at or above the floor (and the
// flows without a rate yet) into the solve, and puts their links in it.
func (m *maxmin) takeMembers(l LinkID) {
	sv := &m.fill
	for _, mb := range m.links[l].members {
		h := &m.hot[mb.slot]
		if h.level < sv.floor || h.stamp == sv.stamp || h.stamp == sv.stamp+1 {
			continue
		}
		h.stamp = sv.stamp
		sv.flows = append(sv.flows, mb.slot)
		if h.bounded {
			sv.bounded = append(sv.bounded, m.sys.bySlot[mb.slot])
		}
		for _, e := range h.elems {
			m.visitLink(e.link)
		}
	}
}

// loadLink sets up link l's filling state: its flows in the solve rise,
// the others keep their rates. It reports a flow without a rate yet
// outside the solve, after making l core so that the flow joins.
func (m *maxmin) loadLink(l LinkID) (unrated bool) {
	sv := &m.fill
	ls, w := &m.links[l], &sv.work[l]
	w.remaining, w.usage, w.unfixed = ls.capacity, 0, 0
	for _, mb := range ls.members {
		h := &m.hot[mb.slot]
		if h.stamp == sv.stamp {
			w.usage += mb.share
			w.unfixed++
			continue
		}
		if h.rate < 0 {
			unrated = true
			continue
		}
		w.remaining -= mb.coef * h.rate
	}
	if unrated {
		m.makeCore(l)
		return true
	}
	w.remaining = max(w.remaining, 0)
	if w.unfixed > 0 {
		sv.queue.add(linkAt(w.remaining/w.usage, l))
	}
	return false
}

// boundaryMoved reports whether boundary link l must become core. Only a
// saturated link is anyone's bottleneck, so a link saturated neither
// before nor after the solve concerns no flow outside it. Otherwise it
// must if a flow outside the solve at or above the floor shares it, and
// either a flow of the solve moved there (the outside flow may have had l
// for bottleneck, and now has more room, or less), or l ends saturated
// with a flow of the solve below the outside flow's level (that flow may
// have l for bottleneck now, where max-min would shrink the outside flow
// for it).
func (m *maxmin) boundaryMoved(l LinkID) bool {
	sv := &m.fill
	moved := false
	lowestIn, highestOut := math.Inf(1), math.Inf(-1)
	load := 0.0 // before the solve
	for _, mb := range m.links[l].members {
		h := &m.hot[mb.slot]
		load += mb.coef * max(h.rate, 0)
		if h.stamp == sv.stamp+1 || h.stamp == sv.stamp {
			moved = moved || math.Abs(h.x-h.rate) > levelSlack*math.Abs(h.rate)
			lowestIn = min(lowestIn, h.x*h.weight)
		} else if !(h.level < sv.floor) {
			highestOut = max(highestOut, h.level)
		}
	}
	if math.IsInf(highestOut, -1) {
		return false
	}
	capacity := m.links[l].capacity
	after := sv.work[l].remaining <= levelSlack*capacity
	before := load >= capacity*(1-levelSlack)
	return moved && (before || after) || after && highestOut > lowestIn*(1+levelSlack)
}
