package fluid

import (
	"math"
	"testing"
)

const capEps = 1e-9 // bytes/s or s

// settled rates the System as the engine would at time now: a Settle
// (SimGrid's solve) and the rates of the flows.
func settled(s *System, now float64, ids ...FlowID) []float64 {
	s.Settle(now)
	out := make([]float64, len(ids))
	for i, id := range ids {
		out[i] = s.Rate(id)
	}
	return out
}

func nearRates(a, b []float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > capEps*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return len(a) == len(b)
}

// TestSetCapacity: flows f (links 0, 1) and g (link 1) on links of 10 and
// 30 B/s. Max-min: f = 10 (link 0), g = 20. Link 0 to 40: link 1 splits
// 15/15. Link 1 to 12: 6/6. Both solvers, and the bytes moved before a
// change count at the old rate: f has 100 bytes; 0–1 s at 10, 1–2 s at
// 15, then 6 B/s: 100 − 25 = 75 bytes at 6 → ends at 2 + 12.5 s.
func TestSetCapacity(t *testing.T) {
	for _, solver := range []Solver{Incremental, FullResolve, SimGrid} {
		s := NewSystemOptions([]Link{{Bandwidth: 10, Sharing: Shared}, {Bandwidth: 30, Sharing: Shared}}, Options{Solver: solver})
		s.VaryCapacities()
		f := s.Start(0, FlowSpec{Links: []LinkID{0, 1}, Bytes: 100})
		g := s.Start(0, FlowSpec{Links: []LinkID{1}, Bytes: 1e9})
		if r := settled(s, 0, f, g); !nearRates(r, []float64{10, 20}) {
			t.Errorf("%v: rates %v, want [10 20]", solver, r)
		}
		s.SetCapacity(1, 0, 40)
		if r := settled(s, 1, f, g); !nearRates(r, []float64{15, 15}) {
			t.Errorf("%v: after link 0 → 40: %v, want [15 15]", solver, r)
		}
		s.SetCapacity(2, 1, 12)
		if r := settled(s, 2, f, g); !nearRates(r, []float64{6, 6}) {
			t.Errorf("%v: after link 1 → 12: %v, want [6 6]", solver, r)
		}
		if at, id, ok := s.NextCompletion(); !ok || id != f || math.Abs(at-14.5) > capEps {
			t.Errorf("%v: next completion %v at %v, want flow %v at 14.5", solver, id, at, f)
		}
		if c := s.Capacity(1); c != 12 {
			t.Errorf("%v: capacity %v", solver, c)
		}
		if !s.Used(1) || s.Used(0) != true {
			t.Errorf("%v: links not used", solver)
		}
	}
}

// TestSetCapacityFatPipe: TestSetCapacity with link 0 a FatPipe of 10
// B/s, which caps each of its flows (f, on links 0 and 1, and g) at 10,
// and link 1 Shared, 30 B/s, which h shares with f: f = g = 10, h = 20.
// Link 0 to 40: f and h split link 1, 15/15, g = 40. Link 0 to 6: f = g
// = 6, h = 24, and f (100 bytes: 10 in 0–1 s, 15 in 1–2 s) ends at 2 +
// 75/6 = 14.5 s. Both solvers: emu's re-caps each flow, SimGrid's marks
// the FATPIPE constraint as it marks a Shared one.
func TestSetCapacityFatPipe(t *testing.T) {
	for _, solver := range []Solver{Incremental, FullResolve, SimGrid} {
		s := NewSystemOptions([]Link{{Bandwidth: 10, Sharing: FatPipe}, {Bandwidth: 30, Sharing: Shared}}, Options{Solver: solver})
		s.VaryCapacities()
		f := s.Start(0, FlowSpec{Links: []LinkID{0, 1}, Bytes: 100})
		g := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 1e9})
		h := s.Start(0, FlowSpec{Links: []LinkID{1}, Bytes: 1e9})
		for _, c := range []struct {
			at, capacity float64
			want         []float64
		}{{0, 10, []float64{10, 10, 20}}, {1, 40, []float64{15, 40, 15}}, {2, 6, []float64{6, 6, 24}}} {
			if c.at > 0 {
				s.SetCapacity(c.at, 0, c.capacity)
			}
			if r := settled(s, c.at, f, g, h); !nearRates(r, c.want) {
				t.Errorf("%v: link 0 at %v B/s: rates %v, want %v", solver, c.capacity, r, c.want)
			}
		}
		if at, id, ok := s.NextCompletion(); !ok || id != f || math.Abs(at-14.5) > capEps {
			t.Errorf("%v: next completion %v at %v, want flow %v at 14.5", solver, id, at, f)
		}
		if !s.Used(0) || len(s.FlowsOn(0, nil)) != 2 {
			t.Errorf("%v: link 0 used %v, flows %v", solver, s.Used(0), s.FlowsOn(0, nil))
		}
	}
}

