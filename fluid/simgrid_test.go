package fluid

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sgRun drives a System with the SimGrid solver as the engine does: every event due
// within precision of the next date is one instant (latency ends enable
// their flows, completions are recorded in heap order), then the system
// settles. It returns the completed flows in order, with their dates.
func sgRun(s *System, precision float64) (order []FlowID, at []float64) {
	s.Settle(0)
	for {
		t0, _, ok := s.NextCompletion()
		if !ok {
			return order, at
		}
		for {
			t, id, ok := s.NextCompletion()
			if !ok || !(t < t0+precision) {
				break
			}
			if s.Latent(id) {
				s.Activate(t0, id)
				continue
			}
			s.Finish(t0, id)
			order, at = append(order, id), append(at, t)
		}
		s.Settle(t0)
	}
}

// TestSimGridTiesNewestEnabledFirst: rank 0 of a binomial broadcast sends
// four equal eager messages, to ranks 8, 4, 2 and 1 in that order, at one
// instant. SMPI 3.32 completes them at one date and wakes the receivers
// 1, 2, 4, 8 (measured with Debian's SimGrid 3.32): SimGrid's lmm puts a
// variable at the front of its links' element lists when its latency ends,
// the solve re-stamps the actions of the modified links front to back, and
// the stable action heap pops equal dates in stamp order.
func TestSimGridTiesNewestEnabledFirst(t *testing.T) {
	// link 0: the sender's up link; 1..4: the receivers' down links
	s := NewSystemOptions(shared(1e10, 1e10, 1e10, 1e10, 1e10), Options{Solver: SimGrid})
	var ids []FlowID
	for _, down := range []LinkID{4, 3, 2, 1} { // to ranks 8, 4, 2, 1
		ids = append(ids, s.StartLatent(0, &FlowSpec{Links: []LinkID{0, down}, Bytes: 8, Weight: 2e-6}, 2e-6))
	}
	order, at := sgRun(s, 1e-9)
	want := []FlowID{ids[3], ids[2], ids[1], ids[0]}
	if !slices.Equal(order, want) {
		t.Errorf("completion order %v, want %v (the last enabled first)", order, want)
	}
	for i := range at {
		if at[i] != at[0] {
			t.Errorf("flow %v ends at %v, flow %v at %v: one date expected", order[i], at[i], order[0], at[0])
		}
	}
	// four flows share the up link: 2.5e9 B/s each, 8 bytes after 2 µs
	if !near(at[0], 2e-6+8/2.5e9) {
		t.Errorf("date %v, want %v", at[0], 2e-6+8/2.5e9)
	}
}

// TestSimGridRestampOnTouch: X (link 0) and Y (link 1) are enabled at one
// instant, X first, and end at one date, so X would complete first. A
// message started on X's link while both run marks that link modified:
// the next solve re-stamps X (though its rate does not change), and Y now
// completes first. Powers of two keep every date exact.
func TestSimGridRestampOnTouch(t *testing.T) {
	const lat = 1.0 / 1024
	for _, touch := range []bool{false, true} {
		s := NewSystemOptions(shared(1024, 1024, 1024), Options{Solver: SimGrid})
		x := s.StartLatent(0, &FlowSpec{Links: []LinkID{0}, Bytes: 1024}, lat)
		y := s.StartLatent(0, &FlowSpec{Links: []LinkID{1}, Bytes: 1024}, lat)
		s.Settle(0)
		for range 2 { // both latency phases end at lat
			at, id, _ := s.NextCompletion()
			s.Activate(at, id)
		}
		s.Settle(lat)
		if touch { // half-way: a message to link 2 over link 0, still in its latency phase at the end
			s.StartLatent(0.5+lat, &FlowSpec{Links: []LinkID{0, 2}, Bytes: 1}, 1)
			s.Settle(0.5 + lat)
		}
		at, first, _ := s.NextCompletion()
		if at != 1+lat {
			t.Fatalf("touch %v: first completion at %v, want %v", touch, at, 1+lat)
		}
		want := map[bool]FlowID{false: x, true: y}[touch]
		if first != want {
			t.Errorf("touch %v: %v completes first, want %v", touch, first, want)
		}
	}
}

