package fluid

import (
	"cmp"
	"math"
	"math/rand/v2"
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
	g := s.mm().add(0, &FlowSpec{Links: []LinkID{0}, Bytes: 100})
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

// TestSolveStatsCountsReSolves follows TestStartLevel's system through the
// public API and checks the solver's counts by hand: a flow alone on its
// links is rated without a re-solve; b's start re-solves b only (a, level
// 2, is below t0 = 10); g's start re-solves b and g (t0 = 5), both moving;
// b's end re-solves g alone (5 → 10); a's end (level 2) re-solves g, now
// alone on link 0 (10 → 12).
func TestSolveStatsCountsReSolves(t *testing.T) {
	s := NewSystem(shared(12, 2))
	var a, b, g FlowID
	one := func(link LinkID) FlowSpec { return FlowSpec{Links: []LinkID{link}, Bytes: 100} }
	for _, step := range []struct {
		name string
		do   func()
		want SolveStats
	}{
		{"a alone", func() { a = s.Start(0, FlowSpec{Links: []LinkID{0, 1}, Bytes: 100}) }, SolveStats{}},
		{"b starts", func() { b = s.Start(0, one(0)) }, SolveStats{Resolves: 1, Flows: 1, Changed: 1}},
		{"g starts", func() { g = s.Start(0, one(0)) }, SolveStats{Resolves: 2, Flows: 3, Changed: 3}},
		{"b ends", func() { s.Finish(0, b) }, SolveStats{Resolves: 3, Flows: 4, Changed: 4}},
		{"a ends", func() { s.Finish(0, a) }, SolveStats{Resolves: 4, Flows: 5, Changed: 5}},
	} {
		step.do()
		if got := s.SolveStats(); got != step.want {
			t.Fatalf("after %s: %+v, want %+v", step.name, got, step.want)
		}
	}
	if s.Rate(g) != 12 {
		t.Errorf("g's rate %v, want 12", s.Rate(g))
	}

	// A re-solve that confirms a rate: e (held at 2 by link 1) and f (held
	// at 4 by link 2) share link 0 (10 B/s) without saturating it; e's end
	// re-solves f (level 4 ≥ 2), which stays at 4.
	s = NewSystem(shared(10, 2, 4))
	e := s.Start(0, FlowSpec{Links: []LinkID{0, 1}, Bytes: 100})
	f := s.Start(0, FlowSpec{Links: []LinkID{0, 2}, Bytes: 100})
	if got, want := s.SolveStats(), (SolveStats{Resolves: 1, Flows: 1, Changed: 1}); got != want {
		t.Fatalf("after e and f start: %+v, want %+v", got, want)
	}
	s.Finish(0, e)
	if got, want := s.SolveStats(), (SolveStats{Resolves: 2, Flows: 2, Changed: 1}); got != want || s.Rate(f) != 4 {
		t.Fatalf("after e ends: %+v (f at %v), want %+v (f at 4)", got, s.Rate(f), want)
	}
}

// TestSortLevels: sortLevels gives slices.SortFunc's order of a link's
// flows, element for element, on slices of 0 to 40 flows whose levels tie
// often (drawn from five values, NaN and +Inf among them), so that an
// order that differed on ties (a stable sort beyond insertionMax, where
// SortFunc is not one, or a comparison that ordered NaN otherwise) fails.
func TestSortLevels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 32))
	values := []float64{0, 1.5, 2, math.Inf(1), math.NaN()}
	for trial := range 4000 {
		n := trial % 41
		got := make([]flowLevel, n)
		for i := range got {
			got[i] = flowLevel{level: values[rng.IntN(len(values))], share: float64(i), load: rng.Float64()}
		}
		want := slices.Clone(got)
		slices.SortFunc(want, func(a, b flowLevel) int { return cmp.Compare(a.level, b.level) })
		sortLevels(got)
		for i := range got {
			g, w := got[i], want[i]
			if math.Float64bits(g.level) != math.Float64bits(w.level) || g.share != w.share || g.load != w.load {
				t.Fatalf("trial %d (%d flows): at %d got %+v, SortFunc %+v", trial, n, i, g, w)
			}
		}
	}
}
