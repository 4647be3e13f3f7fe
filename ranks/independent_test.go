package ranks_test

import (
	"fmt"
	"hash/fnv"
	"sync"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/ranks"
)

// A user's own programs, written against the public API only: a halo
// exchange, a reduction-heavy solver, a master/worker with wildcard probes
// (whose cost grows with SimGrid's simulation-wide counter, the state most
// likely to leak between emulations), and a seeded random workload.
var userPrograms = []struct {
	name string
	n    int
	main func(r *ranks.Rank)
}{
	{"halo", 4, func(r *ranks.Rank) {
		c := r.World()
		left, right := (c.Rank()+c.Size()-1)%c.Size(), (c.Rank()+1)%c.Size()
		for range 5 {
			r.Compute(1e-5, "sweep")
			ranks.Waitall(c.Irecv(left, 0), c.Irecv(right, 1),
				c.Isend(right, 0, ranks.Msg{Bytes: 80_000}), c.Isend(left, 1, ranks.Msg{Bytes: 800}))
			c.Sendrecv(right, 2, ranks.Msg{Bytes: 100}, left, 2)
		}
	}},
	{"solver", 5, func(r *ranks.Rank) {
		c := r.World()
		c.Bcast(0, ranks.Msg{Bytes: 4096})
		for range 5 {
			r.Compute(1e-5, "matvec")
			c.Allreduce(ranks.Msg{Data: []float64{float64(c.Rank())}}, ranks.Sum)
			c.Allreduce(ranks.Msg{Bytes: 8}, ranks.Max)
		}
	}},
	{"master/worker", 4, masterWorker},
	{"random", 3, func(r *ranks.Rank) {
		c := r.World()
		for range 4 {
			r.Compute(r.Rand().Float64()*1e-4, "noise")
			c.Barrier()
		}
	}},
}

// masterWorker: rank 0 hands out 9 tasks, task k taking (k+1) ms, and waits
// for results with Probe(AnySource, AnyTag); tag 2 stops a worker.
func masterWorker(r *ranks.Rank) {
	c := r.World()
	const tasks = 9
	if c.Rank() != 0 {
		for {
			m, st := c.Recv(0, ranks.AnyTag)
			if st.Tag == 2 {
				return
			}
			r.Compute((m.Data[0]+1)*1e-3, "task")
			c.Send(0, 0, ranks.Msg{Bytes: 8000})
		}
	}
	next := 0
	give := func(w int) {
		if next < tasks {
			c.Send(w, 1, ranks.Msg{Data: []float64{float64(next)}})
			next++
		} else {
			c.Send(w, 2, ranks.Msg{})
		}
	}
	for w := 1; w < c.Size(); w++ {
		give(w)
	}
	for range tasks {
		st := c.Probe(ranks.AnySource, ranks.AnyTag)
		c.Recv(st.Source, st.Tag)
		give(st.Source)
	}
}

// runUserProgram emulates one program on a flat cluster under SMPI's preset
// and returns its end and a digest of every event it raised.
func runUserProgram(n int, main func(*ranks.Rank)) (end float64, digest uint64, err error) {
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: n, Link: fluid.LinkSpec{Bandwidth: 1.25e9, Latency: 1e-6}})
	if err != nil {
		return 0, 0, err
	}
	place := make([]int, n)
	for i := range place {
		place[i] = i
	}
	w, err := ranks.NewWorld(ranks.DefaultConfig(), topo, place, 7)
	if err != nil {
		return 0, 0, err
	}
	h := fnv.New64a()
	w.AddHook(func(ev *ranks.Event) {
		fmt.Fprintf(h, "%v %d %d %d %d %x\n", ev.Kind, ev.Rank, ev.Peer, ev.Tag, ev.Bytes, ev.Time)
	})
	if err := w.Run(main); err != nil {
		return 0, 0, err
	}
	return w.End(), h.Sum64(), nil
}

// TestWorldsIndependent runs each program alone, then again after the
// others, then all of them at once in goroutines (twice each): every run
// must give the same end and the same events to the bit, so that nothing
// of one emulation (poll counters, random streams, pools, caches) reaches
// another in the same process. Run it under -race too.
func TestWorldsIndependent(t *testing.T) {
	type result struct {
		end    float64
		digest uint64
	}
	alone := make([]result, len(userPrograms))
	for i, p := range userPrograms {
		end, d, err := runUserProgram(p.n, p.main)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		if end <= 0 {
			t.Fatalf("%s ended at %g", p.name, end)
		}
		alone[i] = result{end, d}
	}
	for i, p := range userPrograms { // back to back, after all the others ran
		end, d, err := runUserProgram(p.n, p.main)
		if err != nil || (result{end, d}) != alone[i] {
			t.Errorf("%s again: end %.17g digest %x err %v, first run %.17g %x", p.name, end, d, err, alone[i].end, alone[i].digest)
		}
	}
	var wg sync.WaitGroup
	got := make([]result, 2*len(userPrograms))
	errs := make([]error, len(got))
	for i := range got {
		p := userPrograms[i%len(userPrograms)]
		wg.Go(func() {
			end, d, err := runUserProgram(p.n, p.main)
			got[i], errs[i] = result{end, d}, err
		})
	}
	wg.Wait()
	for i, g := range got {
		k := i % len(userPrograms)
		if errs[i] != nil || g != alone[k] {
			t.Errorf("%s run concurrently: end %.17g digest %x err %v, alone %.17g %x", userPrograms[k].name, g.end, g.digest, errs[i], alone[k].end, alone[k].digest)
		}
	}
}
