package fluidtest

import (
	"math"

	"github.com/emu-hpc/emu/fluid"
)

// Case is a max-min problem solved by hand; its comment derives Want.
type Case struct {
	Name    string
	Problem Problem
	Want    []float64 // rates, bytes/s, one per flow
}

// shared returns Shared links of the given bandwidths (bytes/s).
func shared(bw ...float64) []fluid.Link {
	ls := make([]fluid.Link, len(bw))
	for i, b := range bw {
		ls[i] = fluid.Link{Bandwidth: b, Sharing: fluid.Shared}
	}
	return ls
}

// Cases are the hand-solved problems every solver must reproduce.
var Cases = []Case{{
	// One link of 10 B/s, two equal flows: 10/2 each.
	Name: "two flows one link",
	Problem: Problem{Links: shared(10),
		Flows: []fluid.FlowSpec{{Links: []fluid.LinkID{0}, Bytes: 1}, {Links: []fluid.LinkID{0}, Bytes: 1}},
	},
	Want: []float64{5, 5},
}, {
	// Three links: L0 = 10, L1 = 8, L2 = 4 B/s. f0 crosses all three,
	// f1 only L0, f2 only L1, f3 crosses L1 and L2. Filling levels:
	// L0: 10/2 = 5, L1: 8/3 ≈ 2.67, L2: 4/2 = 2 → L2 saturates first,
	// f0 = f3 = 2. Then L0 has 10−2 = 8 left for f1 alone → f1 = 8, and
	// L1 has 8−2−2 = 4 left for f2 alone → f2 = 4. Every link is full.
	Name: "textbook 3 links 4 flows",
	Problem: Problem{Links: shared(10, 8, 4),
		Flows: []fluid.FlowSpec{
			{Links: []fluid.LinkID{0, 1, 2}, Bytes: 1},
			{Links: []fluid.LinkID{0}, Bytes: 1},
			{Links: []fluid.LinkID{1}, Bytes: 1},
			{Links: []fluid.LinkID{1, 2}, Bytes: 1},
		},
	},
	Want: []float64{2, 8, 4, 2},
}, {
	// A FatPipe of 10 B/s does not make flows compete: 3 flows get 10
	// each. A fourth flow also crossing a shared 6 B/s link gets 6.
	Name: "fat pipe",
	Problem: Problem{Links: []fluid.Link{{Bandwidth: 10, Sharing: fluid.FatPipe}, {Bandwidth: 6, Sharing: fluid.Shared}},
		Flows: []fluid.FlowSpec{
			{Links: []fluid.LinkID{0}, Bytes: 1}, {Links: []fluid.LinkID{0}, Bytes: 1},
			{Links: []fluid.LinkID{0}, Bytes: 1}, {Links: []fluid.LinkID{0, 1}, Bytes: 1},
		},
	},
	Want: []float64{10, 10, 10, 6},
}, {
	// Link of 12 B/s, three flows, one bounded at 2: the bounded flow
	// stops at 2 and the other two split the rest, (12−2)/2 = 5.
	Name: "bound",
	Problem: Problem{Links: shared(12),
		Flows: []fluid.FlowSpec{
			{Links: []fluid.LinkID{0}, Bytes: 1, Bound: 2},
			{Links: []fluid.LinkID{0}, Bytes: 1}, {Links: []fluid.LinkID{0}, Bytes: 1},
		},
	},
	Want: []float64{2, 5, 5},
}, {
	// A bound above the fair share does not bind: 12/2 = 6 each.
	Name: "loose bound",
	Problem: Problem{Links: shared(12),
		Flows: []fluid.FlowSpec{{Links: []fluid.LinkID{0}, Bytes: 1, Bound: 7}, {Links: []fluid.LinkID{0}, Bytes: 1}},
	},
	Want: []float64{6, 6},
}, {
	// Weights 1 and 3 on a 12 B/s link: x_i = C/(w_i Σ 1/w_j)
	// = 12/(1·(1+1/3)) = 9 and 12/(3·4/3) = 3 (reference §1.1).
	Name: "weights",
	Problem: Problem{Links: shared(12),
		Flows: []fluid.FlowSpec{{Links: []fluid.LinkID{0}, Bytes: 1, Weight: 1}, {Links: []fluid.LinkID{0}, Bytes: 1, Weight: 3}},
	},
	Want: []float64{9, 3},
}, {
	// Cross-traffic: f0 goes over L0 and loads L1 at 0.05·x; f1 goes
	// over L1 (10 B/s). L0 (100 B/s) is not a bottleneck. On L1:
	// 0.05·x0 + x1 ≤ 10 with both rising at the same speed: level
	// 10/1.05 ≈ 9.5238 for both; f0 is then free on L0 but L1 is full,
	// so both stay at 10/1.05.
	Name: "reverse share",
	Problem: Problem{Links: shared(100, 10),
		Flows: []fluid.FlowSpec{
			{Links: []fluid.LinkID{0}, Reverse: []fluid.LinkID{1}, ReverseShare: 0.05, Bytes: 1},
			{Links: []fluid.LinkID{1}, Bytes: 1},
		},
	},
	Want: []float64{10 / 1.05, 10 / 1.05},
}, {
	// A flow using a Shared link both ways loads it at 1.05 (reference
	// §2.1): alone on 21 B/s it gets 21/1.05 = 20.
	Name: "merged coefficients",
	Problem: Problem{Links: shared(21),
		Flows: []fluid.FlowSpec{{Links: []fluid.LinkID{0}, Reverse: []fluid.LinkID{0}, ReverseShare: 0.05, Bytes: 1}},
	},
	Want: []float64{20},
}, {
	// No links and no bound: nothing limits the flow.
	Name: "no constraint",
	Problem: Problem{Links: shared(1),
		Flows: []fluid.FlowSpec{{Bytes: 1}, {Bytes: 1, Bound: 3}},
	},
	Want: []float64{math.Inf(1), 3},
}, {
	// A zero-capacity link stalls its flow; the other link's flow is
	// unaffected.
	Name: "zero capacity",
	Problem: Problem{Links: shared(0, 4),
		Flows: []fluid.FlowSpec{{Links: []fluid.LinkID{0, 1}, Bytes: 1}, {Links: []fluid.LinkID{1}, Bytes: 1}},
	},
	Want: []float64{0, 4},
}, {
	// A bound exactly at the fair share ties with the link: 8 B/s, two
	// flows, one bounded at 4 = 8/2. Both get 4 whichever binds first.
	Name: "bound ties link",
	Problem: Problem{Links: shared(8),
		Flows: []fluid.FlowSpec{{Links: []fluid.LinkID{0}, Bytes: 1, Bound: 4}, {Links: []fluid.LinkID{0}, Bytes: 1}},
	},
	Want: []float64{4, 4},
}, {
	// Weights and a bound together on 12 B/s: f0 weight 1 bounded at 3,
	// f1 weight 1, f2 weight 2. Filling level t gives rates t, t, t/2;
	// f0 stops at its bound when t = 3 (load 3+3+1.5 = 7.5 < 12); then
	// f1 and f2 share 12−3 = 9 as t + t/2 = 9 → t = 6: f1 = 6, f2 = 3.
	Name: "weights with bound",
	Problem: Problem{Links: shared(12),
		Flows: []fluid.FlowSpec{
			{Links: []fluid.LinkID{0}, Bytes: 1, Bound: 3},
			{Links: []fluid.LinkID{0}, Bytes: 1},
			{Links: []fluid.LinkID{0}, Bytes: 1, Weight: 2},
		},
	},
	Want: []float64{3, 6, 3},
}, {
	// A route that names a Shared link twice loads it twice: alone on
	// 10 B/s the flow gets 10/2 = 5.
	Name: "repeated link",
	Problem: Problem{Links: shared(10),
		Flows: []fluid.FlowSpec{{Links: []fluid.LinkID{0, 0}, Bytes: 1}},
	},
	Want: []float64{5},
}, {
	// A FatPipe caps each flow alone, whatever the weights: 10 and 10.
	// (SimGrid's solver would give the weight-2 flow 5: it fixes every
	// flow of a saturated fat pipe at the same level. See package doc.)
	Name: "fat pipe with weights",
	Problem: Problem{Links: []fluid.Link{{Bandwidth: 10, Sharing: fluid.FatPipe}},
		Flows: []fluid.FlowSpec{{Links: []fluid.LinkID{0}, Bytes: 1}, {Links: []fluid.LinkID{0}, Bytes: 1, Weight: 2}},
	},
	Want: []float64{10, 10},
}, {
	// Chain of bottlenecks: L0 = 3 B/s holds f0 and f1 (1.5 each); L1 =
	// 4 B/s holds f1 and f2: f2 gets 4 − 1.5 = 2.5; L2 = 10 B/s holds f2
	// and f3: f3 gets 10 − 2.5 = 7.5. Each flow's bottleneck depends on
	// the previous one, the case a per-link greedy solver gets wrong.
	Name: "bottleneck chain",
	Problem: Problem{Links: shared(3, 4, 10),
		Flows: []fluid.FlowSpec{
			{Links: []fluid.LinkID{0}, Bytes: 1},
			{Links: []fluid.LinkID{0, 1}, Bytes: 1},
			{Links: []fluid.LinkID{1, 2}, Bytes: 1},
			{Links: []fluid.LinkID{2}, Bytes: 1},
		},
	},
	Want: []float64{1.5, 1.5, 2.5, 7.5},
}}
