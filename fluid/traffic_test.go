package fluid

import (
	"math"
	"testing"
)

// drain finishes every flow of s in completion order and returns the time
// of the last completion.
func drain(s *System) float64 {
	now := 0.0
	_, sg := s.model.(*lmm)
	for {
		if sg {
			s.Settle(now)
		}
		t, id, ok := s.NextCompletion()
		if !ok {
			return now
		}
		now = t
		if sg && s.Latent(id) {
			s.Activate(now, id)
			continue
		}
		s.Finish(now, id)
	}
}

// TestTraffic checks the per-link bytes and busy times on systems solved by
// hand. Links: 0 and 1 Shared at 10 B/s, 2 Shared at 20 B/s, 3 FatPipe at
// 10 B/s (each flow gets up to 10 B/s on it).
func TestTraffic(t *testing.T) {
	links := []Link{
		{Bandwidth: 10, Sharing: Shared},
		{Bandwidth: 10, Sharing: Shared},
		{Bandwidth: 20, Sharing: Shared},
		{Bandwidth: 10, Sharing: FatPipe},
	}
	type start struct {
		at   float64
		spec FlowSpec
	}
	cases := []struct {
		name  string
		opts  Options
		flows []start
		end   float64 // s
		want  []LinkTraffic
	}{{
		// One flow of 30 B over links 0, 2, 3: 10 B/s (links 0 and 3
		// bind), done at t = 3; each link carries 30 B and is busy 3 s.
		name:  "one flow over three links",
		flows: []start{{0, FlowSpec{Links: []LinkID{0, 2, 3}, Bytes: 30}}},
		end:   3,
		want:  []LinkTraffic{{30, 3}, {0, 0}, {30, 3}, {30, 3}},
	}, {
		// The same under SimGrid's heap, with a latency phase of 1 s and
		// a rate factor of 0.5: 30 B move at 0.5 × 10 B/s from t = 1 to
		// t = 7, occupying 60 B of each link's capacity; busy 6 s.
		name:  "SimGrid heap, latency and rate factor",
		opts:  Options{Solver: SimGrid},
		flows: []start{{0, FlowSpec{Links: []LinkID{0, 2, 3}, Bytes: 30, RateFactor: 0.5}}},
		end:   7,
		want:  []LinkTraffic{{60, 6}, {0, 0}, {60, 6}, {60, 6}},
	}, {
		// Two flows on link 0 (10 B and 30 B, TestLazyProgress): 5 B/s
		// each until t = 2, then f1 alone at 10 B/s until t = 4. Link 0
		// carries 40 B and is busy 4 s; f1 also crosses link 1, which
		// carries its 30 B, and loads link 2 backwards at 0.5 × its rate:
		// 15 B, busy 4 s.
		name: "two flows, one with reverse traffic",
		flows: []start{
			{0, FlowSpec{Links: []LinkID{0}, Bytes: 10}},
			{0, FlowSpec{Links: []LinkID{0, 1}, Bytes: 30, Reverse: []LinkID{2}, ReverseShare: 0.5}},
		},
		end:  4,
		want: []LinkTraffic{{40, 4}, {30, 4}, {15, 4}, {0, 0}},
	}, {
		// Two flows apart in time on link 1: [0, 1] and [3, 4]; busy 2 s,
		// not the 4 s from the first start to the last end.
		name: "idle gap",
		flows: []start{
			{0, FlowSpec{Links: []LinkID{1}, Bytes: 10}},
			{3, FlowSpec{Links: []LinkID{1}, Bytes: 10}},
		},
		end:  4,
		want: []LinkTraffic{{0, 0}, {20, 2}, {0, 0}, {0, 0}},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewSystemOptions(links, c.opts)
			s.RecordTraffic()
			now := 0.0
			for _, f := range c.flows {
				// run to the start time, then start the flow
				for {
					if c.opts.Solver == SimGrid {
						s.Settle(now)
					}
					at, id, ok := s.NextCompletion()
					if !ok || at > f.at {
						break
					}
					now = at
					s.Finish(now, id)
				}
				now = f.at
				if c.opts.Solver == SimGrid {
					s.StartLatent(now, &f.spec, 1)
				} else {
					s.Start(now, f.spec)
				}
			}
			end := drain(s)
			if !near(end, c.end) {
				t.Errorf("last completion at %v s, want %v", end, c.end)
			}
			got := s.Traffic(end)
			for l, w := range c.want {
				if !near(got[l].Bytes, w.Bytes) || !near(got[l].Busy, w.Busy) {
					t.Errorf("link %d: %+v, want %+v", l, got[l], w)
				}
			}
		})
	}
}

