package fluid

import (
	"math"
	"testing"
)

// rateTol is the relative error allowed between a computed rate and a
// hand-derived one (dimensionless); the solver's arithmetic is a handful of
// float64 operations per rate.
const rateTol = 1e-12

func near(got, want float64) bool {
	if math.IsInf(want, 1) {
		return math.IsInf(got, 1)
	}
	return math.Abs(got-want) <= rateTol*math.Max(1, math.Abs(want))
}

func shared(bw ...float64) []Link {
	ls := make([]Link, len(bw))
	for i, b := range bw {
		ls[i] = Link{Bandwidth: b, Sharing: Shared}
	}
	return ls
}

// TestHandSolved checks rates on systems solved by hand; each case derives
// its expected rates in its comment.
func TestHandSolved(t *testing.T) {
	cases := []struct {
		name  string
		links []Link
		flows []FlowSpec
		want  []float64
	}{{
		// One link of 10 B/s, two equal flows: 10/2 each.
		name:  "two flows one link",
		links: shared(10),
		flows: []FlowSpec{{Links: []LinkID{0}, Bytes: 1}, {Links: []LinkID{0}, Bytes: 1}},
		want:  []float64{5, 5},
	}, {
		// Three links: L0 = 10, L1 = 8, L2 = 4 B/s. f0 crosses all three,
		// f1 only L0, f2 only L1, f3 crosses L1 and L2. Filling levels:
		// L0: 10/2 = 5, L1: 8/3 ≈ 2.67, L2: 4/2 = 2 → L2 saturates first,
		// f0 = f3 = 2. Then L0 has 10−2 = 8 left for f1 alone → f1 = 8, and
		// L1 has 8−2−2 = 4 left for f2 alone → f2 = 4. Every link is full.
		name:  "textbook 3 links 4 flows",
		links: shared(10, 8, 4),
		flows: []FlowSpec{
			{Links: []LinkID{0, 1, 2}, Bytes: 1},
			{Links: []LinkID{0}, Bytes: 1},
			{Links: []LinkID{1}, Bytes: 1},
			{Links: []LinkID{1, 2}, Bytes: 1},
		},
		want: []float64{2, 8, 4, 2},
	}, {
		// A FatPipe of 10 B/s does not make flows compete: 3 flows get 10
		// each. A fourth flow also crossing a shared 6 B/s link gets 6.
		name:  "fat pipe",
		links: []Link{{Bandwidth: 10, Sharing: FatPipe}, {Bandwidth: 6, Sharing: Shared}},
		flows: []FlowSpec{
			{Links: []LinkID{0}, Bytes: 1}, {Links: []LinkID{0}, Bytes: 1},
			{Links: []LinkID{0}, Bytes: 1}, {Links: []LinkID{0, 1}, Bytes: 1},
		},
		want: []float64{10, 10, 10, 6},
	}, {
		// Link of 12 B/s, three flows, one bounded at 2: the bounded flow
		// stops at 2 and the other two split the rest, (12−2)/2 = 5.
		name:  "bound",
		links: shared(12),
		flows: []FlowSpec{
			{Links: []LinkID{0}, Bytes: 1, Bound: 2},
			{Links: []LinkID{0}, Bytes: 1}, {Links: []LinkID{0}, Bytes: 1},
		},
		want: []float64{2, 5, 5},
	}, {
		// A bound above the fair share does not bind: 12/2 = 6 each.
		name:  "loose bound",
		links: shared(12),
		flows: []FlowSpec{{Links: []LinkID{0}, Bytes: 1, Bound: 7}, {Links: []LinkID{0}, Bytes: 1}},
		want:  []float64{6, 6},
	}, {
		// Weights 1 and 3 on a 12 B/s link: x_i = C/(w_i Σ 1/w_j)
		// = 12/(1·(1+1/3)) = 9 and 12/(3·4/3) = 3 (reference §1.1).
		name:  "weights",
		links: shared(12),
		flows: []FlowSpec{{Links: []LinkID{0}, Bytes: 1, Weight: 1}, {Links: []LinkID{0}, Bytes: 1, Weight: 3}},
		want:  []float64{9, 3},
	}, {
		// Cross-traffic: f0 goes over L0 and loads L1 at 0.05·x; f1 goes
		// over L1 (10 B/s). L0 (100 B/s) is not a bottleneck. On L1:
		// 0.05·x0 + x1 ≤ 10 with both rising at the same speed: level
		// 10/1.05 ≈ 9.5238 for both; f0 is then free on L0 but L1 is full,
		// so both stay at 10/1.05.
		name:  "reverse share",
		links: shared(100, 10),
		flows: []FlowSpec{
			{Links: []LinkID{0}, Reverse: []LinkID{1}, ReverseShare: 0.05, Bytes: 1},
			{Links: []LinkID{1}, Bytes: 1},
		},
		want: []float64{10 / 1.05, 10 / 1.05},
	}, {
		// A flow using a Shared link both ways loads it at 1.05 (reference
		// §2.1): alone on 21 B/s it gets 21/1.05 = 20.
		name:  "merged coefficients",
		links: shared(21),
		flows: []FlowSpec{{Links: []LinkID{0}, Reverse: []LinkID{0}, ReverseShare: 0.05, Bytes: 1}},
		want:  []float64{20},
	}, {
		// No links and no bound: nothing limits the flow.
		name:  "no constraint",
		links: shared(1),
		flows: []FlowSpec{{Bytes: 1}, {Bytes: 1, Bound: 3}},
		want:  []float64{math.Inf(1), 3},
	}, {
		// A zero-capacity link stalls its flow; the other link's flow is
		// unaffected.
		name:  "zero capacity",
		links: shared(0, 4),
		flows: []FlowSpec{{Links: []LinkID{0, 1}, Bytes: 1}, {Links: []LinkID{1}, Bytes: 1}},
		want:  []float64{0, 4},
	}}
	for _, c := range cases {
		for _, full := range []bool{false, true} {
			s := NewSystemOptions(c.links, Options{FullResolve: full})
			ids := make([]FlowID, len(c.flows))
			for i, f := range c.flows {
				ids[i] = s.Start(0, f)
			}
			for i, id := range ids {
				if got := s.Rate(id); !near(got, c.want[i]) {
					t.Errorf("%s (full=%v): flow %d rate %v, want %v", c.name, full, i, got, c.want[i])
				}
			}
		}
	}
}

