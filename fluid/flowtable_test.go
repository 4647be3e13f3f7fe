package fluid

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFlowTable checks the paged id → flow table against a map, across page
// boundaries, with pages emptied (and reused) while later ids live on.
func TestFlowTable(t *testing.T) {
	var tab flowTable
	ref := map[FlowID]*flow{}
	const n = 3*flowPageSize + 17
	for id := FlowID(0); id < n; id++ {
		f := &flow{id: id}
		tab.put(f)
		ref[id] = f
		// Drop most older flows as we go, keeping every 500th alive, so some
		// pages empty out and others stay pinned by one flow.
		if old := id - 100; old >= 0 && old%500 != 0 {
			tab.del(old)
			delete(ref, old)
		}
	}
	if tab.n != len(ref) {
		t.Fatalf("table holds %d flows, map %d", tab.n, len(ref))
	}
	for id := FlowID(-1); id < n+flowPageSize; id++ {
		if got, want := tab.get(id), ref[id]; got != want {
			t.Fatalf("get(%d) = %p, want %p", id, got, want)
		}
	}
	// Page 1 holds ids 1024..2047, of which 1500 stays alive; pages with no
	// live flow must have been given back.
	for p, pg := range tab.pages {
		if pg != nil && pg.live == 0 {
			t.Errorf("page %d is empty but still held", p)
		}
	}
}

// TestFlowTableDropsLeadingPages: with a sliding window of running flows
// (each id ends 3,000 ids after it started), the directory follows the
// window instead of growing with every id started; ids before it are
// unknown, ids in it found.
func TestFlowTableDropsLeadingPages(t *testing.T) {
	var tab flowTable
	const n, window = 200 * flowPageSize, 3000
	flows := map[FlowID]*flow{}
	for id := FlowID(0); id < n; id++ {
		flows[id] = &flow{id: id}
		tab.put(flows[id])
		if old := id - window; old >= 0 {
			tab.del(old)
			delete(flows, old)
		}
		if span := window/flowPageSize + 2; len(tab.pages) > 2*span {
			t.Fatalf("after id %d: %d directory entries for a window of %d ids", id, len(tab.pages), window)
		}
	}
	for id := FlowID(0); id < n; id++ {
		if got := tab.get(id); got != flows[id] {
			t.Fatalf("get(%d) = %p, want %p", id, got, flows[id])
		}
	}
}

// TestFinishedFlowIsForgotten: a finished flow's struct is reused by the
// next start, but its id stays unknown (asking for it is misuse: panic).
func TestFinishedFlowIsForgotten(t *testing.T) {
	s := NewSystem([]Link{{Name: "l", Bandwidth: 100}})
	a := s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 100})
	s.Finish(1, a)
	b := s.Start(1, FlowSpec{Links: []LinkID{0}, Bytes: 50})
	if s.Rate(b) != 100 || s.Active() != 1 {
		t.Fatalf("after reuse: rate %v, active %d; want 100, 1", s.Rate(b), s.Active())
	}
	defer func() {
		if recover() == nil {
			t.Error("Rate of a finished flow did not panic")
		}
	}()
	s.Rate(a)
}

// TestFlowIDsPast2To31: a whole Stampede run starts 3.2e9 flows; ids past
// 2^31 and 2^32 must still name their flows and order equal finish times
// by start (the heap's tie holds 32 bits: System.retie renumbers).
func TestFlowIDsPast2To31(t *testing.T) {
	for _, first := range []FlowID{1<<31 - 2, 1<<32 - 2} {
		s := NewSystem([]Link{{Name: "l", Bandwidth: 100}})
		s.nextID, s.nextTie = first, uint64(first)
		var ids []FlowID
		for range 4 { // four equal flows: 25 bytes/s each, all due at t = 2
			ids = append(ids, s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 50}))
		}
		if ids[3] != first+3 {
			t.Fatalf("ids %v, want %v .. %v", ids, first, first+3)
		}
		if s.Rate(ids[3]) != 25 {
			t.Fatalf("flow %v at %v bytes/s, want 25", ids[3], s.Rate(ids[3]))
		}
		for _, want := range ids { // equal finish times: in start order
			at, id, ok := s.NextCompletion()
			if !ok || id != want || at != 2 {
				t.Fatalf("first id %v: next completion %v at %v (ok %v), want %v at 2", first, id, at, ok, want)
			}
			s.Finish(2, id)
		}
	}
}

// TestRetieKeepsOrder: renumbering the running flows' ties (retie, every
// few flows here instead of every 2^32) changes no completion and no
// completion order, for emu's solver and for lmm's heap stamps, on
// traffic where many flows finish at the same date (powers of two).
func TestRetieKeepsOrder(t *testing.T) {
	type done struct {
		id FlowID
		at float64
	}
	run := func(opts Options, seed uint64) []done {
		rng := rand.New(rand.NewPCG(seed, 1))
		s := NewSystemOptions(shared(1024, 1024, 1024, 1024), opts)
		var specs []FlowSpec
		var starts []float64
		for range 60 {
			spec := FlowSpec{Bytes: float64(int(256) << rng.IntN(3))}
			for range 1 + rng.IntN(2) {
				spec.Links = append(spec.Links, LinkID(rng.IntN(4)))
			}
			specs, starts = append(specs, spec), append(starts, float64(rng.IntN(8))/4)
		}
		var out []done
		if opts.Solver == SimGrid {
			for i, spec := range specs {
				s.StartLatent(0, &spec, starts[i])
			}
			order, at := sgRun(s, 1e-9)
			for i := range order {
				out = append(out, done{order[i], at[i]})
			}
			return out
		}
		started := make([]bool, len(specs)) // specs start in waves, by start time
		for {
			tc, id, ok := s.NextCompletion()
			wave := math.Inf(1)
			for i, st := range starts {
				if !started[i] {
					wave = min(wave, st)
				}
			}
			if ok && tc <= wave {
				s.Finish(tc, id)
				out = append(out, done{id, tc})
				continue
			}
			if math.IsInf(wave, 1) {
				return out
			}
			var batch []FlowSpec
			for i := range specs {
				if !started[i] && starts[i] == wave {
					batch, started[i] = append(batch, specs[i]), true
				}
			}
			s.StartAll(wave, batch, nil)
		}
	}
	for _, opts := range []Options{{Solver: SimGrid}, {}} {
		for seed := range uint64(20) {
			want := run(opts, seed)
			restore := setTieLimit(3)
			got := run(opts, seed)
			restore()
			if !slices.Equal(got, want) {
				t.Fatalf("%+v seed %d: completions with ties renumbered\n%v\nwant\n%v", opts, seed, got, want)
			}
		}
	}
}

func setTieLimit(n uint64) (restore func()) {
	old := tieLimit
	tieLimit = n
	return func() { tieLimit = old }
}
