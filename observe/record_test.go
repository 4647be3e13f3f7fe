package observe_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/sensitivity"
)

// timeTol is the tolerance on simulated times compared across the engine and the
// graph evaluation, s (sums of a few dozen floats of order 1e-3 s).
const timeTol = 1e-12

// recordRun runs main on a 2-host flat cluster (10 GB/s, 1 us links: 2 us routes),
// cm02 without polling costs, and returns the simulated time and the graph.
func recordRun(t *testing.T, n int, main func(r *ranks.Rank), hooks ...ranks.Hook) (float64, *observe.GraphRecorder) {
	t.Helper()
	return recordRunMode(t, n, observe.EndToEndLatency, main, hooks...)
}

// recordRunMode is recordRun in the given latency mode.
func recordRunMode(t *testing.T, n int, mode observe.LatencyMode, main func(r *ranks.Rank), hooks ...ranks.Hook) (float64, *observe.GraphRecorder) {
	t.Helper()
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: n, Link: fluid.LinkSpec{Bandwidth: 1e10, Latency: 1e-6}})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := ranks.Preset("cm02")
	cfg.IprobeCost, cfg.TestCost, cfg.TCPGamma = 0, 0, 0
	place := make([]int, n)
	for i := range place {
		place[i] = i
	}
	w, err := ranks.NewWorld(cfg, topo, place, 1)
	if err != nil {
		t.Fatal(err)
	}
	rec := observe.NewGraphRecorder(n, place, observe.RecordOptions{Latency: mode})
	w.AddHook(rec.Hook)
	for _, h := range hooks {
		w.AddHook(h)
	}
	if err := w.Run(main); err != nil {
		t.Fatal(err)
	}
	return w.Now(), rec
}

func TestGraphRecorderReproducesTheRun(t *testing.T) {
	const route = 2e-6 // s, two 1 us links
	tests := []struct {
		name string
		main func(r *ranks.Rank)
		// latency terms on the critical path: T(ℓ) = T(route) + terms·(ℓ − route)
		terms int
	}{
		{"eager late receiver", func(r *ranks.Rank) {
			c := r.World()
			if r.ID() == 0 {
				r.Compute(1e-3, "dgemm")
				c.Send(1, 7, ranks.Msg{Bytes: 1024})
			} else {
				r.Compute(2e-3, "dgemm") // the message waits for the receive: 2 ms + 1 latency
				c.Recv(0, 7)
				r.Compute(1e-3, "dgemm")
			}
		}, 1},
		{"rendezvous ping-pong", func(r *ranks.Rank) {
			c := r.World()
			if r.ID() == 0 {
				r.Compute(1e-3, "dgemm")
				c.Send(1, 1, ranks.Msg{Bytes: 1 << 20}) // 1 MiB: rendezvous
				c.Recv(1, 2)
			} else {
				c.Recv(0, 1)
				r.Compute(5e-4, "dtrsm")
				c.Send(0, 2, ranks.Msg{Bytes: 8})
			}
		}, 2},
		{"nonblocking ring", func(r *ranks.Rank) {
			c := r.World()
			next, prev := (r.ID()+1)%c.Size(), (r.ID()+c.Size()-1)%c.Size()
			q := c.Irecv(prev, 0)
			c.Send(next, 0, ranks.Msg{Bytes: 100000})
			r.Compute(float64(r.ID()+1)*1e-4, "dgemm")
			q.Wait()
		}, -1},
	}
	for _, tt := range tests {
		n := 2
		if tt.terms < 0 {
			n = 4
		}
		end, rec := recordRun(t, n, tt.main)
		g, err := rec.Graph()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := g.Runtime([]float64{route}); math.Abs(got-end) > timeTol {
			t.Errorf("%s: graph gives %.9g s at the run's latency, the run took %.9g s", tt.name, got, end)
		}
		if tt.terms >= 0 {
			const more = 1e-5 // s of extra latency
			want := end + float64(tt.terms)*(more-route)
			if got := g.Runtime([]float64{more}); math.Abs(got-want) > timeTol {
				t.Errorf("%s: T(%g) = %.9g s, want %.9g (%d latency terms)", tt.name, more, got, want, tt.terms)
			}
		}
	}
}

