package fluid

import (
	"slices"
	"testing"
)

// TestStartLevel: link 0 (12 B/s) carries a (held at 2 by link 1 of
// 2 B/s, level 2) and b (alone otherwise, level 10). A new flow g on link
// 0 rises with b: sweeping levels, at λ = 2 the link carries 3 flows × 2 =
// 6 < 12, so a stops rising and keeps its 2; then b and g share 12 − 2 =
// 10, saturating at t0 = 5. Only b and g are re-solved; a keeps its rate.
func TestStartLevel(t *testing.T) {
	s := NewSystem(shared(12, 2))
	a := s.Start(0, FlowSpec{Links: []LinkID{0, 1}, Bytes: 100})
	b := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 100})
	if s.Rate(a) != 2 || s.Rate(b) != 10 {
		t.Fatalf("before: a %v b %v, want 2 and 10", s.Rate(a), s.Rate(b))
	}
	g := s.mm().add(0, FlowSpec{Links: []LinkID{0}, Bytes: 100})
	if t0 := s.mm().startLevel(g); !near(t0, 5) {
		t.Errorf("t0 = %v, want 5", t0)
	}
	s.mm().resolveFrom(0, g)
	if s.Rate(a) != 2 || !near(s.Rate(b), 5) || !near(s.Rate(g.id), 5) {
		t.Errorf("after: a %v b %v g %v, want 2, 5, 5", s.Rate(a), s.Rate(b), s.Rate(g.id))
	}
	if slices.Contains(s.mm().fill.flows, s.flows.get(a).slot) {
		t.Errorf("a (level 2 < t0 = 5) was re-solved")
	}
	// Removing b (level 5) re-solves only flows at level ≥ 5: g, not a.
	s.Finish(0, b)
	if slices.Contains(s.mm().fill.flows, s.flows.get(a).slot) || !near(s.Rate(g.id), 10) {
		t.Errorf("after b ends: g %v (want 10), a re-solved: %v", s.Rate(g.id), slices.Contains(s.mm().fill.flows, s.flows.get(a).slot))
	}
}
