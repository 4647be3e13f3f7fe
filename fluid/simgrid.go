package fluid

import (
	"math"
)

// lmm is SimGrid 3.32's lazy network model (solver.go), replicated float
// for float: lmm::MaxMin's solve over the constraints modified since the
// last one, run once per instant (settle), and the order in which its
// action heap hands out actions due at the same date. That heap is a
// stable pairing heap, so ties go to the action whose heap entry was
// inserted or updated first; entries are updated once per solve, for
// every action of the "modified set", in the order that set is built
// (lmm::System::solve walks the modified constraints in the order they
// were marked and each one's enabled elements newest first).
type lmm struct {
	sys      *System
	cn       []sgCnst // per link: its lmm::Constraint
	vars     []sgVar  // per flow slot: its lmm::Variable
	stamp    uint64   // heap insertions and updates so far
	visited  uint64   // update_modified_cnst_set_rec's counter
	solves   uint64   // solves so far (marks flows in the modified list)
	modified []LinkID // modified constraints, in marking order
	// epoch names the marks since the last settle: a link is marked (in
	// the modified constraint list) while its sgCnst.mark ≥ epoch, so that
	// a settle unmarks every link at once by moving epoch on by 2.
	epoch uint64
	// lazies counts the links marked since the last settle while they had
	// no enabled flow (a latent flow's links, a lone flow's links when it
	// is freed), kept out of the modified list (markLazy); promoted are
	// those of them a flow was enabled on since, to be put back in it.
	lazies   int
	promoted []LinkID
	scratch  []LinkID
	frees    []*flow // finished flows whose variable is freed at post time
	list     []*flow // scratch: the modified action list

	// SimGrid's max-min solve (solve)
	light   []sgLight // constraints still to saturate
	sat     []int     // indices into light of the constraints saturating now
	satVars []*flow   // saturated_variable_set
	// the solve's min_usage and min_bound (−1: none yet)
	minUsage, minBound float64
}

// sgCnst is a link's lmm::Constraint state. remaining and usage persist
// between solves, as SimGrid's do: a solve updates them on every link of a
// fixed flow, modified or not.
type sgCnst struct {
	remaining, usage float64
	capacity         float64 // the link's capacity (System.links'), kept here for the solve's loops
	// mark says whether the link is in the modified constraint list: it
	// is when mark ≥ lmm.epoch (here, not in a list of its own: markCnst
	// and the solve read this line anyway); mark is epoch+1 while it is
	// marked lazily (markLazy), not yet promoted.
	mark    uint64
	light   int32    // index in light, −1 if none
	lazyPos int32    // when marked lazily, the length of the modified list then (its place in it)
	lazySeq int      // when marked lazily, how many were before it since the last settle
	active  []*flow  // active_element_set, its front last (push_front is an append)
	enabled []sgElem // enabled_element_set, oldest first (SimGrid's list read backwards)
	// fat: a FATPIPE constraint (a FatPipe link): its usage is the max of
	// its flows' shares, not their sum, and fixing a flow takes nothing of
	// its remaining (take).
	fat bool
}

// sgElem is a flow's element in a link's enabled_element_set, with what
// the walks over that set read of it: the flow's slot (its sgVar), the
// element's index in the flow's elems (its bit in activeMask) and its
// usage term. A solve then reads, for each enabled flow of a modified
// link, this entry and the flow's sgVar, not the flow struct and its
// elems as well (three cache lines an element, most of them cold).
type sgElem struct {
	f     *flow
	share float64 // coefficient / weight: the same float as coefficient / weight computed in the solve
	slot  int32   // f.slot
	idx   int32   // the element's index in f.elems (links are merged: one element a link)
}

// sgVar is a flow's lmm::Variable state, with the marks of the walks
// that visit it.
type sgVar struct {
	value      float64 // the variable's value from the last solve, bytes/s
	factor     float64 // FlowSpec.RateFactor, 1 if none
	visited    uint64  // update_modified_cnst_set_rec's marker
	inMod      uint64  // in the modified action list of solve inMod
	activeMask uint64  // elems (by index, first 64) in their links' active_element_set
	minRou     float64 // in a solve, the least remaining/usage of its links that carry it alone (fixAlone)
	// pair is, for a flow of two links, the XOR of their ids (the other
	// of link l is then l^pair); 0 for a flow of one link (its other is
	// itself); −1 for more or none. markRec then walks a flow of one or two
	// links without loading the flow and its elems. Set by enable: only
	// enabled flows are walked.
	pair   LinkID
	latent bool // in its latency phase: not yet on its links
	inSat  bool // in the saturated_variable_set
	// early: latent, but enabled by a penalty change (reweight), as
	// SimGrid 3.32 enables a variable whose action still wears its
	// latency hat: it loads its links, but its bytes do not move until
	// the first re-projection after its phase (SimGrid's stall).
	early bool
}

