package fluid

import (
	"cmp"
	"math"
	"slices"
)

// filling holds maxmin's scratch state of one re-solve, reused across
// calls so that a flow start or end allocates nothing in the steady state.
type filling struct {
	stamp uint32     // marks the links and flows being re-solved (even; +1 marks fixed flows)
	floor float64    // flows below this level are frozen at their rates
	work  []linkWork // per link, indexed by LinkID
	// linkStamp[l] == stamp when link l is queued for the re-solve: apart
	// from work, 4 bytes a link, for the BFS's many random probes.
	linkStamp []uint32
	links     []LinkID    // links being re-solved, in discovery order
	flows     []int32     // slots of the flows being re-solved, in discovery order
	bounded   []*flow     // those of them with a finite bound, by bound level
	queue     levelQueue  // links with unfixed flows, by saturation level
	left      int         // flows of the solve not yet fixed
	dead      int         // heap entries whose links have no unfixed flow left
	levels    []flowLevel // scratch of saturationLevel
	// coreStamp[l] == stamp when link l is core in a local re-solve
	// (local.go); core lists those links in the order they became core.
	coreStamp []uint32
	core      []LinkID
	tree      linkTree // fillTree's ranking of the links
}

// linkWork is a link's solver scratch, kept apart from linkState so that
// the solver's random accesses touch 24 bytes per link.
type linkWork struct {
	remaining float64 // capacity not yet given to fixed flows, bytes/s
	usage     float64 // Σ coefficient/weight over the flows not yet fixed
	unfixed   int32   // number of flows not yet fixed
}

// resolveAbove recomputes the rates of the flows that a change can affect
// (SimGrid's selective update, §1.5 of the reference, refined by level):
// the flows connected to the seed links through flows whose level
// (rate × weight) is at least level·(1 − levelSlack), and the flows just
// started (rate still −1). Lower-level flows keep their rates and only
// lower the capacity left to the others (threshold.go); flows of other
// components keep everything. With FullResolve, or level 0, it re-solves
// whole components.
func (m *maxmin) resolveAbove(now float64, seeds []elem, level float64) {
	if m.local && !m.full {
		m.resolveLocal(now, seeds, level)
		return
	}
	m.resolveWhole(now, seeds, level)
}

// beginSolve starts a re-solve above level: a fresh stamp, empty lists.
func (m *maxmin) beginSolve(level float64) {
	sv := &m.fill
	if len(sv.work) != len(m.links) {
		sv.work = make([]linkWork, len(m.links))
		sv.linkStamp = make([]uint32, len(m.links))
	}
	if sv.stamp += 2; sv.stamp == 0 {
		m.restamp()
	}
	sv.links, sv.flows = sv.links[:0], sv.flows[:0]
	sv.floor = level * (1 - levelSlack)
	sv.queue.clear()
	sv.bounded = sv.bounded[:0]
}

// resolveWhole is resolveAbove over the seeds' whole components.
func (m *maxmin) resolveWhole(now float64, seeds []elem, level float64) {
	sv := &m.fill
	m.beginSolve(level)
	if m.full {
		sv.floor = 0
		for l := range m.links {
			if len(m.links[l].members) > 0 {
				m.visitLink(LinkID(l))
			}
		}
	} else {
		for _, e := range seeds {
			m.visitLink(e.link)
		}
	}
	m.scanLinks()
	m.progressiveFill()
	m.applySolve(now)
}

// applySolve gives the re-solved flows their new rates.
func (m *maxmin) applySolve(now float64) {
	sv := &m.fill
	if m.light.n > 0 {
		m.solvedLight()
	}
	changed := 0
	for _, slot := range sv.flows {
		// Most flows of a re-solve keep their rates: compare in the dense
		// arrays, and touch only the flows that change (setRate, written
		// out so that a change costs one call).
		if h := &m.hot[slot]; h.rate != h.x {
			x := h.x
			h.rated(x)
			m.sys.switchRate(now, m.sys.bySlot[slot], x)
			changed++
		}
	}
	st := &m.sys.solves
	st.Resolves++
	st.Flows += uint64(len(sv.flows))
	st.Changed += uint64(changed)
}

