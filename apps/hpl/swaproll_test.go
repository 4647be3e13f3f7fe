package hpl

import (
	"math/rand/v2"
	"testing"

	"github.com/emu-hpc/emu/ranks"
)

// TestSwapRollNextStep holds swapRoll.NextStep, which finds the non-empty
// steps from the non-empty pieces by rollStep's closed form, against a
// scan asking Exchange about every step: for every k, in a random order,
// the first step from k on with a side not Nobody, or P−1. The cases
// cover P = 1, 2, 3, odd and even P, P about a word of steps (63–65,
// 129), and offsets from all pieces empty through one to all non-empty.
func TestSwapRollNextStep(t *testing.T) {
	cases := []struct {
		name  string
		ps    []int
		pFull float64 // each piece's chance to be non-empty
	}{
		{"tiny grids", []int{1, 2, 3, 4, 5}, 0.5},
		{"one piece in a tall column", []int{6, 7, 31, 63, 64, 65, 66, 129, 256, 1024}, 0},
		{"sparse", []int{3, 7, 12, 63, 64, 65, 100, 129}, 0.05},
		{"half", []int{2, 3, 9, 64, 65, 130}, 0.5},
		{"all non-empty", []int{2, 3, 17, 65}, 1},
		{"all empty", []int{1, 2, 3, 64, 65}, -1},
	}
	rng := rand.New(rand.NewPCG(32, 1))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, P := range tc.ps {
				for range 6 {
					off := make([]int, P+1)
					one := rng.IntN(P) // the "one piece" case's piece
					for i := range P {
						rows := 0
						if rng.Float64() < tc.pFull || (tc.pFull == 0 && i == one) {
							rows = 1 + rng.IntN(3)
						}
						off[i+1] = off[i] + rows
					}
					my := rng.IntN(P)
					x := &swapRoll{w: swapCtx{n: 1 + rng.IntN(4)}, my: my, p: P, off: off, prev: 100, next: 200}
					n := P - 1
					want := make([]int, n+1)
					want[n] = n
					for k := n - 1; k >= 0; k-- {
						if dst, _, src := x.Exchange(k); dst != ranks.Nobody || src != ranks.Nobody {
							want[k] = k
						} else {
							want[k] = want[k+1]
						}
					}
					for _, k := range rng.Perm(n + 1) {
						if got := x.NextStep(k); got != want[k] {
							t.Fatalf("P %d my %d off %v: NextStep(%d) = %d, a scan of Exchange says %d", P, my, off, k, got, want[k])
						}
					}
				}
			}
		})
	}
}

// TestSwapRollReusesItsMarks runs two rolls on one swapRoll, as the solver
// does, and wants the second's answers from its own offsets, not from
// marks left by the first.
func TestSwapRollReusesItsMarks(t *testing.T) {
	const P = 70
	x := &swapRoll{}
	for _, piece := range []int{5, 40} {
		off := make([]int, P+1)
		for i := range P {
			off[i+1] = off[i]
			if i == piece {
				off[i+1]++
			}
		}
		*x = swapRoll{w: swapCtx{n: 1}, my: 0, p: P, off: off, busy: x.busy[:0]}
		for k := range P {
			want := P - 1
			for j := k; j < P-1; j++ {
				if dst, _, src := x.Exchange(j); dst != ranks.Nobody || src != ranks.Nobody {
					want = j
					break
				}
			}
			if got := x.NextStep(k); got != want {
				t.Fatalf("piece %d: NextStep(%d) = %d, want %d", piece, k, got, want)
			}
		}
	}
}
