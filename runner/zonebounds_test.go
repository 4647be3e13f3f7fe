package runner

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/scenario"
)

// zoneBoundTol is the error allowed on a bound's hand-computed time, s: a
// few float operations on times of milliseconds.
const zoneBoundTol = 1e-15

// TestBoundsOnZones: seed 002's bounds on platforms of zones, taken link
// by link, against hand-computed times. n ranks send S = 1 MB each to
// one rank at once (its receives posted first), on plain max-min without
// SMPI's factors (cm02, factors "none", no envelope, TCP window, weight-S
// or cross-traffic), so a message alone over a route of latency L and
// least bandwidth B takes L + S/B:
//
//   - full.xml (platform/testdata/zones), two ranks on alpha to gamma:
//     route ab, bg_DOWN, gd, L = 13.7 + 271 + 7.3 µs = 292 µs, both flows
//     share bg_DOWN (117.5 MB/s): run L + 2S/B; contention-free (each flow
//     alone on its links) L + S/B; compute-only 0.
//   - mixed_zones.xml, four ranks on c0 to one on c1 (the dragonfly
//     cluster c: 1 GB/s, 1 µs cables, limiters of 3 GB/s on hosts and
//     routers): route c0's limiter, its up cable, the router's limiter,
//     c1's down cable, c1's limiter, L = 4 µs. Run: the four share the up
//     cable, L + 4S/1e9. Contention-free: the cables cap each flow at
//     1 GB/s but the limiters stay shared, 0.75 GB/s each: L + S/0.75e9.
func TestBoundsOnZones(t *testing.T) {
	const S = 1e6 // bytes
	for _, tc := range []struct {
		name, xml string
		senders   []string // their hosts; the receiver is last
		run, cf   float64  // s
	}{
		{"full", "full.xml", []string{"alpha", "alpha", "gamma"}, 292e-6 + 2*S/117.5e6, 292e-6 + S/117.5e6},
		{"mixed limiters", "mixed_zones.xml", []string{"c0", "c0", "c0", "c0", "c1"}, 4e-6 + 4*S/1e9, 4e-6 + S/0.75e9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := incastScenario(t, tc.xml, tc.senders, S)
			for _, c := range []struct {
				bound string
				want  float64
			}{{"", tc.run}, {scenario.BoundContentionFree, tc.cf}, {scenario.BoundComputeOnly, 0}} {
				p := plantest.Load(t, file)
				if c.bound != "" {
					if err := p.ApplyBound(c.bound); err != nil {
						t.Fatal(err)
					}
				}
				res, err := Run(p, Options{Bound: c.bound})
				if err != nil {
					t.Fatal(err)
				}
				if got := res.SimulatedTime; math.Abs(got-c.want) > zoneBoundTol {
					t.Errorf("%q: %.15g s, want %.15g s", c.bound, got, c.want)
				}
			}
		})
	}
}

// incastScenario writes a scenario replaying a TI trace on
// platform/testdata/zones' xml in which the ranks on hosts[:n-1] each send
// bytes to the rank on hosts[n-1], who posts its receives first, on plain
// max-min without SMPI's factors; it returns the scenario's path.
func incastScenario(t *testing.T, xml string, hosts []string, bytes float64) string {
	t.Helper()
	dir := t.TempDir()
	n := len(hosts)
	var trace strings.Builder
	for r := range n {
		fmt.Fprintf(&trace, "%d init\n", r)
	}
	for r := range n - 1 {
		fmt.Fprintf(&trace, "%d irecv %d %d %.0f\n", n-1, r, r, bytes)
	}
	for r := range n - 1 {
		fmt.Fprintf(&trace, "%d send %d %d %.0f\n", r, n-1, r, bytes)
	}
	for r := range n - 1 {
		fmt.Fprintf(&trace, "%d wait %d %d %d\n", n-1, r, n-1, r)
	}
	for r := range n {
		fmt.Fprintf(&trace, "%d finalize\n", r)
	}
	plat, err := filepath.Abs(filepath.Join("..", "platform", "testdata", "zones", xml))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("t.txt", trace.String())
	write("hosts.txt", strings.Join(hosts, "\n")+"\n")
	write("s.toml", fmt.Sprintf("app = \"replay\"\n[replay]\nfile = \"t.txt\"\n[platform]\nfile = %q\nhostfile = \"hosts.txt\"\nnp = %d\n"+
		"[network]\nmodel = \"cm02\"\nlat_factor = \"none\"\nbw_factor = \"none\"\nenvelope = \"0B\"\ntcp_gamma = \"0B\"\nweight_s = 0\ncross_traffic = 0\n", plat, n))
	return filepath.Join(dir, "s.toml")
}

