package fluid

import "math"

// Light flows (Approximations.LightBytes) are an approximation for the many small
// messages that cross links loaded by long transfers (HPL's pivot search
// and row swaps beside its panel broadcasts). Exactly, such a message's
// start and end each re-solve every flow at or above its level in its
// connected component, which on a loaded fat tree can be most of the
// network, to move the long flows' rates for a few microseconds.
//
// A light flow instead gets, when it starts, the rate max-min gives it —
// the level t0 at which the first of its links saturates while the others
// follow their current levels (threshold.go: below t0 the sweep is
// unchanged, and at t0 the new flow is fixed), or its bound if lower — and
// the flows it shares links with keep their rates. It joins its links'
// member lists, so later starts see it, and a later exact re-solve that
// takes it in rates it exactly and makes it an ordinary flow. Its end
// re-solves nothing while it is light. So while it runs, each of its
// links carries up to its rate more than its capacity, and its end leaves
// that much capacity unused until the next re-solve there.
//
// To bound what the others lose or gain, a flow is light only if the
// light flows on each of its links, itself included, started with at most
// LightBytes bytes between them (each counted at its coefficient there):
// past that, a small message is solved exactly, and so are the light
// flows that solve reaches. The error is thus at most LightBytes bytes of
// unaccounted traffic per link at any time. What it does to an
// application's figures is measured in docs/evidence/approximations.md (Light flows)
// (Stampede, the examples).

// lightState is maxmin's bookkeeping of its light flows.
type lightState struct {
	max   float64   // Approximations.LightBytes: a link's budget of light bytes; 0 for none
	on    []int32   // per link: light flows on it; nil until the first
	bytes []float64 // per link: Σ coefficient × starting bytes of its light flows
	// started is indexed by flow slot: the bytes a light flow started
	// with, −1 for any other flow; nil until the first, and short of the
	// slots that were never light.
	started []float64
	n       int // light flows in the System
}

// is reports whether the flow in slot is light.
func (l *lightState) is(slot int32) bool {
	return int(slot) < len(l.started) && l.started[slot] >= 0
}

// isLight reports whether a flow of spec may be light under the options.
func (m *maxmin) isLight(spec FlowSpec) bool {
	return m.light.max > 0 && spec.Bytes <= m.light.max
}

// startLight rates f, just added to its links, as a light flow if spec
// allows it and its links' light flows leave room for its bytes; it
// reports whether it did.
func (m *maxmin) startLight(now float64, f *flow, spec FlowSpec) bool {
	if !m.isLight(spec) {
		return false
	}
	if m.light.on == nil {
		m.light.on = make([]int32, len(m.links))
		m.light.bytes = make([]float64, len(m.links))
	}
	for _, e := range f.elems {
		if m.light.bytes[e.link]+e.coef*spec.Bytes > m.light.max {
			return false
		}
	}
	t0 := math.Inf(1)
	for _, e := range f.elems {
		level, fair := m.lightLevel(e.link, f)
		if !(level >= fair) {
			return false // the link is overloaded (by light flows): solve it
		}
		t0 = min(t0, level)
	}
	x := f.bound
	if f.bound*f.weight > t0 {
		x = t0 / f.weight
	}
	if !(x > 0) {
		return false // a stalled flow would wait for a re-solve that may never come
	}
	for int(f.slot) >= len(m.light.started) {
		m.light.started = append(m.light.started, -1)
	}
	m.light.started[f.slot] = spec.Bytes
	m.light.n++
	for _, e := range f.elems {
		m.light.on[e.link]++
		m.light.bytes[e.link] += e.coef * spec.Bytes
	}
	m.setRate(now, f, x)
	return true
}

// startLightBatch rates the flows of a StartAll left without a rate (the
// light candidates, in id order): light where startLight allows it,
// the others exactly, in one re-solve.
func (m *maxmin) startLightBatch(now float64, specs []FlowSpec, ids []FlowID) {
	m.batch = m.batch[:0]
	for i, id := range ids {
		f := m.sys.flows.get(id)
		if f.rate >= 0 {
			continue // alone, or rated by the batch's re-solve
		}
		if !m.startLight(now, f, specs[i]) {
			m.batch = append(m.batch, f.elems...)
		}
	}
	if len(m.batch) > 0 {
		m.resolveAbove(now, m.batch, 0)
	}
}

// endLight books the end of light flow f, already off its links, and
// reports whether its links need a re-solve all the same: an exact solve
// that froze it on a link it overloaded may have left a flow there with
// no capacity (rate 0), which only a re-solve can restart.
func (m *maxmin) endLight(f *flow) bool {
	m.unlight(f)
	for _, e := range f.elems {
		for _, mb := range m.links[e.link].members {
			if m.hot[mb.slot].rate == 0 {
				return true
			}
		}
	}
	return false
}

// unlight makes f an ordinary flow.
func (m *maxmin) unlight(f *flow) {
	bytes := m.light.started[f.slot]
	m.light.started[f.slot] = -1
	m.light.n--
	for _, e := range f.elems {
		if m.light.on[e.link]--; m.light.on[e.link] == 0 {
			m.light.bytes[e.link] = 0 // no rounding left behind
		} else {
			m.light.bytes[e.link] -= e.coef * bytes
		}
	}
}

// solvedLight makes the light flows an exact re-solve just rated ordinary
// flows: their links' other flows now account for them.
func (m *maxmin) solvedLight() {
	for _, slot := range m.fill.flows {
		if m.light.is(slot) {
			m.unlight(m.sys.bySlot[slot])
		}
	}
}

// lightLevel is saturationLevel over the dense flow state: the level at
// which link l saturates when its flows follow their current levels and
// fresh rises with them up to its bound level. Flows without a rate yet
// (the rest of a StartAll's batch) are left out: each is rated later
// seeing fresh, light, or by an exact solve that also re-rates fresh.
//
// fair is the level of an equal share of the link, capacity / Σ shares:
// on a link that is not overloaded the saturation level is at least that
// (the flows stopped below it carry less than their equal share), so a
// lower one means light flows overload the link, and fresh is then solved
// exactly instead of starting slow and staying slow.
func (m *maxmin) lightLevel(l LinkID, fresh *flow) (level, fair float64) {
	ls := &m.links[l]
	levels := m.fill.levels[:0]
	for _, mb := range ls.members {
		if mb.slot == fresh.slot {
			levels = append(levels, flowLevel{level: fresh.bound * fresh.weight, share: mb.share, load: mb.coef * fresh.bound})
			continue
		}
		h := &m.hot[mb.slot]
		if h.rate < 0 {
			continue
		}
		levels = append(levels, flowLevel{level: h.level, share: mb.share, load: mb.coef * h.rate})
	}
	m.fill.levels = levels
	level, shares := sweep(levels, ls.capacity)
	return level, ls.capacity / shares
}
