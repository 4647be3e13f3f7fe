package scenario

import (
	"math"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/ranks"
)

// timeTol is the tolerance on simulated times compared across the engine and the
// graph evaluation, s (sums of a few dozen floats of order 1e-3 s).
const timeTol = 1e-12

// recordRun runs main on a 2-host flat cluster (10 GB/s, 1 us links: 2 us routes),
// cm02 without polling costs, and returns the simulated time and the graph.
func recordRun(t *testing.T, n int, main func(r *ranks.Rank), hooks ...ranks.Hook) (float64, *GraphRecorder) {
	t.Helper()
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: n, Link: fluid.LinkSpec{Bandwidth: 1e10, Latency: 1e-6}})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := ranks.Preset("cm02")
	cfg.IprobeCost, cfg.TestCost, cfg.TCPGamma = 0, 0, 0
	place := make([]int, n)
	for i := range place {
		place[i] = i
	}
	w, err := ranks.NewWorld(cfg, topo, place, 1)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewGraphRecorder(n, place)
	w.AddHook(rec.Hook)
	for _, h := range hooks {
		w.AddHook(h)
	}
	if err := w.Run(main); err != nil {
		t.Fatal(err)
	}
	return w.Now(), rec
}

func TestGraphRecorderReproducesTheRun(t *testing.T) {
	const route = 2e-6 // s, two 1 us links
	tests := []struct {
		name string
		main func(r *ranks.Rank)
		// latency terms on the critical path: T(ℓ) = T(route) + terms·(ℓ − route)
		terms int
	}{
		{"eager late receiver", func(r *ranks.Rank) {
			c := r.World()
			if r.ID() == 0 {
				r.Compute(1e-3, "dgemm")
				c.Send(1, 7, ranks.Msg{Bytes: 1024})
			} else {
				r.Compute(2e-3, "dgemm") // the message waits for the receive: 2 ms + 1 latency
				c.Recv(0, 7)
				r.Compute(1e-3, "dgemm")
			}
		}, 1},
		{"rendezvous ping-pong", func(r *ranks.Rank) {
			c := r.World()
			if r.ID() == 0 {
				r.Compute(1e-3, "dgemm")
				c.Send(1, 1, ranks.Msg{Bytes: 1 << 20}) // 1 MiB: rendezvous
				c.Recv(1, 2)
			} else {
				c.Recv(0, 1)
				r.Compute(5e-4, "dtrsm")
				c.Send(0, 2, ranks.Msg{Bytes: 8})
			}
		}, 2},
		{"nonblocking ring", func(r *ranks.Rank) {
			c := r.World()
			next, prev := (r.ID()+1)%c.Size(), (r.ID()+c.Size()-1)%c.Size()
			q := c.Irecv(prev, 0)
			c.Send(next, 0, ranks.Msg{Bytes: 100000})
			r.Compute(float64(r.ID()+1)*1e-4, "dgemm")
			q.Wait()
		}, -1},
	}
	for _, tt := range tests {
		n := 2
		if tt.terms < 0 {
			n = 4
		}
		end, rec := recordRun(t, n, tt.main)
		g, err := rec.Graph()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := g.Runtime([]float64{route}); math.Abs(got-end) > timeTol {
			t.Errorf("%s: graph gives %.9g s at the run's latency, the run took %.9g s", tt.name, got, end)
		}
		if tt.terms >= 0 {
			const more = 1e-5 // s of extra latency
			want := end + float64(tt.terms)*(more-route)
			if got := g.Runtime([]float64{more}); math.Abs(got-want) > timeTol {
				t.Errorf("%s: T(%g) = %.9g s, want %.9g (%d latency terms)", tt.name, more, got, want, tt.terms)
			}
		}
	}
}
