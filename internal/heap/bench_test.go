package heap

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkHeap runs the hold model (pop the least, push it back later by
// a random increment: an event queue's life) on heaps of n entries with
// int64 keys, and on the textbook heap the queues of emu were before this
// package, for comparison. Reports pops+pushes per second.
//
// Figures at 2912361 (go1.26, the shared 2-core machine at load 2–3; ns
// per pop+push, three runs): n=16 binary 21.5–21.9, textbook 20.6–21.1;
// n=1024 binary 54.6–54.9, 4-ary 69.4–69.9, indexed 60.4–60.8, textbook
// 52.7–53.7. Instructions per pop+push at n=1024 (cachegrind, difference
// of 2e5 and 1e5 iterations): binary 442, textbook 433 (1.022): the
// textbook heap compares keys alone, Heap breaks ties by ID. In the
// simulators, where the heaps replaced such code, the instruction counts
// are at or below the hand-written heaps' (0.986–0.999 at 4ea9f2b:
// ranks' Ring1024, goal's Reference and LinearAlltoall512, fluid's
// FlowStart and FlowEnd; see that commit's successor).
func BenchmarkHeap(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	steps := make([]int64, 1<<12)
	for i := range steps {
		steps[i] = rng.Int64N(1e9)
	}
	step := func(i int) int64 { return steps[i%len(steps)] }
	report := func(b *testing.B) { b.ReportMetric(2*float64(b.N)/b.Elapsed().Seconds(), "ops/s") }
	type E = Entry[int64, int32]
	for _, n := range []int{16, 1024, 65536} {
		b.Run(fmt.Sprintf("n=%d/binary", n), func(b *testing.B) {
			var h Heap[int64, int32]
			for i := range n {
				h.Push(E{Key: step(i), ID: int32(i)})
			}
			for i := 0; b.Loop(); i++ {
				e := h.Pop()
				h.Push(E{Key: e.Key + step(i), ID: e.ID})
			}
			report(b)
		})
		b.Run(fmt.Sprintf("n=%d/4-ary", n), func(b *testing.B) {
			var h Heap4[int64, int32]
			for i := range n {
				h.Push(E{Key: step(i), ID: int32(i)})
			}
			for i := 0; b.Loop(); i++ {
				e := h.Pop()
				h.Push(E{Key: e.Key + step(i), ID: e.ID})
			}
			report(b)
		})
		b.Run(fmt.Sprintf("n=%d/indexed", n), func(b *testing.B) {
			var h Indexed[int64, int32]
			for i := range n {
				h.Push(E{Key: step(i), ID: int32(i)})
			}
			for i := 0; b.Loop(); i++ {
				e := h.Pop()
				h.Push(E{Key: e.Key + step(i), ID: e.ID})
			}
			report(b)
		})
		b.Run(fmt.Sprintf("n=%d/textbook", n), func(b *testing.B) {
			var h textbook
			for i := range n {
				h.push(pair{key: step(i), id: int32(i)})
			}
			for i := 0; b.Loop(); i++ {
				e := h.pop()
				h.push(pair{key: e.key + step(i), id: e.id})
			}
			report(b)
		})
	}
}

// textbook is the binary heap most queues of emu were before this
// package (ranks' ready queue, LogGOPSim's parked entries), comparing
// keys alone, its loops written into push and pop.
type textbook []pair

type pair struct {
	key int64
	id  int32
}

func (h *textbook) push(x pair) {
	s := append(*h, x)
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p].key <= x.key {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = x
	*h = s
}

func (h *textbook) pop() pair {
	s := *h
	top, n := s[0], len(s)-1
	last := s[n]
	s = s[:n]
	i := 0
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && s[c+1].key < s[c].key {
			c++
		}
		if s[c].key >= last.key {
			break
		}
		s[i] = s[c]
		i = c
	}
	if n > 0 {
		s[i] = last
	}
	*h = s
	return top
}