// TestLazyProgress follows two flows on a 10 B/s link: f0 has 10 bytes,
// f1 has 30. Both run at 5 B/s, so f0 ends at t = 2 having moved 10 bytes
// while f1 moved 10 and has 20 left; alone it runs at 10 B/s and ends at
// t = 2 + 20/10 = 4.
func TestLazyProgress(t *testing.T) {
	s := NewSystem(shared(10))
	f0 := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 10})
	f1 := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 30})
	at, id, ok := s.NextCompletion()
	if !ok || id != f0 || !near(at, 2) {
		t.Fatalf("first completion = (%v, %v, %v), want (2, %v, true)", at, id, ok, f0)
	}
	if r := s.Remaining(1, f1); !near(r, 25) {
		t.Errorf("f1 remaining at t=1: %v, want 25", r)
	}
	s.Finish(at, id)
	if r := s.Rate(f1); !near(r, 10) {
		t.Errorf("f1 rate alone: %v, want 10", r)
	}
	at, id, ok = s.NextCompletion()
	if !ok || id != f1 || !near(at, 4) {
		t.Fatalf("second completion = (%v, %v, %v), want (4, %v, true)", at, id, ok, f1)
	}
	s.Finish(at, id)
	if _, _, ok := s.NextCompletion(); ok || s.Active() != 0 {
		t.Errorf("system not empty after both flows finished")
	}
}

// TestTiesByID: equal flows end at the same time; the lower id comes first.
func TestTiesByID(t *testing.T) {
	s := NewSystem(shared(10))
	a := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 10})
	b := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 10})
	if _, id, _ := s.NextCompletion(); id != a {
		t.Fatalf("tie broken towards %v, want %v", id, a)
	}
	s.Cancel(1, a)
	if _, id, _ := s.NextCompletion(); id != b {
		t.Fatalf("next = %v, want %v", id, b)
	}
}

// TestComponentsUntouched: a flow start on one link must not touch a flow
// on an unrelated link (its projection stays bit-identical).
func TestComponentsUntouched(t *testing.T) {
	s := NewSystem(shared(10, 10))
	a := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 7})
	before := s.flows[a].finish
	s.Start(0.5, FlowSpec{Links: []LinkID{1}, Bytes: 7})
	if s.flows[a].finish != before || s.flows[a].last != 0 {
		t.Errorf("unrelated flow was re-projected")
	}
}

func TestPanicsOnMisuse(t *testing.T) {
	for name, fn := range map[string]func(s *System){
		"unknown flow":  func(s *System) { s.Rate(42) },
		"time backward": func(s *System) { s.Start(1, FlowSpec{}); s.Start(0.5, FlowSpec{}) },
		"bad link":      func(s *System) { s.Start(0, FlowSpec{Links: []LinkID{3}}) },
		"negative size": func(s *System) { s.Start(0, FlowSpec{Bytes: -1}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			fn(NewSystem(shared(1)))
		}()
	}
}
