package ranks

import (
	"fmt"
	"reflect"
	"testing"
)

// TestHookEvents: one detached and one rendezvous message plus a compute
// burst; the hook sees every event in simulation order, with matching
// MsgIDs on both sides and RecvDone's Latency and Transfer equal to the
// closed forms fl·L and fl·L + s'/(fb·B) of an idle path (SMPI model),
// and the route's cables per link class.
func TestHookEvents(t *testing.T) {
	const bw, lat = 1e9, 1e-6
	cfg := preset(t, "smpi")
	w, err := NewWorld(cfg, newCrossbar(2, bw, lat), identity(2), 1)
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	w.AddHook(func(e *Event) { evs = append(evs, *e) })
	err = w.Run(func(r *Rank) {
		c := r.World()
		if r.ID() == 0 {
			r.Compute(1e-3, "dgemm")
			c.Send(1, 1, Msg{Bytes: 100})
			c.Send(1, 2, Msg{Bytes: 100000})
			return
		}
		c.Recv(0, 1)
		c.Recv(0, 2)
	})
	if err != nil {
		t.Fatal(err)
	}
	var kinds, calls []string
	var all []Event
	for _, e := range evs {
		if e.Kind == CallStart || e.Kind == CallEnd {
			calls = append(calls, fmt.Sprintf("%v/%d/%s@%g", e.Kind, e.Rank, e.Kernel, e.Time))
			continue
		}
		kinds = append(kinds, fmt.Sprintf("%v/%d", e.Kind, e.Rank))
		all = append(all, e)
	}
	// Each MPI call is bracketed, from its entry to its return.
	wantCalls := fmt.Sprint([]string{"CallStart/1/MPI_Recv@0", "CallStart/0/MPI_Send@0.001", "CallEnd/0/MPI_Send@0.001",
		"CallStart/0/MPI_Send@0.001", fmt.Sprintf("CallEnd/1/MPI_Recv@%g", all[7].Time), fmt.Sprintf("CallStart/1/MPI_Recv@%g", all[7].Time),
		fmt.Sprintf("CallEnd/0/MPI_Send@%g", all[11].Time), fmt.Sprintf("CallEnd/1/MPI_Recv@%g", all[10].Time)})
	if fmt.Sprint(calls) != wantCalls {
		t.Errorf("calls %v\nwant  %v", calls, wantCalls)
	}
	evs = all
	want := "[ComputeStart/0 RecvPost/1 ComputeEnd/0 SendPost/0 SendDone/0 Match/1 SendPost/0 RecvDone/1 RecvPost/1 Match/1 RecvDone/1 SendDone/0 Finished/0 Finished/1]"
	if fmt.Sprint(kinds) != want {
		t.Fatalf("events %v\nwant   %v", kinds, want)
	}
	// Each rank finishes when its last operation does: rank 0 with its
	// rendezvous send, rank 1 with its second receive.
	if n := len(evs); evs[n-2].Time != evs[n-3].Time || evs[n-1].Time != evs[n-4].Time {
		t.Errorf("finish times %g %g, last operations end at %g (send) and %g (receive)", evs[n-2].Time, evs[n-1].Time, evs[n-3].Time, evs[n-4].Time)
	}
	if evs[0].Kernel != "dgemm" || evs[2].Seconds != 1e-3 || evs[2].Time != 1e-3 {
		t.Errorf("compute events %+v %+v", evs[0], evs[2])
	}
	for _, e := range evs {
		if e.Kind == RecvDone {
			wire := e.Bytes + 16
			fl, fb := cfg.LatFactor.Value(wire, 1), cfg.BwFactor.Value(wire, 1)
			if e.Hops != 1 || !near(e.Latency, fl*2*lat) || !near(e.Transfer, fl*2*lat+float64(wire)/(fb*bw)) {
				t.Errorf("RecvDone %+v: want hops 1, latency %g, transfer %g", e, fl*2*lat, fl*2*lat+float64(wire)/(fb*bw))
			}
			// The route's cables per class (one unnamed class here) reach the
			// graph recorder with the event: hops+1 of them, 2·lat in all.
			if len(e.Classes) != 1 || e.Classes[0].Links != e.Hops+1 || !near(e.Classes[0].Latency, 2*lat) {
				t.Errorf("RecvDone classes %+v, want one class of %d links and %g s", e.Classes, e.Hops+1, 2*lat)
			}
		}
	}
	// Rank 0 runs first (rank order at t=0), so its compute starts before
	// rank 1 posts; the large send is posted before its receive and matched
	// once rank 1 has the small message.
	// Each message's MsgID appears on SendPost, Match, RecvDone and SendDone.
	ids := map[uint64]int{}
	for _, e := range evs {
		if e.MsgID != 0 {
			ids[e.MsgID]++
		}
	}
	if len(ids) != 2 || ids[1] != 4 || ids[2] != 4 {
		t.Errorf("MsgID counts %v, want two messages with 4 events each", ids)
	}
	// RecvID ties each receive's post to its match and completion.
	if r := evs[1].RecvID; r == 0 || evs[5].RecvID != r || evs[7].RecvID != r {
		t.Errorf("RecvIDs of the first receive: post %d, match %d, done %d", r, evs[5].RecvID, evs[7].RecvID)
	}
	if r := evs[8].RecvID; r == evs[1].RecvID || evs[9].RecvID != r || evs[10].RecvID != r {
		t.Errorf("RecvIDs of the second receive: post %d, match %d, done %d", r, evs[9].RecvID, evs[10].RecvID)
	}
	if !evs[9].Rendezvous || evs[5].Rendezvous {
		t.Errorf("rendezvous flags: detached %v, large %v", evs[5].Rendezvous, evs[9].Rendezvous)
	}
}