// TestTrafficMidFlow: a query while a flow runs counts its stretch so far
// and its busy time up to the query, and changes nothing.
func TestTrafficMidFlow(t *testing.T) {
	s := NewSystem(shared(10))
	s.RecordTraffic()
	s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 30})
	for range 2 {
		if got := s.Traffic(1.5); !near(got[0].Bytes, 15) || !near(got[0].Busy, 1.5) {
			t.Fatalf("at 1.5 s: %+v, want {15 1.5}", got[0])
		}
	}
	if end := drain(s); !near(end, 3) {
		t.Errorf("flow done at %v s, want 3", end)
	}
	if got := s.Traffic(5); !near(got[0].Bytes, 30) || !near(got[0].Busy, 3) {
		t.Errorf("after the flow: %+v, want {30 3}", got[0])
	}
}

// TestTrafficOff: a System that does not record returns nil.
func TestTrafficOff(t *testing.T) {
	s := NewSystem(shared(10))
	s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 30})
	if got := s.Traffic(1); got != nil {
		t.Errorf("Traffic without RecordTraffic = %v, want nil", got)
	}
}

// TestTrafficWholeMessages: a completed flow puts its whole size on its
// links, so a link's bytes are the sum of the messages that crossed it,
// exactly, however often their rates changed (summing rate × dt stretches
// gave 2000.0000000000005 for two 1,000-byte messages); a cancelled flow
// puts what it moved. Link 0 is Shared at 3 B/s, link 1 FatPipe at 7 B/s;
// a 1,000-byte flow on both shares link 0 with small flows that start and
// end beside it, each moving its rate.
func TestTrafficWholeMessages(t *testing.T) {
	links := []Link{{Bandwidth: 3, Sharing: Shared}, {Bandwidth: 7, Sharing: FatPipe}}
	cases := []struct {
		name   string
		opts   Options
		factor float64 // RateFactor (SimGrid)
		small  []float64
		want   [2]float64 // bytes on links 0 and 1: Σ sizes / factor
	}{
		{"max-min, 1,000 B beside 9 small flows", Options{}, 0, []float64{1, 2, 3, 5, 7, 11, 13, 17, 19}, [2]float64{1078, 1000}},
		{"max-min, fractions of a byte", Options{}, 0, []float64{0.25, 0.5, 0.125, 1.75}, [2]float64{1002.625, 1000}},
		{"SimGrid, rate factor 0.5", Options{Solver: SimGrid}, 0.5, []float64{1, 2, 3, 5, 7, 11, 13, 17, 19}, [2]float64{2156, 2000}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewSystemOptions(links, c.opts)
			s.RecordTraffic()
			start := func(now float64, spec FlowSpec) {
				spec.RateFactor = c.factor
				if c.opts.Solver == SimGrid {
					s.StartLatent(now, &spec, 0)
					s.Settle(now)
				} else {
					s.Start(now, spec)
				}
			}
			start(0, FlowSpec{Links: []LinkID{0, 1}, Bytes: 1000})
			now := 0.0
			finishUntil := func(at float64) { // finish what completes by at
				for {
					if c.opts.Solver == SimGrid {
						s.Settle(now)
					}
					t, id, ok := s.NextCompletion()
					if !ok || t > at {
						return
					}
					now = t
					s.Finish(now, id)
				}
			}
			for i, b := range c.small {
				at := 0.3 * float64(i+1)
				finishUntil(at)
				now = at
				start(now, FlowSpec{Links: []LinkID{0}, Bytes: b})
			}
			finishUntil(math.Inf(1))
			got := s.Traffic(now)
			if got[0].Bytes != c.want[0] || got[1].Bytes != c.want[1] {
				t.Errorf("bytes %v and %v, want exactly %v", got[0].Bytes, got[1].Bytes, c.want)
			}
		})
	}
	t.Run("cancelled mid-flow", func(t *testing.T) {
		s := NewSystem(links)
		s.RecordTraffic()
		id := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 30})
		s.Cancel(2, id) // 3 B/s for 2 s
		if got := s.Traffic(5); !near(got[0].Bytes, 6) || !near(got[0].Busy, 2) {
			t.Errorf("cancelled at 2 s: %+v, want {6 2}", got[0])
		}
	})
}

