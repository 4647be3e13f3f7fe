package fluid

import "math"

// The solve of lmm (simgrid.go): lmm::MaxMin::maxmin_solve, float for float.

// sgMaxminPrecision is SimGrid's maxmin/precision.
const sgMaxminPrecision = 1e-5

// solve is lmm::MaxMin::maxmin_solve over the modified constraints, with
// its float steps and precision cut-offs: the flows of the saturated
// constraints (those with the least remaining/usage) are fixed at
// min_usage/penalty, or at their bound when a bound binds first, in the
// order of the saturated_variable_set; each fixed flow takes its share
// from every link it crosses (double_update), and links left with no
// capacity or usage (within precision) drop out.
//
// Its first pass over the modified constraints also builds the modified
// action list (m.list) that settle re-projects: each one's enabled flows,
// newest first, each flow once, in the order the constraints were marked,
// as lmm::System::solve builds it; and it clears their marks.
func (m *lmm) solve() {
	m.light, m.sat = m.light[:0], m.sat[:0]
	m.minUsage, m.minBound = -1, -1
	cns := m.cn   // not reloaded after each store through cn
	alone := true // every link to saturate has one flow, and every flow modified is on one
	light := false
	for _, l := range m.modified {
		cn := &cns[l]
		capacity := cn.capacity
		cn.remaining = capacity
		if !(cn.remaining > capacity*sgMaxminPrecision) {
			if len(cn.enabled) > 0 {
				alone = false
				m.listFlows(cn.enabled)
			}
			continue
		}
		cn.usage = 0
		switch len(cn.enabled) {
		case 0: // a link a flow has left since it was marked
			continue
		case 1: // most of them: the loop below on one flow
			el := &cn.enabled[0]
			v := &m.vars[el.slot]
			if v.inMod != m.solves {
				v.inMod = m.solves
				v.minRou = math.Inf(1)
				m.list = append(m.list, el.f)
			}
			v.value = 0
			cn.usage += el.share
			if cn.usage > 0 {
				light = true
				if rou := cn.remaining / cn.usage; rou < v.minRou {
					v.minRou = rou
				}
			} else {
				alone = false
			}
			continue
		}
		alone = false
		for i := len(cn.enabled) - 1; i >= 0; i-- {
			el := &cn.enabled[i]
			v := &m.vars[el.slot]
			if v.inMod != m.solves {
				v.inMod = m.solves
				v.minRou = math.Inf(1)
				m.list = append(m.list, el.f)
			}
			v.value = 0
			if !cn.fat {
				cn.usage += el.share
			} else if cn.usage < el.share { // FATPIPE: the max
				cn.usage = el.share
			}
		}
		if cn.usage > 0 {
			light = true
		}
	}
	if light && alone && m.fixAlone() {
		return
	}
	// The rest of the pass above, made now, only when the rounds run:
	// SimGrid's push_front of each element not yet active, and the links
	// to saturate (light) with their remaining/usage, in the pass's order.
	// A link's pushes are in its own set, in its own order, and the links
	// to saturate and min_usage depend on their order alone, so making
	// them after the pass changes nothing.
	for _, l := range m.modified {
		cn := &cns[l]
		if !(cn.remaining > cn.capacity*sgMaxminPrecision) || len(cn.enabled) == 0 {
			continue
		}
		for i := len(cn.enabled) - 1; i >= 0; i-- {
			el := &cn.enabled[i]
			if v := &m.vars[el.slot]; !v.activeOn(el.idx) { // push_front
				cn.active = append(cn.active, el.f) // the front is the end (sgCnst.active)
				v.setActive(el.idx, true)
			}
		}
		if cn.usage > 0 {
			cn.light = int32(len(m.light))
			m.light = append(m.light, sgLight{link: l, rou: cn.remaining / cn.usage})
			m.satUpdate(cn.remaining/cn.usage, len(m.light)-1)
		}
	}
	if len(m.light) == 0 { // no link to saturate
		return
	}
	m.satVarsUpdate()
	for {
		for _, f := range m.satVars {
			if !math.IsInf(f.bound, 1) && f.bound*f.weight < m.minUsage {
				if m.minBound < 0 {
					m.minBound = f.bound * f.weight
				} else {
					m.minBound = math.Min(m.minBound, f.bound*f.weight)
				}
			}
		}
		// In the set's order; fixing a flow adds none to it. (Walked by
		// index and emptied after, so that its array serves every round:
		// taking flows off its front made the next round's appends grow a
		// new one.)
		for i, f := range m.satVars {
			m.satVars[i] = nil
			v := &m.vars[f.slot]
			v.inSat = false
			if m.minBound < 0 {
				v.value = m.minUsage / f.weight
			} else if math.Abs(m.minBound-f.bound*f.weight) < sgMaxminPrecision {
				v.value = f.bound
			} else {
				continue
			}
			for i, e := range f.elems {
				m.take(f, v, e, int32(i))
			}
		}
		m.satVars = m.satVars[:0]
		m.minUsage, m.minBound = -1, -1
		m.sat = m.sat[:0]
		for pos := range m.light {
			m.satUpdate(m.light[pos].rou, pos)
		}
		m.satVarsUpdate()
		if len(m.light) == 0 {
			break
		}
	}
}

