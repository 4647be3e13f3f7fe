package platform_test

import (
	"fmt"

	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/ranks"
)

// A SimGrid fat tree of 16 hosts (4 leaf switches of 4 hosts, 2 top
// switches), 1.25 GB/s and 1 µs a cable, as the machine of one's own MPI
// program: Build gives the topology, Placement the host of each rank. A
// 100,000 B message within a leaf crosses 2 cables, 2 µs + 100,016/1.25e9 s
// = 82.0128 µs; between leaves 4 cables, 84.0128 µs.
func ExampleParseXML() {
	xml := `<?xml version='1.0'?>
<platform version="4.1">
  <cluster id="ft" prefix="n-" radical="0-15" suffix="" speed="1Gf"
           bw="1.25GBps" lat="1us" topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2"/>
</platform>`
	p, err := platform.ParseXML([]byte(xml), "ft.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	topo, err := p.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	place := p.Placement(p.Ranks())
	fmt.Println(p.Topology, len(place), "ranks, rank 5 on", p.HostName(place[5]))
	cfg, _ := ranks.Preset("cm02")
	w, err := ranks.NewWorld(cfg, topo, place, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	err = w.Run(func(r *ranks.Rank) {
		c := r.World()
		switch c.Rank() {
		case 0:
			for _, dst := range []int{1, 5} {
				t0 := r.Now()
				c.Send(dst, 0, ranks.Msg{Bytes: 100_000})
				fmt.Printf("0 → %d: %.4f µs\n", dst, (r.Now()-t0)*1e6)
			}
		case 1, 5:
			c.Recv(0, 0)
		}
	})
	fmt.Println("error:", err)
	// Output:
	// fat-tree 16 ranks, rank 5 on n-5
	// 0 → 1: 82.0128 µs
	// 0 → 5: 84.0128 µs
	// error: <nil>
}
