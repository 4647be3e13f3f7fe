package replay_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/traceformat"
)

// world is two hosts of a flat cluster (1.25 GB/s, 1 µs links) under plain
// max-min, where a lone message of s bytes takes 2 µs of route latency plus
// (s+16)/1.25e9 s.
func world() *ranks.World {
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 2, Link: fluid.LinkSpec{Bandwidth: 1.25e9, Latency: 1e-6}})
	if err != nil {
		panic(err)
	}
	cfg, _ := ranks.Preset("cm02")
	w, err := ranks.NewWorld(cfg, topo, []int{0, 1}, 1)
	if err != nil {
		panic(err)
	}
	return w
}

// A TI trace: rank 0 computes 10⁶ flops on a 1 Gflop/s host (1 ms), then
// sends 1,000 bytes to rank 1: 1 ms + 2 µs + 1,016/1.25e9 s = 1.0028128 ms.
func ExampleRun() {
	const ti = `0 init
1 init
0 compute 1e6
0 send 1 0 1000
1 recv 0 0 1000
0 finalize
1 finalize
`
	tr, err := traceformat.ParseTI(strings.NewReader(ti), "ti.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := replay.Run(world(), tr, replay.Config{Speed: 1e9})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d ranks, %d events, %.7f ms\n", res.Ranks, res.Events, res.Time*1e3)
	// Output:
	// 2 ranks, 3 events, 1.0028128 ms
}

// A TI receive's count is MPI's upper bound: a message longer than it stops
// the replay with a *TruncateError naming the receive's line, where
// SimGrid's replayer aborts with MPI_ERR_TRUNCATE.
func ExampleRun_truncate() {
	const ti = "0 send 1 0 1000\n1 recv 0 0 10\n"
	tr, _ := traceformat.ParseTI(strings.NewReader(ti), "short.txt")
	_, err := replay.Run(world(), tr, replay.Config{Speed: 1e9})
	var te *replay.TruncateError
	fmt.Println(errors.As(err, &te))
	fmt.Println(err)
	// Output:
	// true
	// short.txt:2: rank 1's recv of at most 10 bytes from rank 0 tag 0 matched rank 0's message of 1000 bytes (tag 0): MPI_ERR_TRUNCATE (SimGrid's replayer aborts on it too)
}

// RunLogGOPS replays a GOAL schedule as LogGOPSim does: one byte from rank 0
// to rank 1 at LogGOPSim's defaults (L = 2.5 µs, o = 1.5 µs) ends at
// o + L + o = 5.5 µs, the worked example of
// shared/reference/goal-and-llamp.md §5.7.
func ExampleRunLogGOPS() {
	const goal = "num_ranks 2\nrank 0 {\nsend 1b to 1\n}\nrank 1 {\nrecv 1b from 0\n}\n"
	tr, err := traceformat.Parse(strings.NewReader(goal), "one.goal")
	if err != nil {
		fmt.Println(err)
		return
	}
	p := loggops.Params{L: 2.5e-6, O: 1.5e-6, Gap: 1e-6, G: 6e-9, S: 65535}
	res, err := replay.RunLogGOPS(&traceformat.Trace{Name: "one.goal", Format: traceformat.FormatGOAL, GOAL: tr}, p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %.1f µs\n", res.File, res.Time*1e6)
	// Output:
	// one.goal: 5.5 µs
}
