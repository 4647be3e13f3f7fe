package scenario_test

import (
	"fmt"

	"github.com/emu-hpc/emu/scenario"
)

func ExampleScenario_Set() {
	s, err := scenario.Parse([]byte(`
app = "pingpong"
[platform]
hosts = 2
link_bandwidth = "10Gbps"
link_latency = "1us"
`), "pp.toml")
	if err != nil {
		fmt.Println(err)
		return
	}
	// What-ifs in one flag each; a typo is an error naming the argument.
	fmt.Println(s.Set("platform.link_latency=5us"))
	fmt.Println(s.Set("pingpong.sizes=[8, \"64KiB\"]"))
	fmt.Println(s.Set("platform.link_latncy=5us"))
	p, err := s.Validate()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.App, p.Ranks, p.Platform.LinkLatency, p.Sizes)
	// Output:
	// <nil>
	// <nil>
	// --set platform.link_latncy=5us: unknown key platform.link_latncy (did you mean platform.link_latency?)
	// pingpong 2 5e-06 [8 65536]
}

func ExampleScenario_Validate() {
	// Errors name the file, the line and the key.
	s, _ := scenario.Parse([]byte("[platform]\nhosts = 2\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n[hpl]\ngrids = [[2, 2]]\n"), "hpl.toml")
	_, err := s.Validate()
	fmt.Println(err)
	// Output:
	// hpl.toml:6: hpl.grids: a 4-process grid needs more ranks than the 2 the platform offers (2 hosts × 1 cores)
}
