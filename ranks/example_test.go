package ranks_test

import (
	"fmt"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/ranks"
)

// A ping-pong between two hosts of a flat cluster (10 GB/s, 1 µs links) under
// plain max-min: one way takes 2 µs of route latency plus (1000+16)/1e10 s.
func Example() {
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 2, Link: fluid.LinkSpec{Bandwidth: 1e10, Latency: 1e-6}})
	if err != nil {
		panic(err)
	}
	cfg, _ := ranks.Preset("cm02")
	w, err := ranks.NewWorld(cfg, topo, []int{0, 1}, 1)
	if err != nil {
		panic(err)
	}
	err = w.Run(func(r *ranks.Rank) {
		c := r.World()
		if r.ID() == 0 {
			c.Send(1, 0, ranks.Msg{Bytes: 1000})
			c.Recv(1, 0)
			fmt.Printf("round trip: %.4g s\n", r.Now())
		} else {
			_, st := c.Recv(0, 0)
			fmt.Printf("rank 1 got %d bytes from rank %d at %.4g s\n", st.Bytes, st.Source, r.Now())
			c.Send(0, 0, ranks.Msg{Bytes: 1000})
		}
	})
	fmt.Println("error:", err)
	// Output:
	// rank 1 got 1000 bytes from rank 0 at 2.102e-06 s
	// round trip: 4.203e-06 s
	// error: <nil>
}

// A deadlock is reported with what each rank waits for.
func Example_deadlock() {
	topo, _ := fluid.NewFlat(fluid.FlatConfig{Hosts: 2, Link: fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6}})
	w, _ := ranks.NewWorld(ranks.DefaultConfig(), topo, []int{0, 1}, 1)
	err := w.Run(func(r *ranks.Rank) { r.World().Recv(1-r.ID(), 3) })
	fmt.Println(err)
	// Output:
	// deadlock at t=0s: 2 rank(s) blocked; rank 0 in Recv peer 1 tag 3; rank 1 in Recv peer 0 tag 3
}

// shift is a ring shift as an Exchanger: at each step a rank passes to its
// right neighbour what it received from its left one, starting with its own id.
type shift struct {
	me, n int
	have  float64
	seen  []float64
}

func (s *shift) Exchange(k int) (int, ranks.Msg, int) {
	return (s.me + 1) % s.n, ranks.Msg{Bytes: 8, Data: []float64{s.have}}, (s.me + s.n - 1) % s.n
}

func (s *shift) Received(k int, m ranks.Msg) {
	s.have = m.Data[0]
	s.seen = append(s.seen, s.have)
}

// An allgather by ring shift, as a task: n−1 steps of Issend, Recv and Wait
// that the scheduler advances without resuming the ranks' coroutines. Each
// step takes 2 µs of route latency plus (8+16)/1e9 s.
func ExampleComm_Exchanges() {
	const n = 4
	topo, _ := fluid.NewFlat(fluid.FlatConfig{Hosts: n, Link: fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6}})
	cfg, _ := ranks.Preset("cm02")
	w, _ := ranks.NewWorld(cfg, topo, []int{0, 1, 2, 3}, 1)
	err := w.Run(func(r *ranks.Rank) {
		c := r.World()
		s := &shift{me: c.Rank(), n: n, have: float64(c.Rank())}
		c.Exchanges(n-1, 0, s)
		if c.Rank() == 0 {
			fmt.Printf("rank 0 saw %v, done at %.4g s\n", s.seen, r.Now())
		}
	})
	fmt.Println("error:", err)
	// Output:
	// rank 0 saw [3 2 1], done at 6.072e-06 s
	// error: <nil>
}

// A listener hears only the kinds of events it names: here the arrivals of a
// ring's messages, with each message's network time.
func ExampleWorld_AddListener() {
	topo, _ := fluid.NewFlat(fluid.FlatConfig{Hosts: 3, Link: fluid.LinkSpec{Bandwidth: 1e10, Latency: 1e-6}})
	cfg, _ := ranks.Preset("cm02")
	w, _ := ranks.NewWorld(cfg, topo, []int{0, 1, 2}, 1)
	w.AddListener(ranks.Listener{Kinds: ranks.KindsOf(ranks.RecvDone), Hook: func(ev *ranks.Event) {
		fmt.Printf("%d → %d: %d bytes in %.4g s\n", ev.Peer, ev.Rank, ev.Bytes, ev.Transfer)
	}})
	err := w.Run(func(r *ranks.Rank) {
		c, n := r.World(), 3
		if r.ID() > 0 {
			c.Recv(r.ID()-1, 0)
		}
		if r.ID() < n-1 {
			c.Send(r.ID()+1, 0, ranks.Msg{Bytes: 1000})
		}
	})
	fmt.Println("error:", err)
	// Output:
	// 0 → 1: 1000 bytes in 2.102e-06 s
	// 1 → 2: 1000 bytes in 2.102e-06 s
	// error: <nil>
}

