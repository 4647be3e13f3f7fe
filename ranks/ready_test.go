package ranks

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestReadyQueueOrder checks both orders against a reference list under
// random interleavings of pushes and pops: the heap must always give the
// lowest ready rank, the FIFO the oldest. The sizes give the rank order's
// bitmap one, two and three levels, grown as the ids come.
func TestReadyQueueOrder(t *testing.T) {
	for _, n := range []int{40, 300, 5000} {
		for _, fifo := range []bool{false, true} {
			checkReadyQueue(t, n, fifo)
		}
	}
}

func checkReadyQueue(t *testing.T, n int, fifo bool) {
	t.Helper()
	ranks := make([]*Rank, n)
	for i := range ranks {
		ranks[i] = &Rank{id: i, gid: int32(i)}
	}
	{
		rng := rand.New(rand.NewPCG(uint64(n), 2))
		q := readyQueue{order: readyOrderOf(!fifo), ranks: ranks}
		var ref []int
		in := make([]bool, n)
		for step := 0; step < 20000; step++ {
			if id := rng.IntN(n); rng.IntN(3) > 0 && !in[id] {
				in[id] = true
				q.push(ranks[id])
				ref = append(ref, id)
				continue
			}
			got := q.pop()
			if len(ref) == 0 {
				if got != nil {
					t.Fatalf("n=%d fifo=%v: pop of an empty queue gave rank %d", n, fifo, got.id)
				}
				continue
			}
			k := 0
			if !fifo {
				k = slices.Index(ref, slices.Min(ref))
			}
			want := ref[k]
			ref = slices.Delete(ref, k, k+1)
			if got == nil || got.id != want {
				t.Fatalf("n=%d fifo=%v step %d: pop gave %v, want rank %d", n, fifo, step, got, want)
			}
			in[want] = false
		}
	}
}
