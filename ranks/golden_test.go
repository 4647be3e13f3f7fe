package ranks

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/golden"
)

// TestGoldenTrace pins the full event sequence of a small mixed program
// under the SMPI model (factor tables, weight-S, cross-traffic, growing
// Iprobe costs, detached and rendezvous messages, collectives on a split
// communicator): any change in semantics or timing shows up as a diff of
// testdata/trace.golden. Regenerate with `go test -run Golden -update` and
// review the diff.
func TestGoldenTrace(t *testing.T) {
	var b strings.Builder
	w, err := NewWorld(preset(t, "smpi"), newCrossbar(3, 1.25e9, 1e-6), []int{0, 1, 2, 0}, 7)
	if err != nil {
		t.Fatal(err)
	}
	w.AddHook(func(e *Event) {
		fmt.Fprintf(&b, "%.9e %-12v rank=%d peer=%d tag=%d bytes=%d msg=%d recv=%d rdv=%v hops=%d lat=%.6e xfer=%.6e %s\n",
			e.Time, e.Kind, e.Rank, e.Peer, e.Tag, e.Bytes, e.MsgID, e.RecvID, e.Rendezvous, e.Hops, e.Latency, e.Transfer, e.Kernel)
	})
	err = w.Run(func(r *Rank) {
		c := r.World()
		me := r.ID()
		r.Compute(float64(me)*1e-5, "warmup")
		// Everyone sends a detached and a rendezvous message to its right
		// neighbour (rank 3 shares host 0 with rank 0: loopback).
		right, left := (me+1)%4, (me+3)%4
		a := c.Isend(right, 1, Msg{Bytes: 1000})
		bq := c.Isend(right, 2, Msg{Bytes: 200000})
		// Poll for the small one with SMPI's growing Iprobe cost.
		for {
			if ok, _ := c.Iprobe(left, 1); ok {
				break
			}
		}
		c.Recv(left, 1)
		c.Recv(left, 2)
		Waitall(a, bq)
		half := c.Split(me/2, me)
		sum := half.Allreduce(Msg{Data: []float64{float64(me), 1}}, Sum)
		c.Bcast(0, Msg{Bytes: int(sum.Data[0]) * 40000})
		c.Barrier()
	})
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "trace.golden"), []byte(b.String()))
}

// TestSleepFastPathIsInvisible: the clock jump of Rank.sleep (no timer when
// the sleeper would be next anyway) gives the same event trace, bit for
// bit, as always scheduling a timer, on a program full of sleeps, polls
// and messages.
func TestSleepFastPathIsInvisible(t *testing.T) {
	trace := func(noSkip bool) (string, uint64) {
		var b strings.Builder
		w, _ := NewWorld(preset(t, "smpi"), newCrossbar(6, 1e9, 1e-6), identity(6), 3)
		w.noSkip = noSkip
		w.AddHook(func(e *Event) { fmt.Fprintf(&b, "%v %d %d %d %.17g\n", e.Kind, e.Rank, e.Peer, e.MsgID, e.Time) })
		err := w.Run(func(r *Rank) {
			c := r.World()
			rng := r.Rand()
			for i := 0; i < 30; i++ {
				r.Compute(rng.Float64()*1e-5, "k")
				c.Isend(rng.IntN(6), 0, Msg{Bytes: rng.IntN(100000)})
				for k := 0; k < 3; k++ {
					if ok, st := c.Iprobe(AnySource, 0); ok {
						c.Recv(st.Source, 0)
					}
				}
			}
			c.Barrier()
			for {
				ok, st := c.Iprobe(AnySource, 0)
				if !ok {
					break
				}
				c.Recv(st.Source, 0)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		return b.String(), w.Engine().Fired()
	}
	fast, fastEvents := trace(false)
	slow, slowEvents := trace(true)
	if fast != slow {
		t.Fatal("the sleep fast path changed the trace")
	}
	if fastEvents >= slowEvents {
		t.Fatalf("the fast path was never taken (%d events, %d without it)", fastEvents, slowEvents)
	}
}