// A halo exchange on a periodic ring of 4 hosts (1.25 GB/s, 1 µs links,
// plain max-min): after 1 ms of modelled compute, each rank posts its two
// receives, sends 8,000 B to each neighbour and waits for all four
// requests. Each host's cable out (and in) carries two messages at once, so
// each moves at half the bandwidth: 1000 µs + 2 µs + 2·(8000+16)/1.25e9 s =
// 1014.8256 µs.
func ExampleWaitall() {
	const n = 4
	topo, _ := fluid.NewFlat(fluid.FlatConfig{Hosts: n, Link: fluid.LinkSpec{Bandwidth: 1.25e9, Latency: 1e-6}})
	cfg, _ := ranks.Preset("cm02")
	w, _ := ranks.NewWorld(cfg, topo, []int{0, 1, 2, 3}, 1)
	err := w.Run(func(r *ranks.Rank) {
		c := r.World()
		left, right := (c.Rank()+n-1)%n, (c.Rank()+1)%n
		r.Compute(1e-3, "sweep") // a time model's answer for the local sweep
		ranks.Waitall(
			c.Irecv(left, 0), c.Irecv(right, 1),
			c.Isend(right, 0, ranks.Msg{Bytes: 8000}), c.Isend(left, 1, ranks.Msg{Bytes: 8000}))
		if c.Rank() == 0 {
			fmt.Printf("halo done at %.4f µs\n", r.Now()*1e6)
		}
	})
	fmt.Println("error:", err)
	// Output:
	// halo done at 1014.8256 µs
	// error: <nil>
}

// Rank 0 broadcasts 800 B to 4 ranks (binomial tree: 0 sends to 2 and 1 at
// once, sharing its cable, 2 µs + 2·816/1.25e9 s = 3.3056 µs; then 2 sends
// to 3, 2.6528 µs more: 5.9584 µs), then all sum their ranks by recursive
// doubling, two rounds of 8 B exchanges of 2.0192 µs each, the first of
// ranks 2 and 3 waiting for 3: 5.9584 + 2·2.0192 = 9.9968 µs.
func ExampleComm_Allreduce() {
	topo, _ := fluid.NewFlat(fluid.FlatConfig{Hosts: 4, Link: fluid.LinkSpec{Bandwidth: 1.25e9, Latency: 1e-6}})
	cfg, _ := ranks.Preset("cm02")
	w, _ := ranks.NewWorld(cfg, topo, []int{0, 1, 2, 3}, 1)
	err := w.Run(func(r *ranks.Rank) {
		c := r.World()
		var m ranks.Msg
		if c.Rank() == 0 {
			m = ranks.Msg{Data: make([]float64, 100)} // 800 B
		}
		c.Bcast(0, m)
		sum := c.Allreduce(ranks.Msg{Data: []float64{float64(c.Rank())}}, ranks.Sum)
		if c.Rank() == 3 {
			fmt.Printf("sum %g at %.4f µs\n", sum.Data[0], r.Now()*1e6)
		}
	})
	fmt.Println("error:", err)
	// Output:
	// sum 6 at 9.9968 µs
	// error: <nil>
}

// A master and two workers: rank 0 hands rank 1 a task of 2 ms and rank 2 one
// of 1 ms, then takes the results in the order they come with
// Probe(AnySource, AnyTag). With free probes (IprobeCost = 0) a result is in
// 2 µs + (8000+16)/1.25e9 s = 8.4128 µs after its worker finishes (the
// tasks arrive after 2.0384 µs, sharing rank 0's cable). Under the presets,
// as in SMPI, each failed probe costs 1e-4 s times a counter that grows by
// one: the probes end at 100, 300, 600, 1000, 1500 µs, and the first result
// is seen at the fifth.
func ExampleComm_Probe() {
	for _, cost := range []float64{0, 1e-4} {
		topo, _ := fluid.NewFlat(fluid.FlatConfig{Hosts: 3, Link: fluid.LinkSpec{Bandwidth: 1.25e9, Latency: 1e-6}})
		cfg, _ := ranks.Preset("cm02")
		cfg.IprobeCost = cost
		w, _ := ranks.NewWorld(cfg, topo, []int{0, 1, 2}, 1)
		fmt.Printf("IprobeCost %g:\n", cost)
		err := w.Run(func(r *ranks.Rank) {
			c := r.World()
			if c.Rank() != 0 {
				m, _ := c.Recv(0, 0)
				r.Compute(m.Data[0], "task")
				c.Send(0, 0, ranks.Msg{Bytes: 8000})
				return
			}
			c.Send(1, 0, ranks.Msg{Data: []float64{2e-3}})
			c.Send(2, 0, ranks.Msg{Data: []float64{1e-3}})
			for range 2 {
				st := c.Probe(ranks.AnySource, ranks.AnyTag)
				c.Recv(st.Source, st.Tag)
				fmt.Printf("  result of rank %d at %.4f µs\n", st.Source, r.Now()*1e6)
			}
		})
		fmt.Println("  error:", err)
	}
	// Output:
	// IprobeCost 0:
	//   result of rank 2 at 1010.4512 µs
	//   result of rank 1 at 2010.4512 µs
	//   error: <nil>
	// IprobeCost 0.0001:
	//   result of rank 2 at 1508.4128 µs
	//   result of rank 1 at 2116.8256 µs
	//   error: <nil>
}
