package heap_test

import (
	"fmt"

	"github.com/emu-hpc/emu/internal/heap"
)

// Jobs named by their index in the caller's table, queued by deadline; an
// indexed heap lets a deadline move without a search.
func Example() {
	jobs := []string{"parse", "solve", "print"}
	deadline := []float64{3, 1, 2}
	var h heap.Indexed[float64, int32]
	for id, d := range deadline {
		h.Push(heap.Entry[float64, int32]{Key: d, ID: int32(id)})
	}
	h.Fix(heap.Entry[float64, int32]{Key: 0.5, ID: 0}) // parse is due first after all
	for h.Len() > 0 {
		e := h.Pop()
		fmt.Println(jobs[e.ID], e.Key)
	}
	// Output:
	// parse 0.5
	// solve 1
	// print 2
}