// TestBoundsOnZonesWithProfiles: compute-only drops a platform's link
// profiles (its links are free) and keeps its hosts' speed profiles. On
// validation's backbone.xml the compute trace (SMPI's model; rank 0 on a,
// whose speed is 0.5 Gf to 60 ms, 1 Gf to 150 ms, 0.3 Gf after) ends
// when rank 0's second compute does: its 1e8 flops end at 0.06 + 7e7/1e9
// = 0.13 s; its 100 kB send is rendezvous and waits for rank 1's receive,
// posted after its own 2e8 flops at 1 Gf, at 0.2 s; then 2e8 flops at
// 0.3 Gf, 0.2 + 2e8/3e8 s. Its last message, and the others, are free.
// Contention-free is refused, naming bb's bandwidth profile: bb would be
// a fat pipe, whose capacity cannot follow a profile.
func TestBoundsOnZonesWithProfiles(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "validation", "testdata", "jobsprof"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "s.toml")
	doc := fmt.Sprintf("app = \"replay\"\n[replay]\nfile = %q\n[platform]\nfile = %q\n",
		filepath.Join(dir, "traces", "compute.txt"), filepath.Join(dir, "platforms", "backbone.xml"))
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	p := plantest.Load(t, file)
	if err := p.ApplyBound(scenario.BoundComputeOnly); err != nil {
		t.Fatal(err)
	}
	if len(p.Platform.Profiles.Speed) != 2 || len(p.Platform.Profiles.Bandwidth)+len(p.Platform.Profiles.Latency) != 0 {
		t.Errorf("compute-only's profiles: %d speed, %d bandwidth, %d latency; want 2, 0, 0",
			len(p.Platform.Profiles.Speed), len(p.Platform.Profiles.Bandwidth), len(p.Platform.Profiles.Latency))
	}
	res, err := Run(p, Options{Bound: scenario.BoundComputeOnly})
	if err != nil {
		t.Fatal(err)
	}
	if want := 0.2 + 2e8/3e8; math.Abs(res.SimulatedTime-want) > zoneBoundTol {
		t.Errorf("compute-only: %.15g s, want %.15g s", res.SimulatedTime, want)
	}
	err = plantest.Load(t, file).ApplyBound(scenario.BoundContentionFree)
	if want := filepath.Join(dir, "platforms", "backbone.xml") + `:19: <link id="bb"> bandwidth_file: contention-free makes link "bb" a fat pipe`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("contention-free: %v, want an error starting %q", err, want)
	}
}

// TestZoneBoundsAreTheClusters: a <cluster> alone is built from the
// [platform] keys, whose bounds scenario.ApplyBound sets; beside a <trace>
// the same cluster is a platform of zones, whose bounds are taken link by
// link. Both give the same times to the bit, run and bounds alike: an
// incast of three 10 MB messages (and a compute) over SimGrid's
// split-duplex and shared cluster links, backbone and limiters, SMPI's
// model. (Before, the zones' bounds changed nothing of their links.)
func TestZoneBoundsAreTheClusters(t *testing.T) {
	const incast = "0 init\n1 init\n2 init\n3 init\n3 irecv 0 0 10000000\n3 irecv 1 1 10000000\n3 irecv 2 2 10000000\n" +
		"0 send 3 0 10000000\n1 send 3 1 10000000\n2 send 3 2 10000000\n0 compute 1e8\n3 wait 0 3 0\n3 wait 1 3 1\n3 wait 2 3 2\n" +
		"0 finalize\n1 finalize\n2 finalize\n3 finalize\n"
	for _, sharing := range []string{"SPLITDUPLEX", "SHARED", "FATPIPE"} {
		times := map[string][2]float64{}
		for i, beside := range []string{"", `<trace id="unused" periodicity="1">0 1</trace>`} {
			file := filepath.Join(scenariotest.WriteScenario(t, map[string]string{
				"incast.txt": incast,
				"p.xml": "<?xml version='1.0'?>\n<platform version=\"4.1\">\n" + beside +
					"<cluster id=\"c\" prefix=\"n-\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\" sharing_policy=\"" + sharing +
					"\" bb_bw=\"2.25GBps\" bb_lat=\"500us\" limiter_link=\"200MBps\" loopback_bw=\"1GBps\" loopback_lat=\"1us\"/>\n</platform>\n",
				"s.toml": "app = \"replay\"\n[replay]\nfile = \"incast.txt\"\n[platform]\nfile = \"p.xml\"\n",
			}), "s.toml")
			for _, bound := range []string{"", scenario.BoundContentionFree, scenario.BoundComputeOnly} {
				p := plantest.Load(t, file)
				if zones := p.Platform.Topology == platform.TopoZones; zones != (i == 1) {
					t.Fatalf("%s: platform %d is a platform of zones: %v", sharing, i, zones)
				}
				if bound != "" {
					if err := p.ApplyBound(bound); err != nil {
						t.Fatal(err)
					}
				}
				res, err := Run(p, Options{Bound: bound})
				if err != nil {
					t.Fatal(err)
				}
				tt := times[bound]
				tt[i] = res.SimulatedTime
				times[bound] = tt
			}
		}
		for bound, tt := range times {
			if tt[0] != tt[1] {
				t.Errorf("%s %q: the cluster %.17g s, as zones %.17g s", sharing, bound, tt[0], tt[1])
			}
		}
		if !(times[scenario.BoundComputeOnly][0] < times[scenario.BoundContentionFree][0] && times[scenario.BoundContentionFree][0] <= times[""][0]) {
			t.Errorf("%s: compute-only %g s, contention-free %g s, run %g s: want compute-only < contention-free ≤ run", sharing,
				times[scenario.BoundComputeOnly][0], times[scenario.BoundContentionFree][0], times[""][0])
		}
	}
}
