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