// scanLinks goes breadth-first over the bipartite graph of links and
// flows from the links queued so far, sv.links doubling as the queue. It
// takes each link's members into the solve (those at or above the floor,
// and fresh flows) and queues their links; in the same pass it sets up the
// link's filling state: capacity left after its frozen members, usage of
// its re-solved ones, and its entry in the level heap. A member's side
// does not depend on when the BFS reaches it, so these sums run in member
// order as a separate pass over the members would. (One loop for the whole
// search: a call a link cost its set-up and spills again and again.)
func (m *maxmin) scanLinks() {
	sv := &m.fill
	// Locals: the appends below would make the compiler reload the fields,
	// and each sum kept in sv.work would put a store and a load on its chain.
	stamp, floor, hot, work := sv.stamp, sv.floor, m.hot, sv.work
	for i := 0; i < len(sv.links); i++ {
		l := sv.links[i]
		ls := &m.links[l]
		remaining, usage, unfixed := ls.capacity, 0.0, int32(0)
		for _, mb := range ls.members {
			h := &hot[mb.slot]
			if h.level < floor { // frozen below the floor: keeps its rate (a NaN level, no rate yet, is never below)
				remaining -= mb.coef * h.rate
				continue
			}
			usage += mb.share
			unfixed++
			if h.stamp == stamp {
				continue
			}
			h.stamp, h.x = stamp, 0
			sv.flows = append(sv.flows, mb.slot)
			if h.bounded {
				sv.bounded = append(sv.bounded, m.sys.bySlot[mb.slot])
			}
			if !m.full { // there every loaded link is queued already
				for _, e := range h.elems {
					m.visitLink(e.link) // l among them: queued, it passes by
				}
			}
		}
		if !(remaining > 0) { // max, whose NaN and −0 care costs a dozen instructions, only when it can change something
			remaining = max(remaining, 0)
		}
		w := &work[l] // field by field: a composite literal is built aside, then copied
		w.remaining, w.usage, w.unfixed = remaining, usage, unfixed
		if unfixed > 0 {
			sv.queue.add(linkAt(remaining/usage, l))
		}
	}
}

// restamp clears every stamp when the 32-bit solve counter wraps (once
// every 2³¹ re-solves), so that no old stamp can match a new one.
func (m *maxmin) restamp() {
	sv := &m.fill
	for i := range sv.work {
		sv.linkStamp[i] = 0
	}
	clear(sv.coreStamp)
	for i := range m.hot {
		m.hot[i].stamp = 0
	}
	sv.stamp = 2
}

func (m *maxmin) visitLink(l LinkID) {
	if st := &m.fill.linkStamp[l]; *st != m.fill.stamp {
		*st = m.fill.stamp
		m.fill.links = append(m.fill.links, l)
	}
}

