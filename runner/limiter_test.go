package runner

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/emu-hpc/emu/scenario"
)

// validateRun validates and runs s, unless err (from building s) is set.
func validateRun(s *scenario.Scenario, err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	p, err := s.Validate()
	if err != nil {
		return nil, err
	}
	return Run(p, Options{})
}

// SimGrid's limiter_link (and platform.limiter_bandwidth) caps each host's total
// throughput with a shared link in both directions, on every topology. A 1 MB
// ping-pong under cm02 on 10 Gb/s (1.25 GB/s) links with 1 us latency, one-way:
// without a limiter (1e6 + 16 B envelope) / 1.25e9 B/s + 2 × 1 us = 802.0128 us;
// behind a 1 GB/s limiter (latency 0) the bottleneck is 1e9 B/s: 1002.016 us.
func TestLimiterLinkCapsHostThroughput(t *testing.T) {
	const tol = 1e-9 // s
	dir := t.TempDir()
	xml := filepath.Join(dir, "lim.xml")
	if err := os.WriteFile(xml, []byte("<?xml version='1.0'?>\n<platform version=\"4.1\">\n"+
		"  <cluster id=\"c\" prefix=\"n\" radical=\"0-3\" suffix=\"\" speed=\"1Gf\" bw=\"10Gbps\" lat=\"1us\" limiter_link=\"1GBps\"/>\n</platform>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const pp = "app = \"pingpong\"\n[network]\nmodel = \"cm02\"\n[pingpong]\nsizes = [1000000]\niterations = 1\n"
	const plat = "[platform]\nhosts = 2\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n"
	for _, c := range []struct {
		name, doc string
		sets      []string
		xml       bool
		want      float64 // one-way, s
	}{
		{"no limiter", pp + plat, nil, false, 802.0128e-6},
		{"limiter key", pp + plat + "limiter_bandwidth = \"1GBps\"\n", nil, false, 1002.016e-6},
		{"XML limiter_link", pp, nil, true, 1002.016e-6},
		{"torus", pp + plat, []string{"platform.topology=torus", "platform.torus=[2]", "platform.limiter_bandwidth=1GBps"}, false, 1002.016e-6 - 1e-6},
		{"fat tree", pp + plat, []string{"platform.topology=fat-tree", "platform.fat_tree=1;2;1;1", "platform.limiter_bandwidth=1GBps"}, false, 1002.016e-6},
		{"dragonfly", pp + plat, []string{"platform.topology=dragonfly", "platform.dragonfly=1,1;1,1;1,1;2", "platform.limiter_bandwidth=1GBps"}, false, 1002.016e-6},
	} {
		s, err := scenario.Parse([]byte(c.doc), "s.toml")
		if err != nil {
			t.Fatal(err)
		}
		if c.xml {
			if err := s.UsePlatformXML(xml); err != nil {
				t.Fatal(err)
			}
		}
		for _, kv := range c.sets {
			if err == nil {
				err = s.Set(kv)
			}
		}
		res, err := validateRun(s, err)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := res.Pingpong[0].OneWay; got < c.want-tol || got > c.want+tol {
			t.Errorf("%s: one-way %.7g us, want %.7g us", c.name, got*1e6, c.want*1e6)
		}
	}
}
