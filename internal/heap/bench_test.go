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
// Figures at c44cae8 (ns per pop+push, three runs, the shared 2-core
// machine at load 2–3): n=16 binary 27.2–27.4, textbook 19.7–20.4;
// n=1024 binary 62.0–62.3, 4-ary 72.0–73.1, indexed 72.5–72.8, textbook
// 50.4–57.7; n=65536 binary 111–124, textbook 98.2–99.6. The generic heap
// is 13–35% slower than the specialised copy here: of about 12 ns at
// n=1024, a third field per entry (Tie) costs about 3.5 ns (measured on a
// textbook heap of three-field entries), the rest the calls the generic
// code keeps (Push and Pop are not inlined) and its variable arity.
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
