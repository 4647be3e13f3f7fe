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

// Build SimGrid's fat-tree "2;4,4;1,2;1,2" and look at a route that climbs
// to the top level.
func ExampleNewFatTree() {
	c, err := fluid.ParseFatTreeParams("2;4,4;1,2;1,2")
	if err != nil {
		fmt.Println(err)
		return
	}
	c.Link = fluid.LinkSpec{Bandwidth: 1.25e9, Latency: 1e-6} // 10 Gb/s, 1 µs
	c.Naming = fluid.Naming{Prefix: "node-", Suffix: ".cluster"}
	ft, err := fluid.NewFatTree(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := ft.Route(0, 5)
	fmt.Println(ft.Hosts(), "hosts,", ft.HostName(5))
	fmt.Printf("%d links, %d switches crossed, %.0f µs\n", len(r.Links), r.Hops, r.Latency*1e6)
	for _, l := range r.Links {
		fmt.Println(ft.Links()[l].Class)
	}
	// Output:
	// 16 hosts, node-5.cluster
	// 4 links, 3 switches crossed, 4 µs
	// host
	// level1
	// level1
	// host
}

// Config errors name the field at fault.
func ExampleTorusConfig_Validate() {
	err := fluid.TorusConfig{Dims: []int{4, 0}, Link: fluid.LinkSpec{Bandwidth: 1e9}}.Validate()
	fmt.Println(err)
	// Output:
	// fluid: TorusConfig.Dims[1]: must be ≥ 1, got 0
}
