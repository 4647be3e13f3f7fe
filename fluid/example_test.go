package fluid_test

import (
	"fmt"

	"github.com/emu-hpc/emu/fluid"
)

// An engine drives a System: start flows, ask for the next completion,
// advance its clock to it and finish the flow.
func ExampleSystem() {
	links := []fluid.Link{{Name: "wire", Bandwidth: 100}} // 100 B/s, shared
	s := fluid.NewSystem(links)
	s.Start(0, fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100})
	s.Start(0, fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 300})
	for {
		t, id, ok := s.NextCompletion()
		if !ok {
			break
		}
		s.Finish(t, id)
		fmt.Printf("flow %d done at %.1f s\n", id, t)
	}
	// Output:
	// flow 0 done at 2.0 s
	// flow 1 done at 4.0 s
}
