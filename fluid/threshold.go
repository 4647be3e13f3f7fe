package fluid

import (
	"cmp"
	"math"
	"slices"
)

// Why a change only disturbs the flows above a level.
//
// Call a flow's level its rate × weight: the filling level at which
// progressive filling fixed it. Progressive filling is a sweep over levels,
// and what happens below a level t depends only on the links that saturate
// below t. Hence:
//
//   - Removing flow g (level λ_g): none of g's links saturated below λ_g
//     (g would have stopped there), and without g they carry less, so
//     below λ_g the sweep is unchanged: every flow whose level is below
//     λ_g keeps its rate.
//   - Adding flow g: below the level t0 at which the first of g's links
//     saturates in the new sweep, g's links stay unsaturated and every
//     other link sees the same history, so flows below t0 keep their rates.
//     (If g reaches its bound first, it stops rising there and t0 is
//     where its links saturate with g held at its bound.)
//   - Adding a set G of flows at once (StartAll): the same holds with t0
//     the level at which the first link of any flow of G saturates in the
//     new sweep. Below it no link of G saturates, so each flow of G rises
//     freely, at level min(t, its bound level); a link of G carries at
//     least what it carried in the old sweep and, not saturating below t0,
//     did not saturate there before either; and the links of no flow of G
//     carry what they did. By induction over the saturations below t0,
//     each happens at the same level on the same link in both sweeps, so
//     flows below t0 keep their rates. A link's saturation level in the new
//     sweep below t0 is thus that of its rated flows at their current
//     levels and all of its flows of G rising together, each up to its
//     bound level: t0 is the least of those over the links of G. Leaving a
//     flow of G out of that sweep raises it (a link loaded by less
//     saturates later) and is not safe.
//
// Any lower threshold is also safe: re-solving every flow at or above a
// threshold τ, against capacities reduced by the frozen flows below τ,
// reproduces the full solution, because in that sub-problem no link can
// saturate below τ (at level t ≤ τ it carries no more than the full sweep
// did at τ). levelSlack lowers the threshold a hair so that flows tied with
// it are re-solved whatever the rounding of their stored levels.
const levelSlack = 1e-9 // relative, dimensionless

// startLevel returns t0 for a flow f just added to its links: the smallest,
// over f's links, level at which the link saturates when its other flows
// follow their current levels and f rises with them up to its bound level
// (bound × weight; +Inf if unbounded).
func (m *maxmin) startLevel(f *flow) float64 {
	t0 := math.Inf(1)
	for _, e := range f.elems {
		t0 = min(t0, m.saturationLevel(e.link))
	}
	return t0
}

// batchLevel returns t0 for the flows just added by a StartAll, those
// of them still without a rate (G above; a flow alone on its links is
// rated already): the smallest, over their links, level at which the
// link saturates when its rated flows follow their current levels and
// every flow of G on it rises with them up to its bound level. It stops
// at 0, below which no level goes.
func (m *maxmin) batchLevel(added []*flow) float64 {
	t0 := math.Inf(1)
	for _, f := range added {
		// (the flows themselves: no look-up of each id in the flow table)
		if f.rate >= 0 {
			continue // alone, or crossing no Shared link
		}
		for _, e := range f.elems {
			if t0 = min(t0, m.saturationLevel(e.link)); t0 <= 0 {
				return 0
			}
		}
	}
	return t0
}

// saturationLevel sweeps link l's flows by level: below level t the link
// carries Σ_{λ<t} coef·rate (flows already stopped) + t·Σ_{λ≥t} share
// (flows still rising), and saturates where that reaches its capacity.
// A fresh flow (no rate yet: the one a Start adds, or the unrated flows
// of a StartAll) stops at its bound level, carrying coef·bound from there.
func (m *maxmin) saturationLevel(l LinkID) float64 {
	ls := &m.links[l]
	levels := m.fill.levels[:0]
	for _, mb := range ls.members {
		if h := &m.hot[mb.slot]; h.rate >= 0 {
			levels = append(levels, flowLevel{level: h.level, share: mb.share, load: mb.coef * h.rate})
		} else {
			f := m.sys.bySlot[mb.slot]
			levels = append(levels, flowLevel{level: f.bound * f.weight, share: mb.share, load: mb.coef * f.bound})
		}
	}
	m.fill.levels = levels
	level, _ := sweep(levels, ls.capacity)
	return level
}

// sweep sorts a link's flows by level and returns the level at which the
// link saturates (+Inf if every flow stops below saturation) and the sum
// of the flows' shares.
func sweep(levels []flowLevel, capacity float64) (level, shares float64) {
	sortLevels(levels)
	stopped, slope := 0.0, 0.0
	for _, o := range levels {
		slope += o.share
	}
	shares = slope
	for _, o := range levels {
		if stopped+slope*o.level >= capacity {
			break // saturates before this flow stops rising
		}
		stopped += o.load
		slope -= o.share
	}
	if slope <= 0 { // every flow stops below saturation
		return math.Inf(1), shares
	}
	if level = (capacity - stopped) / slope; !(level > 0) { // max's NaN and −0 care only when it can change the level
		level = max(0, level)
	}
	return level, shares
}

// sortLevels sorts a link's flows by level into the very order
// slices.SortFunc gives, which the sweep's sums follow to the bit. Up to
// insertionMax flows, SortFunc runs an insertion sort: it is written out
// here, where its comparison inlines. Most links a StartAll sweeps carry
// one to three flows (Dahu), and the calls through SortFunc's comparison
// cost more than the sort itself (docs/evidence/dahu50k.md).
func sortLevels(levels []flowLevel) {
	if len(levels) > insertionMax {
		slices.SortFunc(levels, func(a, b flowLevel) int { return cmp.Compare(a.level, b.level) })
		return
	}
	for i := 1; i < len(levels); i++ {
		for j := i; j > 0 && cmp.Less(levels[j].level, levels[j-1].level); j-- {
			levels[j], levels[j-1] = levels[j-1], levels[j]
		}
	}
}

// insertionMax is the longest slice that slices.SortFunc sorts by
// insertion alone (pdqsort's maxInsertion, Go 1.21 on); TestSortLevels
// checks that the two orders agree, ties included.
const insertionMax = 12

// flowLevel is one flow of a link as saturationLevel sees it.
type flowLevel struct {
	level float64 // rate × weight (bound × weight for the fresh flow)
	share float64 // coefficient / weight
	load  float64 // coefficient × rate, bytes/s
}
