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
