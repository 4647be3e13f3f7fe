package sensitivity

import (
	"fmt"
	"math"
	"sort"
)

// Bandwidth tolerance by re-emulation. The execution graph keeps a message's
// bandwidth time as the constant the run gave it, contention included, so its
// λ_G answers "one more second per byte on every critical message" but not
// "this link class 2× slower": under contention a message's share of a link
// moves with the other flows, and a slower class can become the bottleneck of
// routes it did not limit. SearchBandwidthTolerances therefore answers the x%
// bandwidth tolerance of one link class by searching over emulations: the least
// bandwidth of the class, the others held, whose re-emulated T stays within
// (1+x/100)·T0.

// BandwidthSearch says where a bandwidth tolerance search starts and how fine
// it goes.
type BandwidthSearch struct {
	B0, T0 float64 // the run: the class's bandwidth (B/s) and its simulated time (s)
	// Resolution is the relative width of the final bracket: the answer b has
	// T(b) ≤ the target and some b' ≥ b/(1+Resolution) has T(b') above it
	// (0: DefaultBandwidthResolution).
	Resolution float64
	// Floor is the least bandwidth tried, relative to B0 (0: DefaultBandwidthFloor):
	// a tolerance still met there is reported as not reached.
	Floor float64
	// Guess, if set, is a first bandwidth to try for a tolerance (B/s; the
	// graph's answer, say), before halving; 0 or outside (Floor·B0, B0): none.
	Guess func(pct float64) float64
}

// DefaultBandwidthResolution is 1%: a reported tolerance holds within 1% by
// re-emulation (issue 12's done-when).
const DefaultBandwidthResolution = 0.01

// DefaultBandwidthFloor is 2⁻¹⁰: ten halvings of the bandwidth.
const DefaultBandwidthFloor = 1.0 / 1024

// BandwidthTolerance is the x% bandwidth tolerance of one class.
type BandwidthTolerance struct {
	Percent float64 `json:"percent"`
	// Bandwidth is the least bandwidth found whose emulated T is within x%, B/s;
	// nil when T stays within x% down to the search's floor.
	Bandwidth *float64 `json:"bandwidth_Bps"`
	// Exceeded is the bandwidth within the resolution below Bandwidth at which
	// the emulated T was above (1+x/100)·T0, B/s (nil with Bandwidth).
	Exceeded *float64 `json:"exceeded_Bps,omitempty"`
	// Emulations is the re-emulations this tolerance's search added (earlier
	// searches' runs are reused, not counted again).
	Emulations int `json:"emulations"`
	// Predicted is the execution graph's answer when the caller has one, B/s.
	Predicted *float64 `json:"predicted_Bps,omitempty"`
}

// bwSample is one emulated bandwidth and its time.
type bwSample struct{ b, t float64 }

// SearchBandwidthTolerances finds the bandwidth tolerances pcts (percent, ≥ 0)
// of one class: emulate runs the application with the class at bandwidth b
// (B/s) and returns its simulated time (s). Searches share their emulations;
// the second result is how many emulate made in all.
//
// Each search brackets the answer by trying s.Guess, then halving the bandwidth
// from the least one known to meet the target, then narrows the bracket [exceeded, met] until it
// is within the resolution, probing where T interpolated linearly in 1/b (the
// time per byte, on which uncontended transfer time is linear) meets the
// target, and at the bracket's geometric middle after a probe that did not
// halve it (so a step in T costs at most two probes per halving). It never assumes T monotone: the answer is always an emulated
// bandwidth that meets the target next to one that does not.
func SearchBandwidthTolerances(s BandwidthSearch, pcts []float64, emulate func(b float64) (float64, error)) ([]BandwidthTolerance, int, error) {
	if s.Resolution == 0 {
		s.Resolution = DefaultBandwidthResolution
	}
	if s.Floor == 0 {
		s.Floor = DefaultBandwidthFloor
	}
	switch {
	case !(s.B0 > 0) || math.IsInf(s.B0, 1) || !(s.T0 > 0):
		return nil, 0, fmt.Errorf("sensitivity: bandwidth search from %v B/s, %v s: want both > 0, finite", s.B0, s.T0)
	case !(s.Resolution > 0) || !(s.Floor > 0 && s.Floor < 1):
		return nil, 0, fmt.Errorf("sensitivity: bandwidth search resolution %v, floor %v: want > 0 and in (0, 1)", s.Resolution, s.Floor)
	}
	for _, x := range pcts {
		if !(x >= 0) || math.IsInf(x, 1) {
			return nil, 0, fmt.Errorf("sensitivity: bandwidth tolerance %v%%, want finite and ≥ 0", x)
		}
	}
	known := []bwSample{{s.B0, s.T0}}
	total := 0
	run := func(b float64) (float64, error) {
		t, err := emulate(b)
		if err != nil {
			return 0, fmt.Errorf("sensitivity: re-emulating at %v B/s: %w", b, err)
		}
		total++
		known = append(known, bwSample{b, t})
		return t, nil
	}
	order := make([]int, len(pcts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return pcts[order[i]] < pcts[order[j]] })
	out := make([]BandwidthTolerance, len(pcts))
	for _, i := range order {
		before := total
		tol, err := s.search(pcts[i], &known, run)
		if err != nil {
			return nil, total, err
		}
		tol.Emulations = total - before
		out[i] = tol
	}
	return out, total, nil
}