// TestSimGridEmptyLinkKeepsItsPlace: a message X still in its latency
// phase marks its links modified, empty as they are. At one instant, in
// this order, X starts over links A and B, Y's latency phase ends on C
// and D, Z starts without latency over B and E, and W over A and F:
// lmm::System::solve takes the modified links in the order they were
// marked, A, B, C, D, E, F, so it re-stamps W (on A), then Z (on B), then
// Y (on C); alone on their links at 1024 B/s with 1024 bytes each, they
// complete at one date in that order. Without X, A and B are marked
// after C and D, by Z and W, and the order is Y, Z, W. (lmm keeps an
// empty link out of its modified list until a flow is enabled on it,
// markLazy: here it must put A and B back in their first places, in the
// order they were marked.) Powers of two keep every date exact.
func TestSimGridEmptyLinkKeepsItsPlace(t *testing.T) {
	const lat = 1.0 / 1024
	const A, B, C, D, E, F = 0, 1, 2, 3, 4, 5
	for _, withX := range []bool{false, true} {
		s := NewSystemOptions(shared(1024, 1024, 1024, 1024, 1024, 1024), Options{Solver: SimGrid})
		y := s.StartLatent(0, &FlowSpec{Links: []LinkID{C, D}, Bytes: 1024}, lat)
		s.Settle(0)
		if at, id, _ := s.NextCompletion(); at != lat || id != y {
			t.Fatalf("withX %v: first event %v at %v, want Y's latency end at %v", withX, id, at, lat)
		}
		if withX {
			s.StartLatent(lat, &FlowSpec{Links: []LinkID{A, B}, Bytes: 1}, 2)
		}
		s.Activate(lat, y)
		z := s.Start(lat, FlowSpec{Links: []LinkID{B, E}, Bytes: 1024})
		w := s.Start(lat, FlowSpec{Links: []LinkID{A, F}, Bytes: 1024})
		s.Settle(lat)
		var order []FlowID
		for range 3 {
			at, id, _ := s.NextCompletion()
			if at != 1+lat {
				t.Fatalf("withX %v: completion of %v at %v, want %v", withX, id, at, 1+lat)
			}
			s.Finish(at, id)
			order = append(order, id)
		}
		if want := map[bool][]FlowID{false: {y, z, w}, true: {w, z, y}}[withX]; !slices.Equal(order, want) {
			t.Errorf("withX %v: completion order %v, want %v (Y %v, Z %v, W %v)", withX, order, want, y, z, w)
		}
	}
}

// TestSimGridFreedLinksStayMarked: F, alone on links P and Q (in either
// order: the free marks its first link and walks to the other), ends at
// t1, and g's latency phase on Q and K ends at t1 too, while H runs on K
// and L. When F's variable is freed before g is enabled (a message
// started in between frees it), the free marks P and Q modified; g's
// enabling then marks its first link, Q, which is marked already, so the
// walk that would reach K (and H) does not run, the solve sees only Q
// and g gets Q's whole 1024 B/s beside H's 1024 on K, as SimGrid's
// lazy update gives. Freed after g is enabled, F's free comes at the
// settle, after g's walk marked K and L: g and H share K at 512 B/s.
// (lmm marks a lone flow's freed links lazily, markFreed: this is what
// their mark still does.) Powers of two keep every rate exact.
func TestSimGridFreedLinksStayMarked(t *testing.T) {
	const lat = 1.0 / 1024
	const P, Q, K, L, S, T = 0, 1, 2, 3, 4, 5
	for i := range 4 {
		freedFirst, fLinks := i%2 == 1, [][]LinkID{{P, Q}, {Q, P}}[i/2]
		s := NewSystemOptions(shared(1024, 1024, 1024, 1024, 1024, 1024), Options{Solver: SimGrid})
		f := s.StartLatent(0, &FlowSpec{Links: fLinks, Bytes: 1024}, lat)
		h := s.StartLatent(0, &FlowSpec{Links: []LinkID{K, L}, Bytes: 4096}, lat)
		s.Settle(0)
		for range 2 {
			at, id, _ := s.NextCompletion()
			s.Activate(at, id)
		}
		s.Settle(lat)
		g := s.StartLatent(1, &FlowSpec{Links: []LinkID{Q, K}, Bytes: 1024}, lat)
		s.Settle(1)
		t1 := 1 + lat
		if at, _, _ := s.NextCompletion(); at != t1 {
			t.Fatalf("F on %v, freedFirst %v: next event at %v, want %v", fLinks, freedFirst, at, t1)
		}
		s.Finish(t1, f)
		if freedFirst {
			s.StartLatent(t1, &FlowSpec{Links: []LinkID{S, T}, Bytes: 1}, 1) // frees F's variable
		}
		s.Activate(t1, g)
		s.Settle(t1)
		want := map[bool][2]float64{false: {512, 512}, true: {1024, 1024}}[freedFirst]
		if got := [2]float64{s.Rate(g), s.Rate(h)}; got != want {
			t.Errorf("F on %v, freedFirst %v: rates of g and H %v, want %v", fLinks, freedFirst, got, want)
		}
	}
}