type sgLight struct {
	link LinkID
	rou  float64 // remaining / usage
}

func newLmm(s *System) *lmm {
	m := &lmm{sys: s, cn: make([]sgCnst, len(s.links)), visited: 1, epoch: 2}
	for i := range m.cn {
		m.cn[i].light = -1
		m.cn[i].capacity = s.links[i].capacity
		m.cn[i].fat = s.links[i].sharing == FatPipe
	}
	return m
}

func (m *lmm) start(now float64, spec FlowSpec) FlowID {
	return m.startLatent(now, &spec, 0) // SimGrid's solve, at the next settle
}

func (m *lmm) startAll(now float64, specs []FlowSpec, ids []FlowID) []FlowID {
	for i := range specs {
		ids = append(ids, m.startLatent(now, &specs[i], 0))
	}
	return ids
}

// startLatent is SimGrid's communicate(): a disabled variable, a heap
// entry of type latency at latency + now, and every link of the route
// marked modified; without latency, the variable is enabled at once.
func (m *lmm) startLatent(now float64, spec *FlowSpec, latency float64) FlowID {
	s := m.sys
	if len(m.frees) > 0 {
		m.processFrees()
	}
	f := s.addUnqueued(now, spec) // its heap entry comes below, with its finish
	if int(f.slot) == len(m.vars) {
		m.vars = append(m.vars, sgVar{})
	}
	v := &m.vars[f.slot]
	*v = sgVar{factor: 1}
	if spec.RateFactor > 0 {
		v.factor = spec.RateFactor
	}
	if len(f.elems) == 0 {
		// It crosses no Shared link, so no solve will rate it: it gets its
		// bound at once, projected with emu's arithmetic and its id as tie
		// (a latent flow's RateFactor comes at activate).
		s.done.push(f)
		s.switchRate(now, f, f.bound)
	}
	if !(latency > 0) {
		// no latency phase: the variable is enabled at once (penalty 1)
		if s.traffic != nil {
			s.traffic.enter(f, now)
		}
		if len(f.elems) > 0 {
			s.done.push(f) // at +Inf: the next settle rates it
		} else if share := f.bound * v.factor; v.factor != 1 && f.remaining > 0 && !math.IsInf(share, 1) {
			// Its bytes move at RateFactor × its bound, as activate
			// projects them: SimGrid's __loopback__ (a FATPIPE link of no
			// latency) under SMPI's bandwidth factor.
			f.finish = now + f.remaining/share
			s.done.fix(f)
		}
		m.enable(f)
		for _, e := range f.elems {
			m.markCnst(e.link)
		}
		return f.id
	}
	v.latent = true
	f.finish = latency + now
	m.newTie(f)
	if len(f.elems) > 0 {
		s.done.push(f)
	} else {
		s.done.fix(f)
	}
	for _, e := range f.elems {
		if cn := &m.cn[e.link]; len(cn.enabled) == 0 {
			m.markLazy(e.link, cn) // most of them: the flow is latent, so not on it
		} else {
			m.markCnst(e.link)
		}
	}
	return f.id
}

func (m *lmm) latent(f *flow) bool { return m.vars[f.slot].latent }

// activate is SimGrid's update_variable_penalty: the variable is enabled
// (its elements go to the front of their links' lists) and its first link
// marked modified; the rate comes at the next settle.
func (m *lmm) activate(now float64, f *flow) {
	s := m.sys
	v := &m.vars[f.slot]
	v.latent = false
	if v.early {
		// SimGrid 3.32's stall: the variable is enabled already, at the
		// action's penalty, so update_variable_penalty changes nothing
		// and marks nothing; the action leaves the heap with its last
		// update now and its last value still 0 (no solve re-projected
		// it in its phase). Its bytes start to move, and its completion
		// is projected, at the next solve that puts it in the modified
		// action set; none may come (SimGrid's "Deadlock detected").
		v.early = false
		if s.traffic != nil {
			s.traffic.enter(f, now)
		}
		f.last = now
		f.finish = math.Inf(1)
		s.done.fix(f)
		return
	}
	if s.traffic != nil {
		s.traffic.enter(f, now)
	}
	if len(f.elems) == 0 {
		// no shared link to load: it runs at its bound (fat pipes, TCP
		// window) from now on, or is done at once on an empty route
		f.rate, v.value, f.last = f.bound, f.bound, now
		if share := f.bound * v.factor; math.IsInf(share, 1) {
			f.remaining, f.finish = 0, now
		} else {
			f.finish = now + f.remaining/share
		}
		m.newTie(f)
		s.done.fix(f)
		return
	}
	m.enable(f)
	f.last = now
	f.finish = math.Inf(1)
	s.done.fix(f)
	m.markCnst(f.elems[0].link)
}