// TestEnabledInLatency is SimGrid 3.32's stall: flow a (100 bytes, link 0
// of 10 B/s, latency 1 s) has its penalty set to 1.5 at 0.5 s, in its
// latency phase, which enables its variable at once: it takes 4 B/s of
// the link from b (6 B/s from 0.5 s). At 1 s its phase ends, but
// SimGrid's latency event finds it enabled and projects no completion; it
// moves no byte until a solve re-projects it: c joins the link at 3 s, a
// gets 2.5 B/s (penalties 1.5, 1, 1) with its 100 bytes and ends at 3 +
// 40 = 43 s (not at 1 + 100/4 = 26 s, as a flow enabled at its phase's
// end would).
func TestEnabledInLatency(t *testing.T) {
	s := NewSystemOptions([]Link{{Bandwidth: 10, Sharing: Shared}}, Options{Solver: SimGrid})
	b := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 1e9})
	a := s.StartLatent(0, &FlowSpec{Links: []LinkID{0}, Bytes: 100}, 1)
	s.Settle(0)
	s.SetWeight(0.5, a, 1.5)
	if r := settled(s, 0.5, b); !nearRates(r, []float64{6}) {
		t.Errorf("b at 0.5 s: %v B/s, want 6 (a enabled at penalty 1.5)", r)
	}
	if ids := s.FlowsOn(0, nil); len(ids) != 2 {
		t.Errorf("FlowsOn: %v, want a and b once each", ids)
	}
	if at, id, ok := s.NextCompletion(); !ok || id != a || at != 1 {
		t.Fatalf("next event %v at %v, want a's latency end at 1 s", id, at)
	}
	s.Activate(1, a)
	s.Settle(1)
	if _, id, ok := s.NextCompletion(); !ok || id != b {
		t.Errorf("next completion %v after a's phase, want b (a stalls)", id)
	}
	c := s.Start(3, FlowSpec{Links: []LinkID{0}, Bytes: 1e9})
	s.Settle(3)
	want := 43.0
	if at, id, ok := s.NextCompletion(); !ok || id != a || math.Abs(at-want) > capEps {
		t.Errorf("next completion %v at %v, want a at %v (c is %v)", id, at, want, c)
	}
}

// TestBoundKept: a flow bounded at 50 B/s on a link of 10 keeps its bound
// when capacities vary (VaryCapacities), so that a rise to 100 leaves it
// at 50; its new bound 70 then binds, and its weight only matters shared:
// weight 3 against a flow of weight 1 on 100 B/s gives 25 and 75.
func TestBoundKept(t *testing.T) {
	for _, solver := range []Solver{Incremental, SimGrid} {
		s := NewSystemOptions([]Link{{Bandwidth: 10, Sharing: Shared}}, Options{Solver: solver})
		s.VaryCapacities()
		f := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 1e9, Bound: 50})
		if r := settled(s, 0, f); !nearRates(r, []float64{10}) {
			t.Errorf("%v: %v, want [10]", solver, r)
		}
		s.SetCapacity(1, 0, 100)
		if r := settled(s, 1, f); !nearRates(r, []float64{50}) {
			t.Errorf("%v: after the rise %v, want [50]", solver, r)
		}
		s.SetBound(2, f, 70)
		if r := settled(s, 2, f); !nearRates(r, []float64{70}) {
			t.Errorf("%v: new bound: %v, want [70]", solver, r)
		}
		s.SetBound(3, f, 0) // none
		g := s.Start(3, FlowSpec{Links: []LinkID{0}, Bytes: 1e9})
		s.SetWeight(3, f, 3)
		if r := settled(s, 3, f, g); !nearRates(r, []float64{25, 75}) {
			t.Errorf("%v: weights 3 and 1: %v, want [25 75]", solver, r)
		}
		if ids := s.FlowsOn(0, nil); len(ids) != 2 {
			t.Errorf("%v: FlowsOn %v", solver, ids)
		}
	}
}

// TestFlowsOnOrder: under the SimGrid solver, the link's enabled flows
// come newest first, then those in their latency phase, oldest first
// (SimGrid's get_variable_safe).
func TestFlowsOnOrder(t *testing.T) {
	s := NewSystemOptions([]Link{{Bandwidth: 10, Sharing: Shared}, {Bandwidth: 10, Sharing: Shared}}, Options{Solver: SimGrid})
	a := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 100})
	b := s.StartLatent(0, &FlowSpec{Links: []LinkID{0}, Bytes: 100}, 1)
	c := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 100})
	d := s.StartLatent(0, &FlowSpec{Links: []LinkID{0, 1}, Bytes: 100}, 2)
	s.Start(0, FlowSpec{Links: []LinkID{1}, Bytes: 100})
	want := []FlowID{c, a, b, d}
	if got := s.FlowsOn(0, nil); len(got) != 4 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("FlowsOn %v, want %v", got, want)
	}
	// a link crossed only by a latent flow is used (constraint_used)
	s2 := NewSystemOptions([]Link{{Bandwidth: 10, Sharing: Shared}}, Options{Solver: SimGrid})
	s2.StartLatent(0, &FlowSpec{Links: []LinkID{0}, Bytes: 100}, 1)
	if !s2.Used(0) {
		t.Error("a latent flow's link is not used")
	}
}

// TestCapacityMisuse: programmer errors panic.
func TestCapacityMisuse(t *testing.T) {
	cases := map[string]func(){
		"fat pipe without VaryCapacities": func() {
			s := NewSystem([]Link{{Bandwidth: 10, Sharing: FatPipe}})
			s.SetCapacity(0, 0, 5)
		},
		"negative": func() { NewSystem([]Link{{Bandwidth: 10}}).SetCapacity(0, 0, -1) },
		"link":     func() { NewSystem([]Link{{Bandwidth: 10}}).SetCapacity(0, 3, 1) },
		"late": func() {
			s := NewSystem([]Link{{Bandwidth: 10}})
			s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 1})
			s.VaryCapacities()
		},
	}
	for name, f := range cases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