// TestSimGridSolveMatchesMaxMin: SimGrid's solve (with its precision
// cut-offs) gives the rates of the exact max-min solver on random systems,
// to far better than its 1e-5 precision.
func TestSimGridSolveMatchesMaxMin(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		nl := 2 + rng.IntN(8)
		bw := make([]float64, nl)
		for i := range bw {
			bw[i] = 1e9 * (1 + 9*rng.Float64())
		}
		ref := NewSystem(shared(bw...))
		sg := NewSystemOptions(shared(bw...), Options{Solver: SimGrid})
		var specs []FlowSpec
		for range 1 + rng.IntN(12) {
			links := rng.Perm(nl)[:1+rng.IntN(min(nl, 4))]
			spec := FlowSpec{Bytes: 1e6, Weight: 1 + rng.Float64()}
			for _, l := range links {
				spec.Links = append(spec.Links, LinkID(l))
			}
			if rng.IntN(4) == 0 {
				spec.Bound = 1e8 * (1 + 20*rng.Float64())
			}
			specs = append(specs, spec)
		}
		refIDs := ref.StartAll(0, specs, nil)
		var sgIDs []FlowID
		for _, spec := range specs {
			sgIDs = append(sgIDs, sg.StartLatent(0, &spec, 0))
		}
		sg.Settle(0)
		for i := range specs {
			a, b := ref.Rate(refIDs[i]), sg.Rate(sgIDs[i])
			if math.Abs(a-b) > 1e-9*a {
				t.Fatalf("trial %d flow %d: SimGrid solve %v, max-min %v", trial, i, b, a)
			}
		}
	}
}

// TestSimGridRateFactor: SMPI's bandwidth factor is SimGrid's rate factor:
// the flow occupies its link at its max-min rate and moves factor × that
// many bytes per second. Two flows of factor 1/2 on a 1024 B/s link each get
// 512 B/s of link and move 256 B/s: 256 bytes take 1 s.
func TestSimGridRateFactor(t *testing.T) {
	s := NewSystemOptions(shared(1024), Options{Solver: SimGrid})
	for range 2 {
		s.StartLatent(0, &FlowSpec{Links: []LinkID{0}, Bytes: 256, RateFactor: 0.5}, 0)
	}
	_, at := sgRun(s, 1e-9)
	if len(at) != 2 || at[0] != 1 || at[1] != 1 {
		t.Errorf("completions at %v, want both at 1 s", at)
	}
}

// TestSimGridLatentWithoutLinks: a message whose route loads no shared link
// — a loopback of fat pipes, or no link at all — runs at its bound once its
// latency ends (the fat pipe's 1 GB/s: 1 ms for 1 MB), or is done then; it
// must not wait for a rate forever.
func TestSimGridLatentWithoutLinks(t *testing.T) {
	for _, tc := range []struct {
		links []LinkID
		want  float64
	}{{[]LinkID{0}, 1e-6 + 1e6/1e9}, {nil, 1e-6}} {
		s := NewSystemOptions([]Link{{Bandwidth: 1e9, Sharing: FatPipe}}, Options{Solver: SimGrid})
		id := s.StartLatent(0, &FlowSpec{Links: tc.links, Bytes: 1e6}, 1e-6)
		order, at := sgRun(s, 1e-9)
		if len(order) != 1 || order[0] != id || at[0] != tc.want {
			t.Errorf("links %v: completions %v at %v, want flow %v at %v", tc.links, order, at, id, tc.want)
		}
	}
}

