package runner

import (
	"reflect"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/scenario"
)

// A 1 MB cm02 ping-pong on a flat cluster of 10 Gb/s (1.25 GB/s), 1 µs links:
// one way is (1e6 + 16 B envelope) / 1.25e9 B/s + 2 × 1 µs = 802.0128 µs
// (TestLimiterLinkCapsHostThroughput). With the host class at 0.5 GB/s it is
// 1000016 / 0.5e9 + 2 µs = 2002.032 µs; with a 1 µs backbone at 0.25 GB/s
// behind 1.25 GB/s host links, 1000016 / 0.25e9 + 3 µs = 4003.064 µs; a class
// the platform lacks changes nothing.
func TestClassBandwidthIsAPerClassWhatIf(t *testing.T) {
	const tol = 1e-9 // s
	const doc = "app = \"pingpong\"\n[network]\nmodel = \"cm02\"\n[pingpong]\nsizes = [1000000]\niterations = 1\n" +
		"[platform]\nhosts = 2\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n"
	for _, c := range []struct {
		name string
		sets []string
		bw   map[string]float64
		want float64 // one way, s
	}{
		{"as given", nil, nil, 802.0128e-6},
		{"host", nil, map[string]float64{"host": 0.5e9}, 2002.032e-6},
		{"absent class", nil, map[string]float64{"level1": 1}, 802.0128e-6},
		{"backbone", []string{"platform.backbone_bandwidth=10Gbps", "platform.backbone_latency=1us"},
			map[string]float64{"backbone": 0.25e9}, 4003.064e-6},
	} {
		s, err := scenario.Parse([]byte(doc), "s.toml")
		for _, kv := range c.sets {
			if err == nil {
				err = s.Set(kv)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Validate()
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(p, Options{ClassBandwidth: c.bw})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := res.Pingpong[0].OneWay; got < c.want-tol || got > c.want+tol {
			t.Errorf("%s: one way %.7g µs, want %.7g µs", c.name, got*1e6, c.want*1e6)
		}
		if c.name == "backbone" {
			topo, err := p.Platform.Build()
			if err != nil {
				t.Fatal(err)
			}
			names, bw := fluid.ClassBandwidths(topo)
			if !reflect.DeepEqual(names, []string{"host", "backbone"}) || !reflect.DeepEqual(bw, []float64{1.25e9, 1.25e9}) {
				t.Errorf("ClassBandwidths: %v %v %v, want host and backbone at 1.25e9 B/s", names, bw, err)
			}
		}
	}
}