// search is one tolerance's search over the shared samples.
func (s BandwidthSearch) search(pct float64, known *[]bwSample, run func(float64) (float64, error)) (BandwidthTolerance, error) {
	target := (1 + pct/100) * s.T0
	res := BandwidthTolerance{Percent: pct}
	// over: the largest known bandwidth whose T is above the target (0: none);
	// met: the least known bandwidth above over within it. Where T is not
	// monotone (an application adapting to timing), this keeps the crossing
	// nearest to B0 among the samples, not a lower one past a failing sample.
	met, over := bwSample{s.B0, s.T0}, bwSample{}
	for _, k := range *known {
		if k.t > target && k.b > over.b {
			over = k
		}
	}
	for _, k := range *known {
		if k.t <= target && k.b > over.b && k.b < met.b {
			met = k
		}
	}
	// probe emulates at b and moves the bracket's end on its side.
	probe := func(b float64) error {
		t, err := run(b)
		if err != nil {
			return err
		}
		if t <= target {
			met = bwSample{b, t}
		} else {
			over = bwSample{b, t}
		}
		return nil
	}
	if s.Guess != nil && over.b == 0 {
		if b := s.Guess(pct); b > s.Floor*s.B0 && b < met.b {
			if err := probe(b); err != nil {
				return res, err
			}
		}
	}
	for over.b == 0 {
		b := met.b / 2
		if b < s.Floor*s.B0 {
			return res, nil // within the target down to the floor
		}
		if err := probe(b); err != nil {
			return res, err
		}
	}
	bisect := false // the last probe left more than half the bracket: halve it next
	for met.b/over.b > 1+s.Resolution {
		width := math.Log(met.b / over.b)
		var b float64
		if bisect || !(over.t > met.t) {
			b = math.Sqrt(met.b * over.b)
		} else {
			// Linear in G = 1/b between the bracket's ends, kept off the ends.
			g := 1/met.b + (target-met.t)*(1/over.b-1/met.b)/(over.t-met.t)
			q := math.Sqrt(1 + s.Resolution)
			b = math.Min(math.Max(1/g, over.b*q), met.b/q)
		}
		if err := probe(b); err != nil {
			return res, err
		}
		bisect = !bisect && math.Log(met.b/over.b) > width/2
	}
	res.Bandwidth, res.Exceeded = &met.b, &over.b
	return res, nil
}

// The graph's side of a bandwidth question. A message's edges carry, besides
// their latency terms, the rest of the time the run gave it: in wire mode its
// transfer time beyond its route's latency, i.e. its bandwidth time, contention
// included. Dividing link class c's bandwidth by s multiplies that time by s
// for each message bound by class c; the graph knows which messages cross c
// (their class-c latency terms), not which class bound them, so its answer
// scales every message that crosses c: right for routes whose links share one
// bandwidth (emu's topologies, but a backbone), an overestimate for messages
// that a slower class binds. RestScaled is that graph; its T is convex and
// non-decreasing in s (each path's cost is linear in s with a slope ≥ 0), and
// BandwidthPieces gives it exactly (bandwidth_lp.go).

// RestScaled returns g with the rest of every edge that carries class-c
// latency terms multiplied by s ≥ 0 (the other fields shared, not copied:
// edges share their payloads, so only the payloads' rests are new).
func (g *Graph) RestScaled(class int, s float64) *Graph {
	h := *g
	h.pay.rest = make([]float64, len(g.pay.rest))
	for k, r := range g.pay.rest {
		if class >= 0 && class <= MaxClass && g.latCountWord(g.pay.lat[k], uint8(class)) > 0 {
			r *= s
		}
		h.pay.rest[k] = r
	}
	return &h
}
