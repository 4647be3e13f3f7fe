package ranks

import (
	"strings"
	"testing"
)

// TestFreeRecyclesRequests: freed Isend/Irecv requests come back from the
// World's free list (a freed eager send only once delivered), and freeing
// changes no result: the same exchange with and without Free ends at the
// same times with the same payloads.
func TestFreeRecyclesRequests(t *testing.T) {
	run := func(free bool) (ends [2]float64, got float64, pool int) {
		w, _ := NewWorld(preset(t, "cm02"), newCrossbar(2, 1e9, 1e-6), identity(2), 1)
		err := w.Run(func(r *Rank) {
			c := r.World()
			for k := 0; k < 5; k++ {
				if r.ID() == 0 {
					q := c.Isend(1, k, Msg{Data: []float64{float64(k)}})
					q.Wait()
					if free {
						q.Free() // eager: still in flight, recycled at delivery
					}
				} else {
					q := c.Irecv(0, k)
					m, _ := q.Wait()
					got += m.Data[0]
					if free {
						q.Free()
					}
				}
			}
			ends[r.ID()] = r.Now()
		})
		if err != nil {
			t.Fatal(err)
		}
		return ends, got, len(w.freeReqs)
	}
	endsA, gotA, poolA := run(false)
	endsB, gotB, poolB := run(true)
	if endsA != endsB || gotA != gotB || gotA != 0+1+2+3+4 {
		t.Fatalf("with Free: ends %v sum %v; without: ends %v sum %v", endsB, gotB, endsA, gotA)
	}
	if poolA != 0 || poolB == 0 {
		t.Fatalf("free list: %d requests without Free, %d with (want 0 and > 0)", poolA, poolB)
	}
}

// TestFreePendingReceivePanics: freeing a receive that has not completed is
// misuse, reported as the rank's panic.
func TestFreePendingReceivePanics(t *testing.T) {
	w, _ := NewWorld(preset(t, "cm02"), newCrossbar(1, 1e9, 1e-6), identity(1), 1)
	err := w.Run(func(r *Rank) { r.World().Irecv(0, 0).Free() })
	if err == nil || !strings.Contains(err.Error(), "Free of a receive") {
		t.Fatalf("Run returned %v", err)
	}
}
