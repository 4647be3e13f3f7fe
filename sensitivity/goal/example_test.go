package goal_test

import (
	"fmt"
	"strings"

	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/sensitivity"
	"github.com/emu-hpc/emu/sensitivity/goal"
	"github.com/emu-hpc/emu/traceformat"
)

// Replay a two-rank schedule under LogGOPSim's default parameters, and
// read T(L) at other latencies off the recorded graph.
func Example() {
	const src = `num_ranks 2
rank 0 {
l1: calc 1000
l2: send 8b to 1 tag 0
l2 requires l1
}
rank 1 {
l1: recv 8b from 0 tag 0
l2: calc 2000
l2 requires l1
}
`
	s, err := traceformat.Parse(strings.NewReader(src), "pingpong.goal")
	if err != nil {
		fmt.Println(err)
		return
	}
	p := loggops.Params{L: 2500e-9, O: 1500e-9, Gap: 1000e-9, G: 6e-9, S: 65535}
	b := sensitivity.NewBuilder(s.NumRanks())
	res, err := goal.ReplayGraph(s, p, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	g := b.Graph()
	// calc 1000, o 1500, L 2500, o + 7·G 1542, calc 2000
	fmt.Printf("replay: %.0f ns\n", res.Runtime*1e9)
	for _, L := range []float64{2500e-9, 5000e-9} {
		fmt.Printf("graph at L = %.0f ns: %.0f ns\n", L*1e9, g.Runtime([]float64{L})*1e9)
	}
	// Output:
	// replay: 8542 ns
	// graph at L = 2500 ns: 8542 ns
	// graph at L = 5000 ns: 11042 ns
}
