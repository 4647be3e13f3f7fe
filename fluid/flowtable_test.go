package fluid

import "testing"

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
// 2^31 must still name their flows and order equal finish times by start,
// and the 2^32nd flow (the heap's tie holds 32 bits) must stop the run.
func TestFlowIDsPast2To31(t *testing.T) {
	s := NewSystem([]Link{{Name: "l", Bandwidth: 100}})
	s.nextID = 1<<31 - 2
	var ids []FlowID
	for range 4 { // four equal flows: 25 bytes/s each, all due at t = 2
		ids = append(ids, s.Start(0, FlowSpec{Links: []LinkID{0}, Bytes: 50}))
	}
	if ids[3] != 1<<31+1 {
		t.Fatalf("ids %v, want 2^31-2 .. 2^31+1", ids)
	}
	if s.Rate(ids[3]) != 25 {
		t.Fatalf("flow %v at %v bytes/s, want 25", ids[3], s.Rate(ids[3]))
	}
	for _, want := range ids { // equal finish times: in start order
		at, id, ok := s.NextCompletion()
		if !ok || id != want || at != 2 {
			t.Fatalf("next completion %v at %v (ok %v), want %v at 2", id, at, ok, want)
		}
		s.Finish(2, id)
	}
	s.nextID = maxTie + 1
	defer func() {
		if recover() == nil {
			t.Error("the 2^32nd flow started")
		}
	}()
	s.Start(2, FlowSpec{Links: []LinkID{0}, Bytes: 1})
}