// progressiveFill computes weighted max-min rates (into flowHot.x) for the flows in
// m.fill by progressive filling: all unfixed flows rise together, flow f
// at rate level/weight_f; the rising stops for the flows of the first link
// to saturate (level = remaining/usage) or for a flow reaching its bound
// (level = bound·weight), whichever comes first; repeat on what is left.
// Links wait in a lazy heap by saturation level (see levelQueue), or, up to
// smallQueue of them, in a tournament tree (fillTree), and bounded flows
// are sorted by bound level: fixing a flow costs O(1) per link it crosses,
// and a solve O(elements + links·log links) in all.
func (m *maxmin) progressiveFill() {
	sv := &m.fill
	if len(sv.flows) == 0 || len(sv.flows) <= 2 && m.fillFew() { // every flow met was frozen (an end's re-solve, often), or one or two, rated without the tree
		sv.left = 0
		return
	}
	// The heap and bounded lists come from scanLinks in discovery order;
	// both orders are total (ties broken by id), so that order is moot.
	slices.SortFunc(sv.bounded, func(a, b *flow) int {
		if c := cmp.Compare(a.bound*a.weight, b.bound*b.weight); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	if q := &sv.queue; len(q.parked) <= min(smallQueue, maxTreeLinks) && q.heap.Len() == 0 && treeKeys(q.parked) {
		m.fillTree()
		return
	}
	sv.queue.order()
	sv.left, sv.dead = len(sv.flows), 0
	next := 0 // first bounded flow not yet looked at
	// Stop once every flow is fixed: the links still queued then carry only
	// fixed flows, and popping them one by one (O(log n) each) was most of
	// a contended solve's time.
	for sv.left > 0 {
		var boundLevel float64
		next, boundLevel = m.nextBound(next)
		linkLevel, top := m.lowestLink()
		switch {
		case top < 0 && math.IsInf(boundLevel, 1):
			return
		case boundLevel <= linkLevel:
			f := sv.bounded[next]
			m.fix(f.slot, f.bound)
		default:
			sv.queue.heap.Pop()
			m.fixMembers(top, linkLevel)
			sv.dead-- // top itself, counted by fix though already popped
		}
	}
}

// nextBound skips the bounded flows this re-solve has fixed already, from
// next on, and returns the first one left and the level at which its bound
// binds (+Inf when none is left).
func (m *maxmin) nextBound(next int) (int, float64) {
	sv := &m.fill
	for next < len(sv.bounded) && m.hot[sv.bounded[next].slot].stamp != sv.stamp {
		next++
	}
	if next < len(sv.bounded) {
		return next, sv.bounded[next].bound * sv.bounded[next].weight
	}
	return next, math.Inf(1)
}

// fixMembers fixes, at the level of link, each of its flows that this
// re-solve takes in and has not fixed yet.
func (m *maxmin) fixMembers(link LinkID, level float64) {
	for _, mb := range m.links[link].members {
		if h := &m.hot[mb.slot]; h.stamp == m.fill.stamp { // re-solved, not fixed yet
			m.fix(mb.slot, level/h.weight)
		}
	}
}

// smallQueue is the most links a re-solve ranks with a linkTree
// (fillTree) rather than the level heap, up to maxTreeLinks: most of a Dahu
// run's re-solves queue 4 to 64 links, and an end's re-solve in a flat
// cluster's large component hundreds, where the heap's sifts cost more
// than the tree's branch-free comparisons.
var smallQueue = maxTreeLinks // a variable so that the tests can turn the tree off

// lowestLink returns the link that saturates first and its level, after
// dropping links whose flows are all fixed and refreshing stale keys; top
// is -1 (level +Inf) when no link has unfixed flows.
func (m *maxmin) lowestLink() (level float64, top LinkID) {
	sv := &m.fill
	q := &sv.queue
	if sv.dead > (q.heap.Len()+len(q.parked))/2 {
		m.dropDead()
	}
	for {
		if q.heap.Len() == 0 {
			if len(q.parked) == 0 {
				return math.Inf(1), -1
			}
			m.dropDead()
			q.order()
			continue
		}
		e := q.heap.Top()
		w := &sv.work[e.ID]
		if w.unfixed == 0 {
			q.heap.Pop()
			sv.dead--
			continue
		}
		level := w.remaining / w.usage
		if level > e.Key {
			q.raiseTop(level)
			continue
		}
		return level, e.ID
	}
}

// dropDead removes the heap entries of links whose flows are all fixed
// and re-heapifies in O(n): in a large component most links end that way
// before their entry surfaces, and popping each from the top cost
// O(log n). The live entries keep their keys, so the links still come out
// in the same order.
func (m *maxmin) dropDead() {
	sv := &m.fill
	q := &sv.queue
	q.heap.Reset(m.alive(q.heap.Entries()))
	q.parked = m.alive(q.parked)
	sv.dead = 0
}

// alive keeps the entries of links that still have unfixed flows.
func (m *maxmin) alive(entries []levelEntry) []levelEntry {
	live, work := entries[:0], m.fill.work // a local: not reloaded after each append
	for _, e := range entries {
		if work[e.ID].unfixed > 0 {
			live = append(live, e)
		}
	}
	return live
}

// recount sums coefficient/weight over the link's unfixed flows.
func (m *maxmin) recount(l LinkID) float64 {
	u := 0.0
	for _, mb := range m.links[l].members {
		if m.hot[mb.slot].stamp == m.fill.stamp {
			u += mb.share
		}
	}
	return u
}

// fix gives the flow in slot rate x and withdraws it from the links it
// loads.
func (m *maxmin) fix(slot int32, x float64) {
	h := &m.hot[slot]
	h.stamp, h.x = m.fill.stamp+1, x
	m.fill.left--
	work, weight := m.fill.work, h.weight // locals: not reloaded after each store
	for _, e := range h.elems {
		w := &work[e.link]
		if w.remaining -= e.coef * x; w.remaining < 0 {
			w.remaining = 0
		}
		if w.unfixed--; w.unfixed == 0 {
			m.fill.dead++ // its heap entry is dropped when it surfaces, or by dropDead
			continue
		}
		if w.usage -= e.coef / weight; w.usage <= 0 {
			// Cancellation after subtracting a much larger term: recount.
			w.usage = m.recount(e.link)
		}
	}
}