// fatTreeRun runs main on 4 ranks of a two-level fat tree (2 hosts per leaf, one
// spine: ranks 0,1 on one leaf, 2,3 on the other, so 0→1 crosses 2 links and 0→2
// crosses 4), links of 10 GB/s and the given latency, cm02 without polling costs
// and with the given latency-factor table ("" = none).
func fatTreeRun(t *testing.T, link float64, latFactor string, mode observe.LatencyMode, main func(r *ranks.Rank)) (float64, *sensitivity.Graph) {
	t.Helper()
	end, rec := fatTreeRecord(t, link, latFactor, mode, main)
	g, err := rec.Graph()
	if err != nil {
		t.Fatal(err)
	}
	return end, g
}

// fatTreeRecord is fatTreeRun returning the recorder, before Graph.
func fatTreeRecord(t *testing.T, link float64, latFactor string, mode observe.LatencyMode, main func(r *ranks.Rank)) (float64, *observe.GraphRecorder) {
	t.Helper()
	return switchedFatTreeRecord(t, link, 0, latFactor, mode, main)
}

// switchedFatTreeRecord is fatTreeRecord with a latency of switchLat at every
// switch a route crosses.
func switchedFatTreeRecord(t *testing.T, link, switchLat float64, latFactor string, mode observe.LatencyMode, main func(r *ranks.Rank)) (float64, *observe.GraphRecorder) {
	t.Helper()
	ft, err := fluid.NewFatTree(fluid.FatTreeConfig{Levels: 2, Down: []int{2, 2}, Up: []int{1, 1}, Parallel: []int{1, 1},
		Link: fluid.LinkSpec{Bandwidth: 1e10, Latency: link}})
	if err != nil {
		t.Fatal(err)
	}
	topo, err := fluid.WithSwitchLatency(ft, switchLat)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := ranks.Preset("cm02")
	cfg.IprobeCost, cfg.TestCost, cfg.TCPGamma = 0, 0, 0
	if latFactor != "" {
		cfg.LatFactor = ranks.MustParseTable(latFactor)
	}
	place := []int{0, 1, 2, 3}
	w, err := ranks.NewWorld(cfg, topo, place, 1)
	if err != nil {
		t.Fatal(err)
	}
	rec := observe.NewGraphRecorder(4, place, observe.RecordOptions{Latency: mode, SwitchLatency: switchLat,
		LatFactor: func(b int) float64 { return cfg.LatFactor.Value(b+cfg.Envelope, 1) }})
	w.AddHook(rec.Hook)
	if err := w.Run(main); err != nil {
		t.Fatal(err)
	}
	return w.Now(), rec
}

// relayAcrossLeaves: rank 0 computes 1 ms and sends 8 bytes to rank 1 (same leaf,
// 2 links), which forwards 8 bytes to rank 2 (other leaf, 4 links); rank 2 then
// computes 1 ms. The critical path holds both messages: 2 + 4 = 6 link latencies.
func relayAcrossLeaves(r *ranks.Rank) {
	c := r.World()
	switch r.ID() {
	case 0:
		r.Compute(1e-3, "dgemm")
		c.Send(1, 0, ranks.Msg{Bytes: 8})
	case 1:
		c.Recv(0, 0)
		c.Send(2, 0, ranks.Msg{Bytes: 8})
	case 2:
		c.Recv(1, 0)
		r.Compute(1e-3, "dgemm")
	}
}

