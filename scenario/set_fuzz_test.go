package scenario

import (
	"strings"
	"testing"
)

// setFuzzFiles are the real scenarios FuzzSet overrides: every kind of
// platform and application the examples hold.
var setFuzzFiles = []string{
	"../examples/pingpong.toml", "../examples/dahu/dahu.toml", "../examples/dahu/e.toml",
	"../examples/stampede.toml", "../examples/dragonfly.toml", "../examples/jobs-congestor.toml",
	"../examples/replay.toml", "../examples/alltoall-tapered.toml", "testdata/hpl.toml",
}

// FuzzSet applies two --set overrides to a real scenario and validates it:
// each refusal is one line naming the --set (or, from Validate, a key), and
// a plan that passes is one a run can use.
func FuzzSet(f *testing.F) {
	for i, set := range []string{"platform.link_latency=5us", "hpl.nb=[64,128]", "kernels.host_speed.\"dahu-13..16\"=0.5",
		"network.eager_threshold=1GiB", "jobs.0.hpl.n=1000", "hpl.grids=[[4,8]]", "platform.torus=[2,2]",
		"kernels.variability.spread=5%", "replay.file=x.txt", "platform.hosts=0"} {
		f.Add(uint8(i), set, "hpl.n=2000")
	}
	f.Fuzz(func(t *testing.T, which uint8, set1, set2 string) {
		file := setFuzzFiles[int(which)%len(setFuzzFiles)]
		s, err := Load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, set := range []string{set1, set2} {
			if err := s.Set(set); err != nil {
				if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "--set ") {
					t.Fatalf("%s: error %q: want one line naming the --set", file, msg)
				}
				return
			}
		}
		p, err := s.Validate()
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%s: multi-line error %q", file, err)
			}
			return
		}
		if p.Ranks < 1 || p.Ranks > p.Platform.Ranks() || p.Platform.Hosts < 1 || !(p.Platform.LinkBandwidth > 0) {
			t.Fatalf("%s with %q, %q: accepted an unusable plan: %d ranks on %d hosts", file, set1, set2, p.Ranks, p.Platform.Hosts)
		}
	})
}
