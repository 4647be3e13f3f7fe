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
func BenchmarkHeap(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	steps := make([]int64, 1<<12)
	for i := range steps {
		steps[i] = rng.Int64N(1e9)
	}
	step := func(i int) int64 { return steps[i%len(steps)] }
	report := func(b *testing.B) { b.ReportMetric(2*float64(b.N)/b.Elapsed().Seconds(), "ops/s") }
	for _, n := range []int{16, 1024, 65536} {
		for _, c := range []struct {
			name string
			o    Options
		}{{"binary", Options{}}, {"4-ary", Options{Arity: 4}}, {"indexed", Options{Indexed: true}}} {
			b.Run(fmt.Sprintf("n=%d/%s", n, c.name), func(b *testing.B) {
				h := New[int64, Untied](c.o)
				for i := range n {
					h.Push(Entry[int64, Untied]{Key: step(i), ID: int32(i)})
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					e := h.Pop()
					h.Push(Entry[int64, Untied]{Key: e.Key + step(i), ID: e.ID})
				}
				report(b)
			})
		}
		b.Run(fmt.Sprintf("n=%d/textbook", n), func(b *testing.B) {
			var h textbook
			for i := range n {
				h.push(pair{key: step(i), id: int32(i)})
			}
			b.ResetTimer()
			for i := range b.N {
				e := h.pop()
				h.push(pair{key: e.key + step(i), id: e.id})
			}
			report(b)
		})
	}
}