func TestWireLatencyOnAFatTree(t *testing.T) {
	const (
		link     = 1e-6 // s
		moreLink = 3e-6 // s, the re-emulated link latency
		terms    = 6    // 2-link + 4-link message on the critical path
	)
	end, g := fatTreeRun(t, link, "", observe.WireLatency, relayAcrossLeaves)
	if base := g.Baseline(); len(base) != 1 || base[0] != link {
		t.Fatalf("wire baseline %v, want [%g] (one link, no factor class)", base, link)
	}
	if got := g.Runtime([]float64{link}); math.Abs(got-end) > timeTol {
		t.Errorf("graph at the link latency %.12f s, run %.12f s", got, end)
	}
	// Re-emulating with 3 µs links moves the run by 6 × 2 µs; so must the graph.
	endMore, _ := fatTreeRun(t, moreLink, "", observe.WireLatency, relayAcrossLeaves)
	if got := g.Runtime([]float64{moreLink}); math.Abs(got-endMore) > timeTol {
		t.Errorf("graph at %g s: %.12f s, re-emulated %.12f s", moreLink, got, endMore)
	}
	if d := endMore - end; math.Abs(d-terms*(moreLink-link)) > timeTol {
		t.Errorf("re-emulation moved by %g s, want %d link latencies × %g s", d, terms, moreLink-link)
	}

	// End to end, the two messages (2 µs and 4 µs) tie; the baseline is the smaller,
	// 2 µs, and the 4-link message is charged 2 µs too: the graph misses 2 µs.
	end2, g2 := fatTreeRun(t, link, "", observe.EndToEndLatency, relayAcrossLeaves)
	if base := g2.Baseline(); len(base) != 1 || base[0] != 2*link {
		t.Fatalf("end-to-end baseline %v, want [%g]", base, 2*link)
	}
	if got, want := g2.Runtime([]float64{2 * link}), end2-2*link; math.Abs(got-want) > timeTol {
		t.Errorf("end-to-end graph at 2 µs: %.12f s, want the run %.12f s less 2 µs", got, end2)
	}
}

func TestWireLatencyWithLatencyFactors(t *testing.T) {
	// Factor 3 for every message (payload + envelope > 0 bytes): a 2-link message
	// costs 3 × 2 links. The graph carries 2 terms of class 0 and 2 of class 1
	// (baseline (3−1)·ℓ0); at its baseline it is the run, and moving both classes
	// as re-emulation moves them (ℓ0 → 3 µs, class 1 → 2 × 3 µs) gives the
	// re-emulated run: 6 links × 3 × 2 µs later.
	const (
		link, moreLink = 1e-6, 3e-6 // s
		factor         = 3.0
		terms          = 6
	)
	end, g := fatTreeRun(t, link, "0:3", observe.WireLatency, relayAcrossLeaves)
	base := g.Baseline()
	if len(base) != 2 || base[0] != link || math.Abs(base[1]-(factor-1)*link) > timeTol {
		t.Fatalf("baseline %v, want [%g %g]", base, link, (factor-1)*link)
	}
	if got := g.Runtime(base); math.Abs(got-end) > timeTol {
		t.Errorf("graph at its baseline %.12f s, run %.12f s", got, end)
	}
	endMore, _ := fatTreeRun(t, moreLink, "0:3", observe.WireLatency, relayAcrossLeaves)
	if got := g.Runtime([]float64{moreLink, (factor - 1) * moreLink}); math.Abs(got-endMore) > timeTol {
		t.Errorf("graph with both classes moved: %.12f s, re-emulated %.12f s", got, endMore)
	}
	if d := endMore - end; math.Abs(d-terms*factor*(moreLink-link)) > timeTol {
		t.Errorf("re-emulation moved by %g s, want %d × %g × %g s", d, terms, factor, moreLink-link)
	}
	// Sweeping class 0 alone (emu sensitivity's ℓ) holds the factor's excess: the
	// slope is 6 links, not 6 × 3.
	if got, want := g.Runtime([]float64{moreLink, (factor - 1) * link}), end+terms*(moreLink-link); math.Abs(got-want) > timeTol {
		t.Errorf("class-0 sweep: %.12f s, want %.12f s", got, want)
	}
}