// end takes a completed flow out of the heap; its variable is freed
// (links marked, elements removed, rates re-solved) when the completions
// of the instant are posted (processFrees).
func (m *lmm) end(now float64, f *flow) {
	s := m.sys
	s.done.remove(f)
	if s.traffic != nil {
		s.traffic.leave(f, now)
		f.last = now // its last stretch is booked; a later reproject adds nothing
	}
	m.frees = append(m.frees, f)
}

func (m *lmm) processFrees() {
	for i, f := range m.frees {
		m.frees[i] = nil
		if len(f.elems) > 0 {
			m.markFreed(f)
		}
		m.sys.flows.del(f.id)
		// In no active_element_set when it has no active bit (most flows:
		// a solve fixes, and so takes out, every flow it made active), but
		// past 64 links, which have no bit.
		active := m.vars[f.slot].activeMask != 0 || len(f.elems) > 64
		for _, e := range f.elems {
			cn := &m.cn[e.link]
			if active {
				cn.active = removeFlow(cn.active, f)
			}
			if en := cn.enabled; len(en) == 1 && en[0].f == f { // most links: f alone
				cn.enabled = en[:0]
			} else {
				cn.enabled = removeElem(en, f)
			}
		}
		m.sys.recycle(f)
	}
	m.frees = m.frees[:0]
}

func removeFlow(list []*flow, f *flow) []*flow {
	for i, g := range list {
		if g == f {
			// The tail moves down one place by hand: these sets hold a few
			// elements, fewer than a call of the runtime's typed copy costs.
			for ; i+1 < len(list); i++ {
				list[i] = list[i+1]
			}
			return list[:len(list)-1]
		}
	}
	return list
}

// removeElem is removeFlow on an enabled_element_set.
func removeElem(list []sgElem, f *flow) []sgElem {
	for i := range list {
		if list[i].f == f {
			for ; i+1 < len(list); i++ { // as in removeFlow
				list[i] = list[i+1]
			}
			return list[:len(list)-1]
		}
	}
	return list
}

// enable puts f at the front of its links' enabled_element_set, and sets
// its sgVar's pair for markRec, which walks only enabled flows. A link
// marked lazily since the last settle is promoted: the solve takes it in
// its place in the modified list.
func (m *lmm) enable(f *flow) {
	for i, e := range f.elems {
		cn := &m.cn[e.link]
		cn.enabled = append(cn.enabled, sgElem{f: f, share: e.coef / f.weight, slot: f.slot, idx: int32(i)})
		if cn.mark == m.epoch+1 {
			cn.mark = m.epoch
			m.promoted = append(m.promoted, e.link)
		}
	}
	pair := LinkID(-1)
	switch es := f.elems; len(es) {
	case 1:
		pair = 0
	case 2:
		pair = es[0].link ^ es[1].link
	}
	m.vars[f.slot].pair = pair
}

// markCnst is lmm::System::update_modified_cnst_set.
func (m *lmm) markCnst(l LinkID) {
	if cn := &m.cn[l]; cn.mark < m.epoch {
		m.markRec(l, cn) // which marks it
	}
}

// markLazy is markCnst on link l (its constraint cn), which has no enabled
// flow: the walk has nothing to go through, and the solve would only reset
// the link's remaining and usage, which no solve reads before it resets
// them again (only the links it saturates, reset in its first pass, move
// a rate). So the link is marked, which stops later marks of it until the
// settle as SimGrid's would, but kept out of the modified list, in
// lazies with its place there; enable puts it back if a flow is enabled
// on it before the settle.
func (m *lmm) markLazy(l LinkID, cn *sgCnst) {
	if cn.mark < m.epoch {
		cn.mark, cn.lazyPos, cn.lazySeq = m.epoch+1, int32(len(m.modified)), m.lazies
		m.lazies++
	}
}

// markFreed is markCnst on the first link of f, a flow being freed (still
// on its links): when f is alone on its one or two links, the walk would
// mark them both, and the solve find them empty, so both are marked
// lazily, in the walk's order.
func (m *lmm) markFreed(f *flow) {
	l := f.elems[0].link
	cn := &m.cn[l]
	if cn.mark >= m.epoch {
		return
	}
	v := &m.vars[f.slot]
	switch en := cn.enabled; {
	case len(en) == 0: // a latent flow, on an empty link
		m.markLazy(l, cn)
		return
	case len(en) == 1 && v.pair >= 0 && en[0].slot == f.slot:
		o := l ^ v.pair
		co := &m.cn[o]
		if o != l && len(co.enabled) != 1 {
			break
		}
		m.markLazy(l, cn)
		if v.visited != m.visited && o != l {
			m.markLazy(o, co)
		}
		v.visited = m.visited
		return
	}
	m.markRec(l, cn)
}

