package examples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

func TestExamplesLoad(t *testing.T) {
	files, err := filepath.Glob("*.toml")
	if err != nil || len(files) < 4 {
		t.Fatalf("examples: %v %v", files, err)
	}
	files = append(files, "dahu/dahu.toml")
	// What each example promises in its comments.
	want := map[string]struct {
		app         string
		ranks       int
		hosts       int
		topology    string
		bandwidth   float64 // B/s
		n, nb, p, q int
	}{
		"dahu/dahu.toml":        {"hpl", 1024, 32, platform.TopoFlat, 12.5e9, 50000, 128, 32, 32},
		"stampede.toml":         {"hpl", 6006, 6006, platform.TopoFatTree, 7e9, 3875000, 1024, 77, 78},
		"dragonfly.toml":        {"hpl", 256, 256, platform.TopoDragonfly, 3.125e9, 10000, 128, 16, 16},
		"pingpong.toml":         {"pingpong", 2, 2, platform.TopoFlat, 1e10, 0, 0, 0, 0},
		"replay.toml":           {"replay", 8, 8, platform.TopoFatTree, 1e10, 0, 0, 0, 0},
		"alltoall-full.toml":    {"replay", 32, 32, platform.TopoFatTree, 1e10, 0, 0, 0, 0},
		"alltoall-tapered.toml": {"replay", 32, 32, platform.TopoFatTree, 1e10, 0, 0, 0, 0},
		"jobs-congestor.toml":   {"jobs", 32, 32, platform.TopoFatTree, 1e10, 0, 0, 0, 0},
	}
	for _, f := range files {
		s, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Validate()
		if err != nil {
			t.Fatal(err)
		}
		// An example reads every table it holds: no warning when it runs.
		for _, u := range p.Unread {
			t.Errorf("%s: %s", f, u)
		}
		w, ok := want[f]
		if !ok {
			t.Errorf("%s: an example without a check in this test", f)
			continue
		}
		if p.App != w.app || p.Ranks != w.ranks || p.Platform.Hosts != w.hosts || p.Platform.Topology != w.topology || p.Platform.LinkBandwidth != w.bandwidth {
			t.Errorf("%s: app %s, %d ranks on %d %s hosts at %g B/s", f, p.App, p.Ranks, p.Platform.Hosts, p.Platform.Topology, p.Platform.LinkBandwidth)
		}
		if w.app == "hpl" {
			h := p.HPL[0]
			if len(p.HPL) != 1 || h.N != w.n || h.NB != w.nb || h.P != w.p || h.Q != w.q {
				t.Errorf("%s: HPL %+v", f, h)
			}
		}
	}
}

// TestExamplesRun runs each example on a smaller problem (the machine unchanged) so
// the files stay runnable; the full sizes are run by hand (see each file).
func TestExamplesRun(t *testing.T) {
	shrink := map[string][]string{
		"dahu/dahu.toml":        {"hpl.n=2048", "hpl.max_iterations=2"},
		"stampede.toml":         {"hpl.n=16384", "hpl.nb=64", "hpl.grids=[[4,4]]"},
		"dragonfly.toml":        {"hpl.n=2048"},
		"pingpong.toml":         {"pingpong.iterations=2"},
		"replay.toml":           {},
		"alltoall-full.toml":    {},
		"alltoall-tapered.toml": {},
		"jobs-congestor.toml":   {},
	}
	for f, sets := range shrink {
		res, err := runner.Run(plantest.Load(t, f, sets...), runner.Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if res.SimulatedTime <= 0 {
			t.Errorf("%s: simulated time %g", f, res.SimulatedTime)
		}
	}
}

// TestHPLDatAndCluster checks the pair docs/tour.md runs with
// emu run --hpl-dat examples/HPL.dat --platform examples/cluster.xml.
func TestHPLDatAndCluster(t *testing.T) {
	s := scenario.Default()
	if err := s.UsePlatformXML("cluster.xml"); err != nil {
		t.Fatal(err)
	}
	if err := s.UseHPLDat("HPL.dat"); err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.HPL) == 0 || p.Ranks > p.Platform.Ranks() {
		t.Errorf("%d tests on %d ranks of %d", len(p.HPL), p.Ranks, p.Platform.Ranks())
	}
}

// TestExamplesTaperedTraffic backs docs/replay.md's claim on the two all-to-all
// examples: the 4:1 tapered fat tree is more than twice as slow as the full
// one, and its top level, while busy, runs at more than 95% of its capacity
// (SMPI's reverse traffic and bandwidth factor take the rest), against less
// than 80% on the full tree.
func TestExamplesTaperedTraffic(t *testing.T) {
	run := func(f string) (float64, observe.ClassUse) {
		s, err := scenario.Load(f)
		res := runScenario(t, s, err, runner.Options{Links: true})
		for _, c := range res.Traffic.Classes {
			if c.Class == "level1" {
				return res.SimulatedTime, c
			}
		}
		t.Fatalf("%s: no level1 class in %+v", f, res.Traffic.Classes)
		return 0, observe.ClassUse{}
	}
	tf, full := run("alltoall-full.toml")
	tt, tapered := run("alltoall-tapered.toml")
	if !(tt > 2*tf) || !(tapered.BusyUtil > 0.95) || !(full.BusyUtil < 0.8) {
		t.Errorf("full %g s (top level busy at %.3g), tapered %g s (%.3g)", tf, full.BusyUtil, tt, tapered.BusyUtil)
	}
	t.Logf("full %.6g s, top level %.3g busy, %.3g mean; tapered %.6g s (×%.3g), %.3g busy, %.3g mean",
		tf, full.BusyUtil, full.Util, tt, tt/tf, tapered.BusyUtil, tapered.Util)
}

