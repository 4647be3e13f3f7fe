package fluid

import "math"

// Light flows (Options.LightBytes) are an approximation for the many small
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
// application's figures is measured in the README's Performance section
// (Stampede, the examples).

// lightState is a System's bookkeeping of its light flows.
type lightState struct {
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
func (s *System) isLight(spec FlowSpec) bool {
	return s.opts.LightBytes > 0 && !s.opts.SimGridHeap && spec.Bytes <= s.opts.LightBytes
}

// startLight rates f, just added to its links, as a light flow if spec
// allows it and its links' light flows leave room for its bytes; it
// reports whether it did.
func (s *System) startLight(now float64, f *flow, spec FlowSpec) bool {
	if !s.isLight(spec) {
		return false
	}
	if s.light.on == nil {
		s.light.on = make([]int32, len(s.links))
		s.light.bytes = make([]float64, len(s.links))
	}
	for _, e := range f.elems {
		if s.light.bytes[e.link]+e.coef*spec.Bytes > s.opts.LightBytes {
			return false
		}
	}
	t0 := math.Inf(1)
	for _, e := range f.elems {
		level, fair := s.lightLevel(e.link, f)
		if !(level >= fair) {
			return false // the link is overloaded (by light flows): solve it
		}
		t0 = math.Min(t0, level)
	}
	x := f.bound
	if f.bound*f.weight > t0 {
		x = t0 / f.weight
	}
	if !(x > 0) {
		return false // a stalled flow would wait for a re-solve that may never come
	}
	for int(f.slot) >= len(s.light.started) {
		s.light.started = append(s.light.started, -1)
	}
	s.light.started[f.slot] = spec.Bytes
	s.light.n++
	for _, e := range f.elems {
		s.light.on[e.link]++
		s.light.bytes[e.link] += e.coef * spec.Bytes
	}
	s.setRate(now, f, x)
	return true
}

// startLightBatch rates the flows of a StartAll left without a rate (the
// light candidates, in id order): light where startLight allows it,
// the others exactly, in one re-solve.
func (s *System) startLightBatch(now float64, specs []FlowSpec, ids []FlowID) {
	s.batch = s.batch[:0]
	for i, id := range ids {
		f := s.flows.get(id)
		if f.rate >= 0 {
			continue // alone, or rated by the batch's re-solve
		}
		if !s.startLight(now, f, specs[i]) {
			s.batch = append(s.batch, f.elems...)
		}
	}
	if len(s.batch) > 0 {
		s.resolveAbove(now, s.batch, 0)
	}
}

// endLight books the end of light flow f, already off its links, and
// reports whether its links need a re-solve all the same: an exact solve
// that froze it on a link it overloaded may have left a flow there with
// no capacity (rate 0), which only a re-solve can restart.
func (s *System) endLight(f *flow) bool {
	s.unlight(f)
	for _, e := range f.elems {
		for _, m := range s.links[e.link].members {
			if s.hot[m.slot].rate == 0 {
				return true
			}
		}
	}
	return false
}

// unlight makes f an ordinary flow.
func (s *System) unlight(f *flow) {
	bytes := s.light.started[f.slot]
	s.light.started[f.slot] = -1
	s.light.n--
	for _, e := range f.elems {
		if s.light.on[e.link]--; s.light.on[e.link] == 0 {
			s.light.bytes[e.link] = 0 // no rounding left behind
		} else {
			s.light.bytes[e.link] -= e.coef * bytes
		}
	}
}

// solvedLight makes the light flows an exact re-solve just rated ordinary
// flows: their links' other flows now account for them.
func (s *System) solvedLight() {
	for _, slot := range s.solver.flows {
		if s.light.is(slot) {
			s.unlight(s.bySlot[slot])
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
func (s *System) lightLevel(l LinkID, fresh *flow) (level, fair float64) {
	ls := &s.links[l]
	levels := s.solver.levels[:0]
	for _, m := range ls.members {
		if m.slot == fresh.slot {
			levels = append(levels, flowLevel{level: fresh.bound * fresh.weight, share: m.share, load: m.coef * fresh.bound})
			continue
		}
		h := &s.hot[m.slot]
		if h.rate < 0 {
			continue
		}
		levels = append(levels, flowLevel{level: h.level, share: m.share, load: m.coef * h.rate})
	}
	s.solver.levels = levels
	level, shares := sweep(levels, ls.capacity)
	return level, ls.capacity / shares
}