func TestParseLatencyMode(t *testing.T) {
	for _, m := range []observe.LatencyMode{observe.WireLatency, observe.EndToEndLatency} {
		got, err := observe.ParseLatencyMode(m.String())
		if err != nil || got != m {
			t.Errorf("ParseLatencyMode(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := observe.ParseLatencyMode("hops"); err == nil {
		t.Error("ParseLatencyMode(\"hops\"): no error")
	}
}

func ExampleParseLatencyMode() {
	m, err := observe.ParseLatencyMode("wire")
	fmt.Println(m, err)
	_, err = observe.ParseLatencyMode("links")
	fmt.Println(err)
	// Output:
	// wire <nil>
	// latency mode "links": want "wire" or "end-to-end"
}

// FuzzParseLatencyMode: a mode parses only from its own name, and back.
func FuzzParseLatencyMode(f *testing.F) {
	for _, s := range []string{"wire", "end-to-end", "", "Wire", "end_to_end", "wire "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := observe.ParseLatencyMode(s)
		if err != nil {
			return
		}
		if m.String() != s {
			t.Errorf("ParseLatencyMode(%q) = %v", s, m)
		}
	})
}

// BenchmarkRecordLatencyModes: the default scenario recorded in each latency mode;
// wire mode looks up each message's latency factor and keeps factor classes.
func BenchmarkRecordLatencyModes(b *testing.B) {
	p, err := scenario.Default().Validate()
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range []observe.LatencyMode{observe.EndToEndLatency, observe.WireLatency} {
		b.Run(m.String(), func(b *testing.B) {
			edges := 0
			for b.Loop() {
				res, err := runner.Run(p, runner.Options{Graph: true, GraphLatency: m})
				if err != nil {
					b.Fatal(err)
				}
				edges = res.Graph.NumEdges()
			}
			b.ReportMetric(float64(edges)*float64(b.N)/b.Elapsed().Seconds(), "edges/s")
		})
	}
}

// TestWireLatencyPerLinkClass: the relay's messages cross 2 host cables (0→1,
// same leaf) and 2 host + 2 level1 cables (1→2, through the spine), so the
// per-link-class graph carries λ_host = 4 and λ_level1 = 2 on its critical
// path, each class at its links' latency; at that baseline it is the run, and
// moving only the level-1 latency by d moves T by 2d. With latency factor 3,
// the factor's excess class moves with both link classes' cables (6 terms).
// The platform has no switch latency, so no switch class.
func TestWireLatencyPerLinkClass(t *testing.T) {
	const link, d = 1e-6, 0.5e-6 // s
	end, rec := fatTreeRecord(t, link, "", observe.WireLatency, relayAcrossLeaves)
	g1, err := rec.Graph()
	if err != nil {
		t.Fatal(err)
	}
	cg := rec.ClassGraph()
	if cg == nil || fmt.Sprint(cg.Names) != "[host level1]" || fmt.Sprint(cg.Link) != "[true true]" {
		t.Fatalf("classes %+v, want host and level1 link classes", cg)
	}
	g := cg.Graph
	base := g.Baseline()
	if fmt.Sprint(base) != fmt.Sprint([]float64{link, link}) {
		t.Fatalf("baseline %v, want both classes at %g s", base, link)
	}
	if got := g.Runtime(base); math.Abs(got-end) > timeTol {
		t.Errorf("per-class graph at its baseline %.12f s, run %.12f s", got, end)
	}
	if a, b := g.Runtime(base), g1.Runtime([]float64{link}); a != b {
		t.Errorf("per-class graph %v s, merged one-ℓ graph %v s: merging must not change T", a, b)
	}
	for c, want := range []int64{4, 2} {
		if _, l, r, _ := g.Slopes(base, c); l != want || r != want {
			t.Errorf("class %s: λ %d/%d, want %d", cg.Names[c], l, r, want)
		}
	}
	if got, want := g.Runtime([]float64{link, link + d}), end+2*d; math.Abs(got-want) > timeTol {
		t.Errorf("level1 +%g s: %.12f s, want %.12f s", d, got, want)
	}

	_, rec = fatTreeRecord(t, link, "0:3", observe.WireLatency, relayAcrossLeaves)
	if _, err := rec.Graph(); err != nil {
		t.Fatal(err)
	}
	cg = rec.ClassGraph()
	if fmt.Sprint(cg.Names) != "[host factor3 level1]" || fmt.Sprint(cg.Link) != "[true false true]" {
		t.Fatalf("classes %v %v, want host, factor3 (first used by the first message), level1", cg.Names, cg.Link)
	}
	if _, _, r, _ := cg.Graph.Slopes(cg.Graph.Baseline(), 1); r != 6 {
		t.Errorf("factor class λ %d, want 6 (every cable of both messages)", r)
	}
}

// TestWireLatencySwitchClass: with a latency ls at every switch, the relay's
// messages cost 2ℓ+ls (same leaf) and 4ℓ+3ls (through the spine), by hand.
// The switches are the class "switch" at ls, λ_switch = 4; the per-class and
// the one-ℓ graphs are the run at their baselines (the one-ℓ graph keeps the
// switches as a class of its own, held while ℓ moves); moving ls by d in the
// graph moves T by 4d, as re-running with ls+d does. A latency factor's excess
// over the switches stays in the messages' constant part, so the graph is the
// run there too.
func TestWireLatencySwitchClass(t *testing.T) {
	const link, ls, d = 1e-6, 0.3e-6, 0.2e-6 // s
	end, rec := switchedFatTreeRecord(t, link, ls, "", observe.WireLatency, relayAcrossLeaves)
	if want := 2e-3 + (2*link + ls) + (4*link + 3*ls); math.Abs(end-want) > 1e-8 {
		t.Fatalf("run %.9f s; by hand about %.9f s (2 ms of compute and two 8-byte messages)", end, want)
	}
	g1, err := rec.Graph()
	if err != nil {
		t.Fatal(err)
	}
	cg := rec.ClassGraph()
	if fmt.Sprint(cg.Names) != "[host switch level1]" {
		t.Fatalf("classes %v, want host, switch, level1", cg.Names)
	}
	g := cg.Graph
	base := g.Baseline()
	if fmt.Sprint(base) != fmt.Sprint([]float64{link, ls, link}) {
		t.Fatalf("baseline %v, want [%g %g %g]", base, link, ls, link)
	}
	if got := g.Runtime(base); math.Abs(got-end) > timeTol {
		t.Errorf("per-class graph at its baseline %.12f s, run %.12f s", got, end)
	}
	if g1.Classes() != 2 || fmt.Sprint(g1.Baseline()) != fmt.Sprint([]float64{link, ls}) {
		t.Errorf("one-ℓ graph: %d classes at %v, want ℓ and the switches at [%g %g]", g1.Classes(), g1.Baseline(), link, ls)
	}
	if got := g1.Runtime(g1.Baseline()); math.Abs(got-end) > timeTol {
		t.Errorf("one-ℓ graph at its baseline %.12f s, run %.12f s", got, end)
	}
	if _, l, r, _ := g.Slopes(base, 1); l != 4 || r != 4 {
		t.Errorf("λ_switch %d/%d, want 4 (1 + 3 switches)", l, r)
	}
	moved, _ := switchedFatTreeRecord(t, link, ls+d, "", observe.WireLatency, relayAcrossLeaves)
	if got := g.Runtime([]float64{link, ls + d, link}); math.Abs(got-moved) > timeTol || math.Abs(moved-end-4*d) > timeTol {
		t.Errorf("switches +%g s: graph %.12f s, re-run %.12f s, want both %.12f s", d, got, moved, end+4*d)
	}

	end, rec = switchedFatTreeRecord(t, link, ls, "0:3", observe.WireLatency, relayAcrossLeaves)
	g1, err = rec.Graph()
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.ClassGraph().Graph.Runtime(rec.ClassGraph().Graph.Baseline()); math.Abs(got-end) > timeTol {
		t.Errorf("factor 3: per-class graph %.12f s, run %.12f s", got, end)
	}
	if got := g1.Runtime(g1.Baseline()); math.Abs(got-end) > timeTol {
		t.Errorf("factor 3: one-ℓ graph %.12f s, run %.12f s", got, end)
	}
}
