package ranks

import (
	"fmt"
	"testing"
)

// TestReduceScatter checks ReduceScatter's data against its definition
// (rank i gets the sum over ranks of their parts[i]) for 1 to 9 ranks, on
// each of SMPI's paths: parts of equal sizes (a Reduce then a Scatter),
// unequal ones under 524,288 elements (MPICH's recursive doubling, whose
// non-power-of-two tree this covers) and above (its pairwise exchange).
func TestReduceScatter(t *testing.T) {
	cfg := preset(t, "smpi")
	cfg.ReduceAlgo, cfg.ScatterAlgo = AlgoLinear, AlgoLinear
	paths := []struct {
		name  string
		elems func(i int) int // elements of part i
		bytes func(i int) int // its size on the wire (0: 8 per element)
	}{
		{"regular", func(int) int { return 2 }, func(int) int { return 0 }},
		{"rdb", func(i int) int { return 1 + i%3 }, func(int) int { return 0 }},
		{"pair", func(i int) int { return 1 + i%3 }, func(i int) int { return 300000 * (1 + i%2) }},
	}
	for _, path := range paths {
		for p := 1; p <= 9; p++ {
			t.Run(fmt.Sprintf("%s/p=%d", path.name, p), func(t *testing.T) {
				run(t, cfg, newCrossbar(p, 1e9, 1e-6), p, func(r *Rank) {
					c := r.World()
					me := c.Rank()
					parts := make([]Msg, p)
					for i := range parts {
						parts[i].Bytes = path.bytes(i)
						for k := 0; k < path.elems(i); k++ {
							parts[i].Data = append(parts[i].Data, float64(1000*me+10*i+k))
						}
					}
					got := c.ReduceScatter(parts, Sum, 1)
					if len(got.Data) != path.elems(me) {
						t.Errorf("rank %d: %d elements, want %d", me, len(got.Data), path.elems(me))
						return
					}
					for k, v := range got.Data {
						want := float64(1000*p*(p-1)/2 + p*(10*me+k))
						if v != want {
							t.Errorf("rank %d element %d: %g, want %g", me, k, v, want)
						}
					}
				})
			})
		}
	}
}
