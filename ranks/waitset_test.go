package ranks

import (
	"reflect"
	"testing"
)

// TestWaitSet: rank 0 posts receives from ranks 1..3, which send after
// computing 3, 1 and 2 µs; Next returns them in completion order (from 2,
// 3, 1), then nil once the set is empty. A detached send added after it
// completed comes back at once.
func TestWaitSet(t *testing.T) {
	cfg, _ := Preset("cm02")
	w, err := NewWorld(cfg, newCrossbar(4, 1e9, 1e-6), identity(4), 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	var sendBack bool
	err = w.Run(func(r *Rank) {
		c := r.World()
		if r.ID() != 0 {
			r.Compute([]float64{0, 3e-6, 1e-6, 2e-6}[r.ID()], "work")
			c.Send(0, 7, Msg{Bytes: 8})
			return
		}
		set := r.NewWaitSet()
		for src := 1; src < 4; src++ {
			set.Add(c.Irecv(src, 7), 10*src)
		}
		for set.Len() > 0 {
			q, id, _, st := set.Next()
			if id != 10*st.Source {
				t.Errorf("id %d for the receive from %d", id, st.Source)
			}
			got = append(got, st.Source)
			q.Free()
		}
		if q, _, _, _ := set.Next(); q != nil {
			t.Error("Next on an empty set returned a request")
		}
		s := c.Isend(0, 9, Msg{Bytes: 8}) // detached: complete at once
		set.Add(s, 0)
		q, _, _, _ := set.Next()
		sendBack = q == s
		c.Recv(0, 9)
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 3, 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("completion order %v, want %v", got, want)
	}
	if !sendBack {
		t.Error("a completed send added to the set did not come back")
	}
}

// TestWaitSetDeadlock: a set that nothing completes is a deadlock naming
// the call.
func TestWaitSetDeadlock(t *testing.T) {
	cfg, _ := Preset("cm02")
	w, _ := NewWorld(cfg, newCrossbar(2, 1e9, 1e-6), identity(2), 1)
	err := w.Run(func(r *Rank) {
		if r.ID() == 0 {
			set := r.NewWaitSet()
			set.Add(r.World().Irecv(1, 0), 0)
			set.Next()
		}
	})
	dl, ok := err.(*DeadlockError)
	if !ok || len(dl.Blocked) != 1 || dl.Blocked[0].Call != "Waitsome" {
		t.Errorf("err = %v", err)
	}
}