// fixAlone is the rest of the solve when each link to saturate carries
// one flow (the first pass found one enabled flow on each modified link
// it did not leave empty): nothing is then shared, and the rounds would
// fix each flow, when the least remaining/usage of its links to saturate
// (minRou) comes up as min_usage, at that min_usage over its weight,
// unless its bound binds first. The rounds' order does not show: a
// flow's value is that float whatever round fixes it; the links leave
// light (their usage drops to 0: the flow's share is the very float
// taken off) and each flow its links' active_element_set (solve has made
// neither the pushes nor light yet); the remaining and usage the rounds
// would leave no solve reads (each resets them first). So each flow is
// fixed at once. It declines, changing nothing, when some flow's bound
// would bind (bound × weight below its min_usage): the rounds then run.
func (m *lmm) fixAlone() bool {
	for _, f := range m.list {
		if !math.IsInf(f.bound, 1) && f.bound*f.weight < m.vars[f.slot].minRou {
			return false
		}
	}
	for _, f := range m.list {
		v := &m.vars[f.slot]
		v.value = v.minRou / f.weight
		if v.activeMask != 0 { // active before the solve: take leaves none
			for i, e := range f.elems {
				if v.activeOn(int32(i)) {
					cn := &m.cn[e.link]
					cn.active = removeFlow(cn.active, f)
					v.setActive(int32(i), false)
				}
			}
		}
	}
	return true
}

// listFlows adds to the modified action list the flows of en not in it
// yet, newest first.
func (m *lmm) listFlows(en []sgElem) {
	for i := len(en) - 1; i >= 0; i-- {
		if v := &m.vars[en[i].slot]; v.inMod != m.solves {
			v.inMod = m.solves
			m.list = append(m.list, en[i].f)
		}
	}
}

// take is the update of maxmin_solve for one link of a fixed flow f (its
// element i, e): the link gives up f's share (double_update on remaining
// and usage) and leaves the links still to saturate when nothing is left
// of either.
func (m *lmm) take(f *flow, v *sgVar, e elem, i int32) {
	cn := &m.cn[e.link]
	capacity := cn.capacity
	if cn.fat {
		m.takeFat(cn)
	} else {
		cn.remaining -= e.coef * v.value
		if cn.remaining < capacity*sgMaxminPrecision {
			cn.remaining = 0
		}
		cn.usage -= e.coef / f.weight
		if cn.usage < sgMaxminPrecision {
			cn.usage = 0
		}
	}
	if !(cn.usage > sgMaxminPrecision) || !(cn.remaining > capacity*sgMaxminPrecision) {
		if i := cn.light; i >= 0 {
			last := len(m.light) - 1
			m.light[i] = m.light[last]
			m.cn[m.light[i].link].light = i
			m.light = m.light[:last]
			cn.light = -1
		}
	} else if cn.light >= 0 {
		m.light[cn.light].rou = cn.remaining / cn.usage
	}
	if v.activeOn(i) {
		cn.active = removeFlow(cn.active, f)
		v.setActive(i, false)
	}
}

// takeFat is take's update of a FATPIPE constraint cn: its remaining
// stays, its usage becomes the largest share of its flows not fixed yet
// (value 0: the solve's first pass zeroed every flow of a link it
// saturates). So when a fat pipe saturates, every flow on it is fixed at
// the same min_usage / weight, the least penalty's flow at the cap and the
// others below it, as SimGrid 3.32's maxmin_solve does.
func (m *lmm) takeFat(cn *sgCnst) {
	cn.usage = 0
	for _, el := range cn.enabled {
		if m.vars[el.slot].value > 0 {
			continue
		}
		if el.share > 0 {
			cn.usage = max(cn.usage, el.share)
		}
	}
}

// satUpdate is saturated_constraints_update: the constraints whose
// remaining/usage is the least saturate next.
func (m *lmm) satUpdate(rou float64, idx int) {
	if m.minUsage < 0 || m.minUsage > rou {
		m.minUsage = rou
		m.sat = append(m.sat[:0], idx)
	} else if m.minUsage == rou {
		m.sat = append(m.sat, idx)
	}
}

// satVarsUpdate is saturated_variable_set_update: the active flows of the
// saturating constraints, in their active_element_set order.
func (m *lmm) satVarsUpdate() {
	for _, idx := range m.sat {
		active := m.cn[m.light[idx].link].active
		for i := len(active) - 1; i >= 0; i-- { // front first
			f := active[i]
			if v := &m.vars[f.slot]; !v.inSat {
				v.inSat = true
				m.satVars = append(m.satVars, f)
			}
		}
	}
}

// activeOn reports whether the flow's element i (a flow has one element
// a link) is in its link's active_element_set. Only the first 64 elements
// have a bit: the others never count as active (as before, when this
// looked the element up by link).
func (v *sgVar) activeOn(i int32) bool {
	return i < 64 && v.activeMask&(1<<uint(i)) != 0
}

// setActive records whether the flow's element i is in its link's
// active_element_set.
func (v *sgVar) setActive(i int32, on bool) {
	if i >= 64 {
		return
	}
	if on {
		v.activeMask |= 1 << uint(i)
	} else {
		v.activeMask &^= 1 << uint(i)
	}
}