// TestExamplesJobs backs docs/replay.md's claim on jobs-congestor.toml: placed at
// random, the ring runs more than 1.5× slower beside the all-to-all
// congestor than alone; placed in blocks (the ring on leaves 0–1, the
// congestor on 2–3) nothing is shared and both slowdowns are exactly 1.
func TestExamplesJobs(t *testing.T) {
	for _, tc := range []struct {
		placement string
		ok        func(ring, congestor float64) bool
	}{
		{"random", func(r, c float64) bool { return r > 1.5 && c >= 1 }},
		{"block", func(r, c float64) bool { return r == 1 && c == 1 }},
	} {
		data, err := os.ReadFile("jobs-congestor.toml")
		if err != nil {
			t.Fatal(err)
		}
		doc := strings.ReplaceAll(string(data), `placement = "random"`, `placement = "`+tc.placement+`"`)
		s, err := scenario.Parse([]byte(doc), "jobs-congestor.toml")
		res := runScenario(t, s, err, runner.Options{})
		ring, cong := res.Jobs[0], res.Jobs[1]
		if !tc.ok(ring.Slowdown, cong.Slowdown) {
			t.Errorf("%s: ring slowdown %.4g, congestor %.4g", tc.placement, ring.Slowdown, cong.Slowdown)
		}
		t.Logf("%s: ring %.6g s (alone %.6g s, ×%.4g), congestor %.6g s (alone %.6g s, ×%.4g)", tc.placement,
			ring.Time, ring.Alone, ring.Slowdown, cong.Time, cong.Alone, cong.Slowdown)
	}
}

// runScenario validates and runs a loaded (or parsed) scenario, failing the
// test on any error.
func runScenario(t *testing.T, s *scenario.Scenario, err error, opt runner.Options) *runner.Result {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(plantest.Validated(t, s), opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// gridCase is one run of docs/evidence/replay.md's table of traffic by topology and
// placement: a trace on alltoall-full.toml's platform reshaped by sets.
type gridCase struct {
	trace, placement, topo string
	time                   float64 // s
	topBusy, topShare      float64 // the highest class's utilisation while busy; the share of messages whose highest class it is
}

// TestExamplesPlacementGrid backs docs/evidence/replay.md's table: a 2-D stencil
// (stencil-32.txt: 8×4 periodic, 256 KiB halos, 1 ms of compute a step) and
// the all-to-all of alltoall-32.txt, on the full and the 4:1 tapered fat
// tree and a 32-host dragonfly, ranks placed in order or at random. The
// all-to-all is nearly twice as slow tapered or more (×1.95 at random, ×2.39
// in order);
// the stencil sends half its messages across the top level in order and
// 3/4 at random, so the taper costs it more at random than in order (and
// its top level, tapered, is saturated while busy in order).
func TestExamplesPlacementGrid(t *testing.T) {
	topos := []struct{ name, sets string }{
		{"full", "platform.fat_tree=2;8,4;1,8;1,1"},
		{"tapered", "platform.fat_tree=2;8,4;1,2;1,1"},
		{"dragonfly", "platform.topology=dragonfly platform.dragonfly=4,2;2,1;2,1;2"},
	}
	got := map[string]gridCase{}
	for _, trace := range []string{"stencil-32.txt", "alltoall-32.txt"} {
		for _, place := range []string{"block", "random"} {
			for _, topo := range topos {
				s, err := scenario.Load("alltoall-full.toml")
				if err != nil {
					t.Fatal(err)
				}
				for _, kv := range append(strings.Fields(topo.sets), "replay.file="+trace, "platform.speed=10Gf", "platform.placement="+place) {
					if err := s.Set(kv); err != nil {
						t.Fatal(err)
					}
				}
				res := runScenario(t, s, nil, runner.Options{Links: true})
				tr := res.Traffic
				top, hi := tr.Classes[len(tr.Classes)-1], tr.Highest[len(tr.Highest)-1]
				c := gridCase{trace, place, topo.name, res.SimulatedTime, top.BusyUtil, hi.MsgShare}
				got[trace+" "+place+" "+topo.name] = c
				t.Logf("%-16s %-6s %-9s %.4g ms, top class %s busy at %.3f, %.1f%% of messages reach it",
					trace, place, topo.name, 1e3*c.time, top.Class, c.topBusy, 100*c.topShare)
			}
		}
	}
	for _, place := range []string{"block", "random"} {
		full, tapered := got["alltoall-32.txt "+place+" full"], got["alltoall-32.txt "+place+" tapered"]
		if !(tapered.time > 1.9*full.time) {
			t.Errorf("all-to-all %s: tapered %g s, full %g s", place, tapered.time, full.time)
		}
	}
	sb, sr := got["stencil-32.txt block tapered"], got["stencil-32.txt random tapered"]
	costBlock := sb.time / got["stencil-32.txt block full"].time
	costRandom := sr.time / got["stencil-32.txt random full"].time
	if sb.topShare != 0.5 || sr.topShare != 0.765625 || !(costRandom > costBlock) || !(sb.topBusy > 0.99) {
		t.Errorf("stencil: top share %g in order, %g at random; taper costs ×%.3g in order, ×%.3g at random; top busy %g",
			sb.topShare, sr.topShare, costBlock, costRandom, sb.topBusy)
	}
}
