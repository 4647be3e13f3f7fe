package pingpong_test

import (
	"fmt"

	"github.com/emu-hpc/emu/apps/pingpong"
	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/ranks"
)

// Ping-pong on two hosts of a 10 GB/s, 1 µs flat cluster under SMPI's
// default factors: an 8-byte message travels as 24 bytes, latency factor
// 2.01467, so one way is 2.01467·2 µs + 24/(0.812084·1e10) s ≈ 4.032 µs.
func ExamplePingpong() {
	topo, _ := fluid.NewFlat(fluid.FlatConfig{Hosts: 2, Link: fluid.LinkSpec{Bandwidth: 1e10, Latency: 1e-6}})
	w, _ := ranks.NewWorld(ranks.DefaultConfig(), topo, []int{0, 1}, 1)
	res, err := pingpong.Pingpong(w, pingpong.Config{Sizes: []int{8, 1 << 20}, Iterations: 10})
	if err != nil {
		panic(err)
	}
	for _, r := range res {
		fmt.Printf("%8d B  %.3f us  %.0f MB/s\n", r.Bytes, r.OneWay*1e6, r.Bandwidth/1e6)
	}
	// Output:
	//        8 B  4.032 us  62 MB/s
	//  1048576 B  134.757 us  9371 MB/s
}