// TestSimGridElementsMatchFlows: each link's enabled_element_set entries
// (sgElem) carry what the solve reads instead of the flow's elems: the
// flow's slot, the index of its element on that link, and coefficient /
// weight to the bit, and the flow's sgVar the XOR of its links (markRec's
// pair); and a flow is in the link's active_element_set
// exactly when its element's bit is set. Checked after every call of
// random traffic with reverse routes (links repeated in both, so merged),
// weights, latencies and completions, in the engine's order (sgRun).
func TestSimGridElementsMatchFlows(t *testing.T) {
	for _, tc := range []struct {
		name  string
		seed  uint64
		links int
	}{{"two links", 1, 2}, {"eight links", 2, 8}, {"twenty links", 3, 20}} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tc.seed, 7))
			bw := make([]float64, tc.links)
			for i := range bw {
				bw[i] = 1e9 * (1 + rng.Float64())
			}
			s := NewSystemOptions(shared(bw...), Options{Solver: SimGrid})
			now := 0.0
			for round := range 60 {
				for range 1 + rng.IntN(4) {
					spec := FlowSpec{Bytes: 1e4 * (1 + rng.Float64()), Weight: rng.Float64(), ReverseShare: 0.05}
					for _, l := range rng.Perm(tc.links)[:1+rng.IntN(min(tc.links, 3))] {
						spec.Links = append(spec.Links, LinkID(l))
					}
					for _, l := range rng.Perm(tc.links)[:rng.IntN(min(tc.links, 3))] {
						spec.Reverse = append(spec.Reverse, LinkID(l))
					}
					s.StartLatent(now, &spec, 1e-6*float64(rng.IntN(3)))
					checkElems(t, s, round)
				}
				s.Settle(now)
				checkElems(t, s, round)
				// Complete the next instant's events, as sgRun does.
				t0, _, ok := s.NextCompletion()
				if !ok {
					continue
				}
				for {
					tt, id, ok := s.NextCompletion()
					if !ok || !(tt < t0+1e-9) {
						break
					}
					if s.Latent(id) {
						s.Activate(t0, id)
					} else {
						s.Finish(t0, id)
					}
					checkElems(t, s, round)
				}
				s.Settle(t0)
				checkElems(t, s, round)
				now = t0
			}
		})
	}
}

// checkElems checks every link's enabled and active sets against the
// flows they name (TestSimGridElementsMatchFlows). Outside a solve the
// active sets are empty: a solve makes a flow active on its links in its
// first pass, and fixes every flow it made active before it ends, which
// takes the flow out of them.
func checkElems(t *testing.T, s *System, round int) {
	t.Helper()
	m := s.model.(*lmm)
	for l := range m.cn {
		cn := &m.cn[l]
		if len(cn.active) > 0 {
			t.Fatalf("round %d link %d: %d flows left in the active set after a solve", round, l, len(cn.active))
		}
		for _, el := range cn.enabled {
			f := el.f
			if el.slot != f.slot || int(el.idx) >= len(f.elems) || f.elems[el.idx].link != LinkID(l) {
				t.Fatalf("round %d link %d: element of flow %d names slot %d, index %d (flow's slot %d, elems %v)", round, l, f.id, el.slot, el.idx, f.slot, f.elems)
			}
			pair := LinkID(-1) // markRec's: the XOR of two links, 0 for one
			switch len(f.elems) {
			case 1:
				pair = 0
			case 2:
				pair = f.elems[0].link ^ f.elems[1].link
			}
			if got := m.vars[el.slot].pair; got != pair {
				t.Fatalf("round %d link %d flow %d: pair %d, want %d (elems %v)", round, l, f.id, got, pair, f.elems)
			}
			if want := f.elems[el.idx].coef / f.weight; el.share != want {
				t.Fatalf("round %d link %d flow %d: share %v, coefficient/weight %v", round, l, f.id, el.share, want)
			}
			if on := m.vars[el.slot].activeOn(el.idx); on != slices.Contains(cn.active, f) {
				t.Fatalf("round %d link %d flow %d: active bit %v, in the active set %v", round, l, f.id, on, !on)
			}
		}
	}
}

