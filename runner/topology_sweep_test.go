package runner

import (
	"testing"

	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/scenario"
)

// A platform may describe its machine in several topologies when it names the one
// it uses: the others' keys wait for a --set (or a tune sweep) of
// platform.topology. Without platform.topology they are still a mistake.
func TestPlatformKeepsOtherTopologiesWhenItNamesOne(t *testing.T) {
	const doc = `[platform]
topology = "flat"
hosts = 16
link_bandwidth = "10Gbps"
link_latency = "1us"
backbone_bandwidth = "100Gbps"
fat_tree = "2;4,4;1,2;1,2"
torus = [4, 4]
dragonfly = "2,1;2,1;2,1;2"
[hpl]
n = 200
grids = "4x4"
`
	for topo, want := range map[string]string{"": platform.TopoFlat, "flat": platform.TopoFlat, "fat-tree": platform.TopoFatTree, "torus": platform.TopoTorus, "dragonfly": platform.TopoDragonfly} {
		s, err := scenario.Parse([]byte(doc), "s.toml")
		if err != nil {
			t.Fatal(err)
		}
		if topo != "" {
			if err := s.Set("platform.topology=" + topo); err != nil {
				t.Fatal(err)
			}
		}
		p, err := s.Validate()
		if err != nil {
			t.Errorf("topology %q: %v", topo, err)
			continue
		}
		if p.Platform.Topology != want || p.Platform.Hosts != 16 {
			t.Errorf("topology %q: got %s with %d hosts, want %s with 16", topo, p.Platform.Topology, p.Platform.Hosts, want)
		}
		if _, err := Run(p, Options{}); err != nil {
			t.Errorf("topology %q: %v", topo, err)
		}
	}
	const unnamed = "[platform]\nhosts = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\ntorus = [2, 2]\n"
	s, err := scenario.Parse([]byte(unnamed), "s.toml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Validate(); err == nil || err.Error() != `s.toml:5: platform.torus: given for a flat platform (it belongs to topology = "torus")` {
		t.Errorf("torus without a topology: %v", err)
	}
}
