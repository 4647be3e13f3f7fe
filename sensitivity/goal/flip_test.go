package goal

import (
	"math"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/traceformat"

	"github.com/emu-hpc/emu/sensitivity"
)

// flipSchedule makes rank 2 receive two 1-byte messages whose arrival
// order flips with L: A comes straight from rank 0 after a 5 µs calc
// (arrival o + 5000 + o + L = 8000 + L, since rank 0's other send takes the
// CPU first), B is relayed through rank 1 (arrival 2o + o + 2L = 4500 + 2L).
// Each message is followed by a 10 µs calc on rank 2.
const flipSchedule = "num_ranks 3\n" +
	"rank 0 {\nl1: calc 5000\nl2: send 1b to 2 tag 1\nl2 requires l1\nl3: send 1b to 1 tag 2\n}\n" +
	"rank 1 {\nl1: recv 1b from 0 tag 2\nl2: send 1b to 2 tag 3\nl2 requires l1\n}\n" +
	"rank 2 {\nl1: recv 1b from 0 tag 1\nl2: recv 1b from 1 tag 3\nl3: calc 10000\nl3 requires l1\nl4: calc 10000\nl4 requires l2\n}\n"

// TestGraphOrderFlip documents where a graph recorded from one replay and
// LogGOPSim part: when the greedy order of a CPU changes with L.
//
// Rank 2 processes whichever message arrives first (o = 1500 each) and
// then its calc. B first (L < 3500): B 4500+2L..6000+2L, its calc until
// 16000+2L, then A (waiting since 8000+L) until 17500+2L and A's calc:
// T = 27500 + 2L. A first (L > 3500): A 8000+L..9500+L, calc until
// 19500+L, B until 21000+L, B's calc: T = 31000 + L. LogGOPSim's T(L) is
// therefore slope 2 then slope 1: concave at L = 3500, which no longest
// path (a maximum of lines, so convex) can be. The graph recorded at
// L = 1 µs keeps "B first" and gives 27500 + 2L at every L; the one
// recorded at 8 µs keeps "A first" and gives 31000 + L (up to L = 15 µs,
// where B stops arriving during A's calc). Each is exact on its own side
// of the flip and an upper bound beyond it: the LP is the runtime of the
// recorded order, not of a re-simulation. (At L = 5 µs, B arrives the
// instant A's processing ends and LogGOPSim's tie-break slips B in before
// A's calc: a third order, with the same runtime at 5 µs only.)
func TestGraphOrderFlip(t *testing.T) {
	s, err := traceformat.Parse(strings.NewReader(flipSchedule), "flip.goal")
	if err != nil {
		t.Fatal(err)
	}
	at := func(L float64) loggops.Params { p := loggopsimDefaults; p.L = L * 1e-9; return p }
	bFirst := func(L float64) float64 { return 27500 + 2*L }
	aFirst := func(L float64) float64 { return 31000 + L }
	graphAt := func(L0 float64) *sensitivity.Graph {
		b := sensitivity.NewBuilder(s.NumRanks())
		if _, err := ReplayGraph(s, at(L0), b); err != nil {
			t.Fatal(err)
		}
		return b.Graph()
	}
	g1, g8 := graphAt(1000), graphAt(8000)
	for L := 0.0; L <= 10000; L += 500 {
		res, err := loggops.Replay(s, at(L))
		if err != nil {
			t.Fatal(err)
		}
		want := math.Min(bFirst(L), aFirst(L)) // the greedy order happens to pick the better one
		if got := res.Runtime * 1e9; math.Abs(got-want) > exampleTolerance {
			t.Errorf("replay at L = %g: %.3f ns, want %.0f", L, got, want)
		}
		if got := g1.Runtime([]float64{L * 1e-9}) * 1e9; math.Abs(got-bFirst(L)) > exampleTolerance {
			t.Errorf("graph recorded at 1 µs, L = %g: %.3f ns, want %.0f", L, got, bFirst(L))
		}
		if got := g8.Runtime([]float64{L * 1e-9}) * 1e9; math.Abs(got-aFirst(L)) > exampleTolerance {
			t.Errorf("graph recorded at 8 µs, L = %g: %.3f ns, want %.0f", L, got, aFirst(L))
		}
	}
}
