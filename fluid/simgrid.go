package fluid

import (
	"math"
)

// sgState mirrors what decides, in SimGrid 3.32's lazy network model,
// which of several actions due at the same date completes first: the
// action heap is a stable pairing heap, so ties go to the action whose
// heap entry was inserted or updated first; entries are updated once per
// solve, for every action of the "modified set", in the order that set is
// built (lmm::System::solve walks the modified constraints in the order
// they were marked and each one's enabled elements newest first).
type sgState struct {
	stamp    uint64   // heap insertions and updates so far
	visited  uint64   // update_modified_cnst_set_rec's counter
	solves   uint64   // solves so far (marks flows in the modified list)
	linked   []bool   // per link: in the modified constraint list
	modified []LinkID // modified constraints, in marking order
	frees    []*flow  // finished flows whose variable is freed at post time
	list     []*flow  // scratch: the modified action list

	// SimGrid's max-min solve (sgSolve)
	cn      []sgCnst  // per link
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
	light            int32   // index in light, −1 if none
	active           []*flow // active_element_set: oldest enabled first
	enabled          []*flow // enabled_element_set, oldest first (SimGrid's list read backwards)
}

type sgLight struct {
	link LinkID
	rou  float64 // remaining / usage
}

func (s *System) sgInit() {
	if s.sg.linked == nil {
		s.sg.linked = make([]bool, len(s.links))
		s.sg.cn = make([]sgCnst, len(s.links))
		for i := range s.sg.cn {
			s.sg.cn[i].light = -1
		}
		s.sg.visited = 1
	}
}

// StartLatent starts a flow in its latency phase: it loads no link until
// latency has passed, when it is enabled (Activate) — SimGrid's
// communicate(): a disabled variable, a heap entry of type latency at
// latency + now, and every link of the route marked modified.
func (s *System) StartLatent(now float64, spec FlowSpec, latency float64) FlowID {
	s.advance(now)
	s.sgInit()
	s.processFrees(now)
	if !(latency > 0) {
		// no latency phase: the variable is enabled at once (penalty 1)
		f := s.addFlow(now, spec, true)
		s.enable(f)
		for _, e := range f.elems {
			s.markCnst(e.link)
		}
		return f.id
	}
	f := s.addFlow(now, spec, false)
	f.latent = true
	f.finish = latency + now
	s.newTie(f)
	s.done.fix(f)
	for _, e := range f.elems {
		s.markCnst(e.link)
	}
	return f.id
}

// Latent reports whether flow id is still in its latency phase.
func (s *System) Latent(id FlowID) bool { return s.mustFlow(id).latent }

// Activate ends flow id's latency phase at now: SimGrid's
// update_variable_penalty enables the variable (its elements go to the
// front of their links' lists) and marks its first link modified; the
// rate comes at the next Settle.
func (s *System) Activate(now float64, id FlowID) {
	s.advance(now)
	f := s.mustFlow(id)
	f.latent = false
	if s.traffic != nil {
		s.traffic.enter(f, now)
	}
	if len(f.elems) == 0 {
		// no shared link to load: it runs at its bound (fat pipes, TCP
		// window) from now on, or is done at once on an empty route
		f.rate, f.sgValue, f.last = f.bound, f.bound, now
		if share := f.bound * f.factor; math.IsInf(share, 1) {
			f.remaining, f.finish = 0, now
		} else {
			f.finish = now + f.remaining/share
		}
		s.newTie(f)
		s.done.fix(f)
		return
	}
	s.attach(f)
	s.enable(f)
	f.last = now
	f.finish = math.Inf(1)
	s.done.fix(f)
	s.markCnst(f.elems[0].link)
}

// finishSG takes a completed flow out of the heap; its variable is freed
// (links marked, members removed, rates re-solved) when the completions
// of the instant are posted (processFrees).
func (s *System) finishSG(now float64, id FlowID) {
	s.advance(now)
	f := s.mustFlow(id)
	s.done.remove(f)
	if s.traffic != nil {
		s.traffic.leave(f, now)
		f.last = now // its last stretch is booked; a later reproject adds nothing
	}
	s.sg.frees = append(s.sg.frees, f)
}

func (s *System) processFrees(now float64) {
	for i, f := range s.sg.frees {
		s.sg.frees[i] = nil
		if len(f.elems) > 0 {
			s.markCnst(f.elems[0].link)
		}
		s.flows.del(f.id)
		s.detach(f)
		for _, e := range f.elems {
			cn := &s.sg.cn[e.link]
			cn.active = removeFlow(cn.active, f)
			cn.enabled = removeFlow(cn.enabled, f)
		}
		s.recycle(f)
	}
	s.sg.frees = s.sg.frees[:0]
}

