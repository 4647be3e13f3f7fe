package runner

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
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
func zoneReplayPlan(t *testing.T, platformXML, trace, hosts string, sets ...string) *scenario.Plan {
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
	return plantest.Validated(t, s, append([]string{"platform.hostfile=" + hf}, sets...)...)
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

// TestRefusedRouteStopsTheRun: a dragonfly of 2 groups of 1 router has no
// router wired to group 1 in group 0, so SimGrid 3.32 crashes on a route
// from group 0 to group 1 (platform's testdata/sgroutes/dragonfly_groups2),
// at the first message that needs it: the platform loads, a message from
// n1 to n0 runs (without cross traffic, which loads the route back), and
// one from n0 to n1 stops the run with the refusal, naming both hosts. So
// does a Dijkstra zone whose zone routes from A to B meet at different
// gateways of C (smpirun crashes on a1 → b1 and runs a1 → a2), and a
// Cluster zone's host with a loopback but no <host_link> (smpirun aborts
// on a message to or from it, not at load).
func TestRefusedRouteStopsTheRun(t *testing.T) {
	dir := t.TempDir()
	xml := filepath.Join(dir, "df.xml")
	if err := os.WriteFile(xml, []byte(`<platform version="4.1">
<cluster id="d" prefix="n" suffix="" radical="0-1" speed="1Gf" bw="1GBps" lat="10us" topology="DRAGONFLY" topo_parameters="2,1;1,1;1,1;1"/>
</platform>`), 0o644); err != nil {
		t.Fatal(err)
	}
	dj := filepath.Join(dir, "dj.xml") // A to B crosses C, entered at c1 and left at c2
	if err := os.WriteFile(dj, []byte(`<platform version="4.1"><zone id="top" routing="Dijkstra">
<zone id="A" routing="Full"><host id="a1" speed="1Gf"/><host id="a2" speed="1Gf"/><link id="la" bandwidth="1GBps" latency="1us"/><route src="a1" dst="a2"><link_ctn id="la"/></route></zone>
<zone id="B" routing="Full"><host id="b1" speed="1Gf"/></zone>
<zone id="C" routing="Full"><host id="c1" speed="1Gf"/><host id="c2" speed="1Gf"/><link id="lc" bandwidth="1GBps" latency="1us"/><route src="c1" dst="c2"><link_ctn id="lc"/></route></zone>
<link id="l1" bandwidth="1GBps" latency="1us"/><link id="l2" bandwidth="1GBps" latency="1us"/>
<zoneRoute src="A" dst="C" gw_src="a1" gw_dst="c1"><link_ctn id="l1"/></zoneRoute>
<zoneRoute src="C" dst="B" gw_src="c2" gw_dst="b1"><link_ctn id="l2"/></zoneRoute>
</zone></platform>`), 0o644); err != nil {
		t.Fatal(err)
	}
	star := filepath.Join(dir, "star.xml") // s1 has a loopback but no <host_link>: no links up or down
	if err := os.WriteFile(star, []byte(`<platform version="4.1"><zone id="S" routing="Cluster">
<host id="s1" speed="1Gf"/><host id="s2" speed="1Gf"/><host id="s3" speed="1Gf"/>
<link id="l1" bandwidth="1GBps" latency="1us"/><link id="l2" bandwidth="1GBps" latency="1us"/><link id="l3" bandwidth="1GBps" latency="1us"/>
<host_link id="s2" up="l2" down="l2"/><host_link id="s3" up="l3" down="l3"/>
<route src="s1" dst="s1"><link_ctn id="l1"/></route></zone></platform>`), 0o644); err != nil {
		t.Fatal(err)
	}
	pp := "0 init\n1 init\n0 send 1 0 1000\n1 recv 0 0 1000\n0 finalize\n1 finalize\n"
	for _, tt := range []struct {
		name, xml, hosts string
		trace, cross     string
		want             string // the error, or "" for a run
	}{
		{"Dijkstra, a1 to a2", dj, "a1\na2\n", pp, "0.05", ""},
		{"Dijkstra, a1 to b1", dj, "a1\nb1\n", pp, "0",
			"rank 0: a message from host a1 to host b1: " + dj + ":1: <zone id=\"top\">: the zone routes from A to B meet at different gateways, which SimGrid 3.32 cannot route (Dijkstra) (SimGrid fails on it too)"},
		// smpirun runs s2 → s3 and s1 → s1 (its loopback) and aborts on s1 → s2 and s2 → s1
		// ("StarZone routing (s1 - s2): no link UP from source node"); emu refused the platform
		{"star, s2 to s3", star, "s2\ns3\n", pp, "0", ""},
		{"star, s1 to s1", star, "s1\ns1\n", pp, "0.05", ""},
		{"star, s1 to s2", star, "s1\ns2\n", pp, "0",
			"rank 0: a message from host s1 to host s2: " + star + ":1: <zone id=\"S\">: no link up from s1, on its route to s2 (a star zone) (SimGrid fails on it too)"},
		{"star, s2 to s1", star, "s2\ns1\n", pp, "0",
			"rank 0: a message from host s2 to host s1: " + star + ":1: <zone id=\"S\">: no link down to s1, on its route from s2 (a star zone) (SimGrid fails on it too)"},
		{"n1 to n0", xml, "n0\nn1\n", "0 init\n1 init\n1 send 0 0 1000\n0 recv 1 0 1000\n0 finalize\n1 finalize\n", "0", ""},
		{"n1 to n0, cross traffic", xml, "n0\nn1\n", "0 init\n1 init\n1 send 0 0 1000\n0 recv 1 0 1000\n0 finalize\n1 finalize\n", "0.05",
			"rank 1: a message from host n1 to host n0: its cross traffic's route back: a dragonfly of 2 groups of 1 routers: group 0 has no router 1, wired to group 1, which SimGrid 3.32 cannot route (SimGrid fails on it too)"},
		{"n0 to n1", xml, "n0\nn1\n", "0 init\n1 init\n0 send 1 0 1000\n1 recv 0 0 1000\n0 finalize\n1 finalize\n", "0",
			"rank 0: a message from host n0 to host n1: a dragonfly of 2 groups of 1 routers: group 0 has no router 1, wired to group 1, which SimGrid 3.32 cannot route (SimGrid fails on it too)"},
	} {
		trace := filepath.Join(dir, "t.txt")
		if err := os.WriteFile(trace, []byte(tt.trace), 0o644); err != nil {
			t.Fatal(err)
		}
		p := zoneReplayPlan(t, tt.xml, trace, tt.hosts, "network.cross_traffic="+tt.cross)
		_, err := Run(p, Options{})
		var u *ranks.UnroutedError
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (!errors.As(err, &u) || u.Why == nil || !strings.HasSuffix(err.Error(), tt.want)):
			t.Errorf("%s: got %v\nwant …%s", tt.name, err, tt.want)
		}
	}
}