// markRec is the rest of update_modified_cnst_set once link l (its
// constraint cn) is marked: l joins the modified list, then
// update_modified_cnst_set_rec goes depth first through the enabled flows
// of l to their other links.
func (m *lmm) markRec(l LinkID, cn *sgCnst) {
	cn.mark = m.epoch
	m.modified = append(m.modified, l)
	en := cn.enabled // newest last; the walk below does not change it
	for i := len(en) - 1; i >= 0; i-- {
		v := &m.vars[en[i].slot]
		if v.pair >= 0 {
			// The walk below on a flow of one or two links: they are l
			// and l^pair, and only the other can be marked.
			if o := l ^ v.pair; v.visited != m.visited && o != l {
				m.markCnst(o)
			}
			v.visited = m.visited
			continue
		}
		f := en[i].f
		for _, e2 := range f.elems {
			if v.visited == m.visited {
				break
			}
			if e2.link != l {
				m.markCnst(e2.link)
			}
		}
		v.visited = m.visited
	}
}

// settle is SimGrid's solve at the end of an instant: the variables freed
// since the last one leave their links, then every flow of the
// modified set, in its order, has its remaining bytes brought up to now
// and its completion date re-projected, and gets a new heap stamp.
func (m *lmm) settle(now float64) {
	if len(m.frees) == 0 && len(m.modified) == 0 && m.lazies == 0 { // most calls: the engine settles at every look
		return
	}
	if len(m.frees) > 0 {
		m.processFrees()
	}
	if len(m.promoted) > 0 {
		m.promote()
	}
	m.lazies = 0
	m.epoch += 2 // every link unmarked, as the solve unmarks the modified ones
	if len(m.modified) == 0 {
		m.visited++
		return
	}
	m.solves++
	m.solve() // and builds the modified action list
	m.modified = m.modified[:0]
	m.visited++
	for _, f := range m.list {
		if m.vars[f.slot].latent {
			continue // enabled early (reweight), still wearing its latency hat: next_occurring_event_lazy skips it
		}
		m.reproject(now, f)
	}
	clear(m.list)
	m.list = m.list[:0]
}

// promote puts the links marked lazily that a flow was enabled on since
// in the modified list, each in its place, in the order they were marked.
func (m *lmm) promote() {
	p := m.promoted
	for i := 1; i < len(p); i++ { // insertion sort by mark order: a few links
		for j := i; j > 0 && m.cn[p[j]].lazySeq < m.cn[p[j-1]].lazySeq; j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
	out, j := m.scratch[:0], 0
	for _, l := range p {
		pos := int(m.cn[l].lazyPos)
		out = append(out, m.modified[j:pos]...)
		out = append(out, l)
		j = pos
	}
	out = append(out, m.modified[j:]...)
	m.modified, m.scratch = out, m.modified[:0]
	m.promoted = p[:0]
}

// reproject is NetworkCm02Action::update_remains_lazy followed by the heap
// update of Model::next_occurring_event_lazy: the bytes moved since the
// last update at the old rate, then the new rate's completion date.
func (m *lmm) reproject(now float64, f *flow) {
	s := m.sys
	v := &m.vars[f.slot]
	if s.traffic != nil {
		s.traffic.carry(f, now)
	}
	// Action::get_rate is the variable's value times the rate factor
	if last := f.rate * v.factor; f.rate > 0 && !math.IsInf(f.rate, 1) && f.remaining > 0 {
		f.remaining -= last * (now - f.last)
		if f.remaining < sgRemainsPrecision {
			f.remaining = 0
		}
	}
	f.last = now
	f.rate = v.value
	switch share := f.rate * v.factor; {
	case f.remaining <= 0 || math.IsInf(f.rate, 1):
		f.finish = now
	case share > 0:
		f.finish = now + f.remaining/share
	default:
		f.finish = math.Inf(1)
	}
	m.newTie(f)
	s.done.fix(f)
}

// sgRemainsPrecision is maxmin/precision × surf/precision (1e-5 × 1e-9),
// below which SimGrid's double_update rounds remaining work to 0.
const sgRemainsPrecision = 1e-14

// newTie gives f the next heap stamp as its tie. The flow heap keeps a
// tie in 32 bits (fluid/heap.go): past that, System.retie renumbers the
// running flows' ties in their order, and stamps go on above them (as do
// the ties of flows added later, which also come from the System).
func (m *lmm) newTie(f *flow) {
	if m.stamp >= tieLimit {
		n := m.sys.retie()
		m.stamp, m.sys.nextTie = n, n+1
	}
	m.stamp++
	f.tie = m.stamp
}
