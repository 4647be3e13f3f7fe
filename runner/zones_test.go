package runner

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/scenario"
)

// ppTrace is what smpirun -trace-ti wrote (ti-one-file) for a 2-rank MPI
// program: 1e8 flops on each rank, then two ping-pongs of 131,072 doubles.
const ppTrace = `0 init
1 init
0 compute 1e+08
1 compute 1e+08
0 send 1 0 131072 0
1 recv 0 0 131072 0
0 recv 1 0 131072 0
1 send 0 0 131072 0
0 send 1 0 131072 0
1 recv 0 0 131072 0
0 recv 1 0 131072 0
1 send 0 0 131072 0
1 finalize
0 finalize
`

// zoneReplayPlan is the plan replaying trace on the platform file, its ranks on
// the hosts of a hostfile holding hosts (written in a scratch folder).
func zoneReplayPlan(t *testing.T, platformXML, trace, hosts string) *scenario.Plan {
	t.Helper()
	hf := filepath.Join(t.TempDir(), "hosts.txt")
	if err := os.WriteFile(hf, []byte(hosts), 0o644); err != nil {
		t.Fatal(err)
	}
	s := scenario.Default()
	if err := s.UsePlatformXML(platformXML); err != nil {
		t.Fatal(err)
	}
	if err := s.UseReplay(trace); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("platform.hostfile=" + hf); err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// smpiTol is how far emu's time may be from smpirun's, s: smpirun's program
// printed MPI_Wtime with 9 decimals.
const smpiTol = 1e-9

// TestZonesReplayMatchesSMPI replays the trace on platforms of zones, its
// two ranks on two hosts named by a hostfile, against the program itself
// run by smpirun 3.32 on the same platform and hosts (SMPI's defaults,
// --cfg=smpi/simulate-computation:no; docs/evidence/zones.md): routes
// through Floyd and Dijkstra zones, gateways, clusters among zones, each
// host at its own speed.
func TestZonesReplayMatchesSMPI(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "pp.txt")
	if err := os.WriteFile(trace, []byte(ppTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		platform, a, b string
		smpi           float64 // s, smpirun's rank 1 at MPI_Finalize
	}{
		{"nested2.xml", "a1", "c1", 0.141778251}, // a Floyd zone path joined inside a Dijkstra zone
		{"nested.xml", "w1", "e3", 0.109956444},  // into a Dijkstra zone
		{"clusters.xml", "c1-0.site", "f1", 0.167201282},
		{"nested2.xml", "b1", "b1", 0.033779214}, // one host of 4 cores: the loopback
		{"clusters.xml", "c1-1.site", "c1-1.site", 0.165398574},
	}
	for _, tt := range tests {
		t.Run(tt.platform+"/"+tt.a+"-"+tt.b, func(t *testing.T) {
			p := zoneReplayPlan(t, filepath.Join("..", "platform", "testdata", "zones", tt.platform), trace, tt.a+"\n"+tt.b+"\n")
			res, err := Run(p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Replay.Time; math.Abs(got-tt.smpi) > smpiTol {
				t.Errorf("emu %.9f s, smpirun %.9f s", got, tt.smpi)
			}
		})
	}
}

// TestZonesKeys: over a platform of zones the [platform] keys that shape a
// cluster are errors, cores_per_host and speed set every host's.
func TestZonesKeys(t *testing.T) {
	file := filepath.Join("..", "platform", "testdata", "zones", "full.xml")
	load := func(sets ...string) (*scenario.Plan, error) {
		s := scenario.Default()
		if err := s.UsePlatformXML(file); err != nil {
			t.Fatal(err)
		}
		for _, kv := range append(sets, "hpl.n=200", "hpl.grids=[[2,2]]") {
			if err := s.Set(kv); err != nil {
				t.Fatal(err)
			}
		}
		return s.Validate()
	}
	p, err := load()
	if err != nil {
		t.Fatal(err)
	}
	if p.Platform.Ranks() != 16 || p.Platform.HostSpeed(1) != 50e6 {
		t.Errorf("ranks %d, beta at %g flop/s; want 16 and its pstate 1, 50 Mf", p.Platform.Ranks(), p.Platform.HostSpeed(1))
	}
	if p, err = load("platform.cores_per_host=3", "platform.speed=2Gf"); err != nil {
		t.Fatal(err)
	}
	if p.Platform.Ranks() != 15 || p.Platform.HostSpeed(1) != 2e9 {
		t.Errorf("ranks %d, speed %g; want 5 × 3 and 2 Gf", p.Platform.Ranks(), p.Platform.HostSpeed(1))
	}
	for _, kv := range []string{"platform.link_bandwidth=1GBps", "platform.hosts=4", "platform.topology=torus"} {
		if _, err := load(kv); err == nil {
			t.Errorf("%s over a platform of zones: no error", kv)
		}
	}
	res, err := Run(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.HPL) != 1 || !(res.HPL[0].Time > 0) {
		t.Errorf("HPL on a platform of zones: %+v", res.HPL)
	}
}

// TestZonesUnroutedNoted: ranks on two hosts a Full zone does not connect
// get a note, and their run stops at the first message between them, as
// smpirun 3.32 aborts there ("no connecting path"; docs/evidence/zones.md);
// where the route exists, neither.
func TestZonesUnroutedNoted(t *testing.T) {
	dir := t.TempDir()
	xml := filepath.Join(dir, "abc.xml")
	if err := os.WriteFile(xml, []byte(`<platform version="4.1"><zone id="z" routing="Full">
<host id="a" speed="1Gf"/><host id="b" speed="1Gf"/><host id="c" speed="1Gf"/>
<link id="l" bandwidth="1GBps" latency="1us"/>
<route src="a" dst="b"><link_ctn id="l"/></route></zone></platform>`), 0o644); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(dir, "pp.txt")
	if err := os.WriteFile(trace, []byte(ppTrace), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		hosts string
		notes int
	}{{"a\nc\n", 1}, {"a\nb\n", 0}} {
		p := zoneReplayPlan(t, xml, trace, tt.hosts)
		n := 0
		for _, note := range p.Notes {
			// (it said "emu moves it in no time" after the run had come to stop there)
			if strings.Contains(note, "have no route in the platform (first a → c): a message between them stops the run") {
				n++
			}
		}
		if n != tt.notes {
			t.Errorf("hosts %q: notes %q, want %d about a → c", tt.hosts, p.Notes, tt.notes)
		}
		// and the run stops at the first message between them, as smpirun does
		_, err := Run(p, Options{})
		var u *ranks.UnroutedError
		switch unrouted := errors.As(err, &u) && u.From == "a" && u.To == "c"; {
		case tt.notes > 0 && !unrouted:
			t.Errorf("hosts %q: the run gave %v, want it stopped at the message a → c", tt.hosts, err)
		case tt.notes == 0 && err != nil:
			t.Errorf("hosts %q: %v", tt.hosts, err)
		}
	}
}
