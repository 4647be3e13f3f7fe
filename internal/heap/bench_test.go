package heap

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkHeap runs the hold model (pop the least, push it back later by
// a random increment: an event queue's life) on heaps of n entries, and
// on the textbook heap the queues of emu were before this package, keyed
// alike, for comparison. Reports pops+pushes per second.
func BenchmarkHeap(b *testing.B) {
	for _, n := range []int{16, 1024, 65536} {
		incs := make([]float64, 1<<12)
		rng := rand.New(rand.NewPCG(1, 1))
		for i := range incs {
			incs[i] = rng.Float64()
		}
		for _, c := range []struct {
			name string
			o    Options
		}{{"binary", Options{}}, {"4-ary", Options{Arity: 4}}, {"indexed", Options{Indexed: true}}} {
			b.Run(fmt.Sprintf("n=%d/%s", n, c.name), func(b *testing.B) {
				h := New[float64, uint64](c.o)
				for i := range n {
					h.Push(Entry[float64, uint64]{Key: incs[i%len(incs)], Tie: uint64(i), ID: int32(i)})
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					e := h.Pop()
					e.Key += incs[i%len(incs)]
					h.Push(e)
				}
				b.ReportMetric(2*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
			})
		}
		// Like for like with the textbook heap: int64 keys, no tie.
		b.Run(fmt.Sprintf("n=%d/untied", n), func(b *testing.B) {
			var h Heap[int64, Untied]
			for i := range n {
				h.Push(Entry[int64, Untied]{Key: int64(incs[i%len(incs)] * 1e9), ID: int32(i)})
			}
			b.ResetTimer()
			for i := range b.N {
				e := h.Pop()
				e.Key += int64(incs[i%len(incs)] * 1e9)
				h.Push(e)
			}
			b.ReportMetric(2*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
		b.Run(fmt.Sprintf("n=%d/textbook", n), func(b *testing.B) {
			var h textbook
			for i := range n {
				h.push(pair{key: int64(incs[i%len(incs)] * 1e9), id: int32(i)})
			}
			b.ResetTimer()
			for i := range b.N {
				e := h.pop()
				e.key += int64(incs[i%len(incs)] * 1e9)
				h.push(e)
			}
			b.ReportMetric(2*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}