// TestSettledMeansNothingToSettle drives random latent flows over three
// links in SimGrid's way (sgRun's instants) and checks Settled, which the
// engine asks before each Settle: every start, latency end and finish
// leaves the System unsettled, a Settle settles it, and a Settle of a
// settled System changes no flow (rate, remaining bytes, finish, tie)
// and no heap entry.
func TestSettledMeansNothingToSettle(t *testing.T) {
	if !NewSystem(shared(1e3)).Settled() {
		t.Fatal("emu's solver: a System is always settled")
	}
	type state struct {
		rate, remaining, finish float64
		tie                     uint64
	}
	snapshot := func(s *System) (fl []state, heap []string) {
		for _, f := range s.bySlot {
			fl = append(fl, state{f.rate, f.remaining, f.finish, f.tie})
		}
		for _, e := range s.done.Entries() {
			heap = append(heap, fmt.Sprint(e))
		}
		return fl, heap
	}
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 3))
		s := NewSystemOptions(shared(1e3, 2e3, 5e2), Options{Solver: SimGrid})
		now, started := 0.0, 0
		settle := func(where string) {
			t.Helper()
			if s.Settled() {
				f0, h0 := snapshot(s)
				s.Settle(now)
				if f1, h1 := snapshot(s); !slices.Equal(f0, f1) || !slices.Equal(h0, h1) {
					t.Fatalf("seed %d, %s at %v: Settled, but Settle changed the flows or the heap", seed, where, now)
				}
				return
			}
			s.Settle(now)
			if !s.Settled() {
				t.Fatalf("seed %d, %s at %v: not Settled after a Settle", seed, where, now)
			}
		}
		for step := 0; step < 300; step++ {
			settle("before the step")
			if started < 60 && rng.IntN(3) == 0 {
				links := []LinkID{LinkID(rng.IntN(3))}
				if rng.IntN(2) == 0 {
					links = append(links, LinkID(rng.IntN(3)))
				}
				s.StartLatent(now, &FlowSpec{Links: links, Bytes: float64(1 + rng.IntN(3000))}, float64(rng.IntN(3))*1e-3)
				started++
				if s.Settled() {
					t.Fatalf("seed %d: Settled after a start at %v", seed, now)
				}
				continue
			}
			at, id, ok := s.NextCompletion()
			if !ok {
				if started >= 60 {
					break
				}
				continue
			}
			now = at
			if s.Latent(id) {
				s.Activate(now, id)
			} else {
				s.Finish(now, id)
			}
			if s.Settled() {
				t.Fatalf("seed %d: Settled after flow %d's date %v", seed, id, now)
			}
		}
	}
}

// TestSimGridFatPipeSaturation: two flows of 1 GB on one FatPipe link of
// 1 GB/s, of penalties 1 and 4 (SMPI's penalty grows with a route's
// latency), each on a Shared link of its own too, as the routes of two
// hosts of a zone through a host's FATPIPE link. SimGrid 3.32's
// maxmin_solve takes the fat pipe's usage as the largest share, 1/1, so it
// saturates at min_usage = 1e9 × 1, and fixes every flow on it at
// min_usage / penalty: the first at 1 GB/s (done at 1 s), the second at
// 0.25 GB/s until then and alone at 1 GB/s after (7.5e8 bytes left: done
// at 1.75 s), the mechanism behind smpirun 3.32's times on FATPIPE links of
// zones (validation's TestSMPIFuzzAgainstSMPI).
// emu's own max-min caps each flow at the pipe's capacity (fluid's doc:
// both done at 1 s).
func TestSimGridFatPipeSaturation(t *testing.T) {
	links := []Link{{Bandwidth: 1e9, Sharing: FatPipe}, {Bandwidth: 1e12, Sharing: Shared}, {Bandwidth: 1e12, Sharing: Shared}}
	for _, tc := range []struct {
		solver Solver
		want   []float64
	}{{SimGrid, []float64{1, 1.75}}, {Incremental, []float64{1, 1}}} {
		s := NewSystemOptions(links, Options{Solver: tc.solver})
		s.Start(0, FlowSpec{Links: []LinkID{0, 1}, Bytes: 1e9, Weight: 1})
		s.Start(0, FlowSpec{Links: []LinkID{0, 2}, Bytes: 1e9, Weight: 4})
		_, at := sgRun(s, 1e-12)
		if len(at) != 2 || math.Abs(at[0]-tc.want[0]) > 1e-12 || math.Abs(at[1]-tc.want[1]) > 1e-12 {
			t.Errorf("solver %v: completions at %v, want %v", tc.solver, at, tc.want)
		}
	}
}