// TestNoHookNoAllocation: with no hook, emitting costs nothing — a
// detached Isend to a posted receive allocates only its two requests.
func TestNoHookNoAllocation(t *testing.T) {
	cfg := preset(t, "cm02")
	cfg.IprobeCost = 0
	w, _ := NewWorld(cfg, newCrossbar(2, 1e9, 1e-6), identity(2), 1)
	var allocs float64
	err := w.Run(func(r *Rank) {
		if r.ID() != 0 {
			return
		}
		c := r.World()
		allocs = testing.AllocsPerRun(100, func() { c.Iprobe(1, 0) })
	})
	if err != nil {
		t.Fatal(err)
	}
	if allocs != 0 {
		t.Errorf("a free Iprobe allocates %v times", allocs)
	}
}

// TestListenersHearTheirKinds: a listener of some kinds gets exactly the
// events of those kinds that a hook of every kind gets from the same run —
// the same fields, RecvIDs and route classes included — and two listeners
// of one World each get their own kinds.
func TestListenersHearTheirKinds(t *testing.T) {
	run := func(listen func(w *World)) float64 {
		w, err := NewWorld(preset(t, "smpi"), newCrossbar(4, 1e9, 1e-6), identity(4), 1)
		if err != nil {
			t.Fatal(err)
		}
		listen(w)
		err = w.Run(func(r *Rank) {
			c := r.World()
			next, prev := (r.ID()+1)%4, (r.ID()+3)%4
			r.Compute(1e-4*float64(r.ID()+1), "dgemm")
			any := c.Irecv(AnySource, 7)
			c.Send(next, 7, Msg{Bytes: 100})
			any.Wait()
			big := c.Irecv(prev, 8)
			c.Send(next, 8, Msg{Bytes: 200000})
			big.Wait()
			c.Barrier()
		})
		if err != nil {
			t.Fatal(err)
		}
		return w.Engine().Now()
	}
	var all []Event
	end := run(func(w *World) { w.AddHook(func(e *Event) { all = append(all, *e) }) })
	only := func(kinds KindSet) []Event {
		var out []Event
		for _, e := range all {
			if kinds.Has(e.Kind) {
				out = append(out, e)
			}
		}
		return out
	}
	sets := []KindSet{KindsOf(SendPost), KindsOf(Match), KindsOf(RecvDone), KindsOf(SendDone, ComputeEnd),
		KindsOf(CallStart, CallEnd), KindsOf(Stack, Finished), KindsOf(RecvPost, ComputeStart)}
	for _, kinds := range sets {
		var got, other []Event
		otherKinds := AllKinds &^ kinds
		e := run(func(w *World) {
			w.AddListener(Listener{Kinds: kinds, Hook: func(e *Event) { got = append(got, *e) }})
			w.AddListener(Listener{Kinds: otherKinds, Hook: func(e *Event) { other = append(other, *e) }})
		})
		if e != end {
			t.Errorf("kinds %016b: the run ends at %g, %g with a hook of every kind", kinds, e, end)
		}
		if want := only(kinds); len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("kinds %016b: listener got %d events, want the %d of a hook of every kind:\n%+v\nwant\n%+v", kinds, len(got), len(want), got, want)
		}
		if want := only(otherKinds); !reflect.DeepEqual(other, want) {
			t.Errorf("kinds %016b: the other listener got %d events, want %d", kinds, len(other), len(want))
		}
		// Alone, a listener of these kinds gets the same events.
		var alone []Event
		run(func(w *World) {
			w.AddListener(Listener{Kinds: kinds, Hook: func(e *Event) { alone = append(alone, *e) }})
		})
		if !reflect.DeepEqual(alone, got) {
			t.Errorf("kinds %016b: a listener alone got %d events, not the %d it got beside another", kinds, len(alone), len(got))
		}
	}
}