func removeFlow(list []*flow, f *flow) []*flow {
	for i, g := range list {
		if g == f {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// enable puts f at the front of its links' enabled_element_set.
func (s *System) enable(f *flow) {
	for _, e := range f.elems {
		cn := &s.sg.cn[e.link]
		cn.enabled = append(cn.enabled, f)
	}
}

// markCnst is lmm::System::update_modified_cnst_set.
func (s *System) markCnst(l LinkID) {
	if s.sg.linked[l] {
		return
	}
	s.sg.linked[l] = true
	s.sg.modified = append(s.sg.modified, l)
	s.markRec(l)
}

// markRec is update_modified_cnst_set_rec: depth first through the
// enabled flows of l to their other links.
func (s *System) markRec(l LinkID) {
	en := s.sg.cn[l].enabled // newest last; the walk below does not change it
	for i := len(en) - 1; i >= 0; i-- {
		v := en[i]
		for _, e2 := range v.elems {
			if v.visited == s.sg.visited {
				break
			}
			if e2.link != l {
				s.markCnst(e2.link)
			}
		}
		v.visited = s.sg.visited
	}
}

// Settle is SimGrid's solve at the end of an instant: the variables freed
// since the last one leave their links, then every flow of the
// modified set, in its order, has its remaining bytes brought up to now
// and its completion date re-projected, and gets a new heap stamp.
func (s *System) Settle(now float64) {
	s.advance(now)
	s.sgInit()
	s.processFrees(now)
	if len(s.sg.modified) == 0 {
		return
	}
	s.sgSolve()
	s.sg.solves++
	list := s.sg.list[:0]
	for _, l := range s.sg.modified {
		en := s.sg.cn[l].enabled
		for i := len(en) - 1; i >= 0; i-- {
			f := en[i]
			if f.inMod != s.sg.solves {
				f.inMod = s.sg.solves
				list = append(list, f)
			}
		}
		s.sg.linked[l] = false
	}
	s.sg.modified = s.sg.modified[:0]
	s.sg.visited++
	for _, f := range list {
		s.reproject(now, f)
	}
	clear(list)
	s.sg.list = list[:0]
}

// reproject is NetworkCm02Action::update_remains_lazy followed by the heap
// update of Model::next_occurring_event_lazy: the bytes moved since the
// last update at the old rate, then the new rate's completion date.
func (s *System) reproject(now float64, f *flow) {
	if s.traffic != nil {
		s.traffic.carry(f, now)
	}
	// Action::get_rate is the variable's value times the rate factor
	if last := f.rate * f.factor; f.rate > 0 && !math.IsInf(f.rate, 1) && f.remaining > 0 {
		f.remaining -= last * (now - f.last)
		if f.remaining < sgRemainsPrecision {
			f.remaining = 0
		}
	}
	f.last = now
	f.rate = f.sgValue
	switch share := f.rate * f.factor; {
	case f.remaining <= 0 || math.IsInf(f.rate, 1):
		f.finish = now
	case share > 0:
		f.finish = now + f.remaining/share
	default:
		f.finish = math.Inf(1)
	}
	s.newTie(f)
	s.done.fix(f)
}

// sgMaxminPrecision is SimGrid's maxmin/precision.
const sgMaxminPrecision = 1e-5

// sgSolve is lmm::MaxMin::maxmin_solve over the modified constraints, with
// its float steps and precision cut-offs: the flows of the saturated
// constraints (those with the least remaining/usage) are fixed at
// min_usage/penalty, or at their bound when a bound binds first, in the
// order of the saturated_variable_set; each fixed flow takes its share
// from every link it crosses (double_update), and links left with no
// capacity or usage (within precision) drop out.
func (s *System) sgSolve() {
	sg := &s.sg
	sg.light, sg.sat = sg.light[:0], sg.sat[:0]
	sg.minUsage, sg.minBound = -1, -1
	for _, l := range sg.modified {
		capacity := s.links[l].capacity
		cn := &sg.cn[l]
		cn.remaining = capacity
		if !(cn.remaining > capacity*sgMaxminPrecision) {
			continue
		}
		cn.usage = 0
		for i := len(cn.enabled) - 1; i >= 0; i-- {
			f := cn.enabled[i]
			f.sgValue = 0
			cn.usage += s.coefOn(f, l) / f.weight
			if !f.activeOn(l) { // push_front
				cn.active = append(cn.active, nil)
				copy(cn.active[1:], cn.active)
				cn.active[0] = f
				f.setActive(l, true)
			}
		}
		if cn.usage > 0 {
			cn.light = int32(len(sg.light))
			sg.light = append(sg.light, sgLight{link: l, rou: cn.remaining / cn.usage})
			sg.satUpdate(cn.remaining/cn.usage, len(sg.light)-1)
		}
	}
	sg.satVarsUpdate()
	for {
		for _, v := range sg.satVars {
			if !math.IsInf(v.bound, 1) && v.bound*v.weight < sg.minUsage {
				if sg.minBound < 0 {
					sg.minBound = v.bound * v.weight
				} else {
					sg.minBound = math.Min(sg.minBound, v.bound*v.weight)
				}
			}
		}
		for len(sg.satVars) > 0 {
			v := sg.satVars[0]
			if sg.minBound < 0 {
				v.sgValue = sg.minUsage / v.weight
			} else if math.Abs(sg.minBound-v.bound*v.weight) < sgMaxminPrecision {
				v.sgValue = v.bound
			} else {
				v.inSat = false
				sg.satVars = sg.satVars[1:]
				continue
			}
			for _, e := range v.elems {
				s.sgTake(v, e)
			}
			v.inSat = false
			sg.satVars = sg.satVars[1:]
		}
		sg.minUsage, sg.minBound = -1, -1
		sg.sat = sg.sat[:0]
		for pos := range sg.light {
			sg.satUpdate(sg.light[pos].rou, pos)
		}
		sg.satVarsUpdate()
		if len(sg.light) == 0 {
			break
		}
	}
	clear(sg.satVars[:cap(sg.satVars)])
	sg.satVars = sg.satVars[:0]
}

// sgTake is the update of maxmin_solve for one link of a fixed flow v: the
// link gives up v's share (double_update on remaining and usage) and leaves
// the links still to saturate when nothing is left of either.
func (s *System) sgTake(v *flow, e elem) {
	sg := &s.sg
	cn := &sg.cn[e.link]
	capacity := s.links[e.link].capacity
	cn.remaining -= e.coef * v.sgValue
	if cn.remaining < capacity*sgMaxminPrecision {
		cn.remaining = 0
	}
	cn.usage -= e.coef / v.weight
	if cn.usage < sgMaxminPrecision {
		cn.usage = 0
	}
	if !(cn.usage > sgMaxminPrecision) || !(cn.remaining > capacity*sgMaxminPrecision) {
		if i := cn.light; i >= 0 {
			last := len(sg.light) - 1
			sg.light[i] = sg.light[last]
			sg.cn[sg.light[i].link].light = i
			sg.light = sg.light[:last]
			cn.light = -1
		}
	} else if cn.light >= 0 {
		sg.light[cn.light].rou = cn.remaining / cn.usage
	}
	if v.activeOn(e.link) {
		cn.active = removeFlow(cn.active, v)
		v.setActive(e.link, false)
	}
}

// satUpdate is saturated_constraints_update: the constraints whose
// remaining/usage is the least saturate next.
func (sg *sgState) satUpdate(rou float64, idx int) {
	if sg.minUsage < 0 || sg.minUsage > rou {
		sg.minUsage = rou
		sg.sat = append(sg.sat[:0], idx)
	} else if sg.minUsage == rou {
		sg.sat = append(sg.sat, idx)
	}
}

// satVarsUpdate is saturated_variable_set_update: the active flows of the
// saturating constraints, in their active_element_set order.
func (sg *sgState) satVarsUpdate() {
	for _, idx := range sg.sat {
		for _, f := range sg.cn[sg.light[idx].link].active {
			if !f.inSat {
				f.inSat = true
				sg.satVars = append(sg.satVars, f)
			}
		}
	}
}

// coefOn returns f's coefficient on link l.
func (s *System) coefOn(f *flow, l LinkID) float64 {
	for _, e := range f.elems {
		if e.link == l {
			return e.coef
		}
	}
	return 0
}

// sgRemainsPrecision is maxmin/precision × surf/precision (1e-5 × 1e-9),
// below which SimGrid's double_update rounds remaining work to 0.
const sgRemainsPrecision = 1e-14

// newTie gives f the next heap stamp as its tie. The flow heap keeps a
// tie in 32 bits (fluid/heap.go): past 4e9 updates of one System, its
// order would be wrong, so it stops.
func (s *System) newTie(f *flow) {
	s.sg.stamp++
	if s.sg.stamp > maxTie {
		panic("fluid: over 2^32 SimGrid heap stamps")
	}
	f.tie = s.sg.stamp
}
