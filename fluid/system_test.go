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
	before := s.flows.get(a).finish
	s.Start(0.5, FlowSpec{Links: []LinkID{1}, Bytes: 7})
	if s.flows.get(a).finish != before || s.flows.get(a).last != 0 {
		t.Errorf("unrelated flow was re-projected")
	}
}

func TestPanicsOnMisuse(t *testing.T) {
	for name, fn := range map[string]func(s *System){
		"unknown flow":  func(s *System) { s.Rate(42) },
		"time backward": func(s *System) { s.Start(1, FlowSpec{}); s.Start(0.5, FlowSpec{}) },
		"bad link":      func(s *System) { s.Start(0, FlowSpec{Links: []LinkID{3}}) },
		"negative size": func(s *System) { s.Start(0, FlowSpec{Bytes: -1}) },
		// a latency phase is lmm's (Options.Solver = SimGrid), which NewSystem is not
		"latent start": func(s *System) { s.StartLatent(0, &FlowSpec{Links: []LinkID{0}, Bytes: 1}, 1e-6) },
		"activate":     func(s *System) { s.Activate(0, s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 1})) },
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

// TestSettleWithoutSimGrid: the max-min solver rates each flow as it
// starts, so Settle has nothing to do and no flow is ever latent.
func TestSettleWithoutSimGrid(t *testing.T) {
	s := NewSystem(shared(10))
	a := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 10})
	s.Settle(0.5)
	if s.Rate(a) != 10 || s.Latent(a) || s.Remaining(0.5, a) != 5 {
		t.Errorf("after Settle: rate %v latent %v remaining %v, want 10, false, 5", s.Rate(a), s.Latent(a), s.Remaining(0.5, a))
	}
}

// mm is s's max-min solver, for tests of its internals.
func (s *System) mm() *maxmin { return s.model.(*maxmin) }