// TestFreeFlow: in a System of Options.FreeFlows (the compute-only bound)
// every flow completes when it starts, at that very time, and its links
// book its whole size, under both solvers and with a latency phase of 0:
// 30 B started at 0 on a 10 B/s link end at 0, not 3, and 116 B started at
// 0.5 over it and a link of 1e30 B/s end at 0.5. Without the option a flow
// of 116 B on links of 1e30 B/s takes 1.16e-28 s, the leftover qa50 found.
func TestFreeFlow(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
	}{{"max-min", Options{}}, {"SimGrid", Options{Solver: SimGrid}}} {
		t.Run(c.name, func(t *testing.T) {
			links := []Link{{Bandwidth: 10, Sharing: Shared}, {Bandwidth: 1e30, Sharing: Shared}}
			freeOpts := c.opts
			freeOpts.FreeFlows = true
			s := NewSystemOptions(links, freeOpts)
			s.RecordTraffic()
			start := func(now float64, spec FlowSpec) FlowID {
				if c.opts.Solver == SimGrid {
					id := s.StartLatent(now, &spec, 0)
					s.Settle(now)
					return id
				}
				return s.Start(now, spec)
			}
			var done []float64
			var ids []FlowID
			finish := func(now float64) {
				for {
					if c.opts.Solver == SimGrid {
						s.Settle(now)
					}
					at, id, ok := s.NextCompletion()
					if !ok {
						return
					}
					s.Finish(at, id)
					done, ids = append(done, at), append(ids, id)
				}
			}
			first := start(0, FlowSpec{Links: []LinkID{0}, Bytes: 30})
			finish(0)
			second := start(0.5, FlowSpec{Links: []LinkID{0, 1}, Bytes: 116})
			finish(0.5)
			if len(ids) != 2 || ids[0] != first || done[0] != 0 || ids[1] != second || done[1] != 0.5 {
				t.Errorf("completions %v at %v; want %v at 0 and %v at 0.5 exactly", ids, done, first, second)
			}
			tr := s.Traffic(0.5)
			if tr[0].Bytes != 146 || tr[1].Bytes != 116 || tr[0].Busy != 0 || tr[1].Busy != 0 {
				t.Errorf("traffic %+v; want 146 B and 116 B booked, neither link ever busy", tr)
			}
			// The same flow, not free, on the fast link alone.
			s2 := NewSystemOptions(links, c.opts)
			start2 := s2.Start
			if c.opts.Solver == SimGrid {
				start2 = func(now float64, spec FlowSpec) FlowID {
					id := s2.StartLatent(now, &spec, 0)
					s2.Settle(now)
					return id
				}
			}
			start2(0, FlowSpec{Links: []LinkID{1}, Bytes: 116})
			if at, _, _ := s2.NextCompletion(); !(at > 0) || math.Abs(at-1.16e-28) > 1e-40 {
				t.Errorf("116 B at 1e30 B/s: %g s, want 1.16e-28", at)
			}
		})
	}
}
