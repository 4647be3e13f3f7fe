package validation

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/sensitivity"
)

// injectionRRMSE is the agreement LLAMP's validation asks of the graph's T(L0+ΔL)
// against re-emulating at that latency (issue 5): relative root mean square error
// sqrt(mean(((predicted − emulated)/emulated)²)), as a fraction.
const injectionRRMSE = 0.01

// injectionExactL0 is how closely the graph must give the run's own simulated time
// at L0 when probes cost nothing, relative (floating-point sums only).
const injectionExactL0 = 1e-9

// injectionL0 is the same with probes that cost time, relative (measured: 0.094% on
// 4×4 1ringM with SimGrid's default 1e-4 s, 0 elsewhere).
const injectionL0 = 2e-3

// injectionSteps and injectionMaxDelta are LLAMP's sweep: ΔL from 0 to 50 µs in 10
// steps (11 points), ΔL being the end-to-end latency added to a flat cluster's
// 2-link route, i.e. 0 to 25 µs added to every link (injectionLinkDelta).
const (
	injectionSteps     = 10
	injectionMaxDelta  = 50e-6                             // s
	injectionLinkDelta = injectionMaxDelta / linksPerRoute // s per link
)

// injectionScenario is HPL in model mode on the peer's flat cluster (one switch,
// 10 GB/s, 1 µs per link, SPLITDUPLEX, so every route is 2 links and ℓ = 2 µs end
// to end), net=cm02 (latency factor 1, so a message's latency term is exactly its
// route latency) and the SMPI/HPL study's dgemm/dtrsm models.
const injectionScenario = `app = "hpl"
seed = 1

[platform]
topology = "flat"
hosts = %d
cores_per_host = 1
link_bandwidth = "10GBps"
link_latency = "1us"
sharing_policy = "splitduplex"

[network]
model = "cm02"
iprobe_cost = "%s"

[kernels]
mode = "model"
pivot = "splitmix"

[kernels.dgemm]
terms = ["m*n*k"]
coef = [1.029e-11]
intercept = 1.981e-12

[kernels.dtrsm]
terms = ["w"]
coef = [1.029e-11]
intercept = 1.981e-12

[hpl]
n = %d
nb = 128
grids = [[%d, %d]]
pmap = "row"
pfact = "right"
rfact = "right"
nbmin = 4
ndiv = 2
bcast = "%s"
depth = %d
swap = "mix"
swap_threshold = 64
`

// linksPerRoute is the number of wire latencies in one message's route on the flat
// cluster: the source's UP link and the destination's DOWN link. In the recorder's
// wire mode (the default, observe/record_latency.go) ℓ is one link's latency and
// each message carries one term per link; end to end, ℓ is the route's 2 links.
const linksPerRoute = 2

// injectionLink is the link latency of the injection scenarios, s.
const injectionLink = 1e-6

// TestLLAMPInjection is LLAMP's latency-injection validation (its §V, Figure 9) on
// emu itself: record HPL's execution graph once at the platform's latency L0,
// predict T(L0+ΔL) from the graph for ΔL = 0, 5, ..., 50 µs end to end (the wire
// graph's ℓ, the link latency, + 0, 2.5, ..., 25 µs), re-emulate at each of
// those latencies, and compare by RRMSE.
//
// Where HPL does not adapt to timing the graph is the run at every latency, and the
// RRMSE must be below 1%: the long/longM broadcasts never probe, and on 8×8 with free
// probes the polling order happens not to move with L. Where it adapts, the graph
// (one run's order of events) departs, as measured below; those bounds only guard
// against regressions:
//   - Polling: the ring broadcasts poll with MPI_Iprobe between update chunks, so
//     when L grows a rank notices a broadcast at another poll and forwards it after
//     a different number of chunks. The recorded order cannot hide added latency
//     behind update chunks the way the re-emulated run does, so the graph
//     overestimates (4×4 1ringM, free or 1 µs probes: RRMSE ≈ 5%, +10% at ΔL = 5 µs).
//   - SimGrid's growing probe cost (1e-4 s × a counter shared by all ranks that
//     grows on every failed probe): waiting longer means more failed probes, each
//     dearer, so polling time grows faster than linearly with L, while the graph
//     holds the probe time of L0 as constants. The graph underestimates: RRMSE 13%
//     on 4×4 and 28% on 8×8.
//   - Eager and rendezvous, contention: messages of 64 KiB and more complete only
//     once matched (the recorder's rendezvous edges carry that), and rest terms hold
//     the bandwidth time of L0's overlap; on the non-blocking flat switch this moves
//     the prediction by under 0.01% in the non-adaptive cases.
//
// At ΔL = 0 the graph must give the run's own time (observe/record.go keeps probe
// costs as Calc vertices): exactly with free probes, within injectionL0 otherwise.
func TestLLAMPInjection(t *testing.T) {
	cases := []struct {
		p, q, n int
		bcast   string
		depth   int
		iprobe  string
		bound   float64 // RRMSE bound, fraction
	}{
		{4, 4, 4000, "longM", 1, "1us", injectionRRMSE},
		{8, 8, 3000, "longM", 1, "1us", injectionRRMSE},
		{8, 8, 3000, "1ringM", 1, "0us", injectionRRMSE},
		// Departures, measured RRMSE in the comment.
		{4, 4, 4000, "1ringM", 1, "0us", 0.10},   // polling, 5.1%
		{4, 4, 4000, "1ringM", 1, "1us", 0.10},   // polling, 5.1%
		{4, 4, 4000, "2ringM", 0, "1us", 0.05},   // polling in depth 0's spin loop, 2.4%
		{4, 4, 4000, "1ringM", 1, "100us", 0.20}, // growing probe cost, 12.9%
		{8, 8, 3000, "1ringM", 1, "100us", 0.35}, // growing probe cost, 28.1%
	}
	for _, c := range cases {
		name := fmt.Sprintf("%dx%d_N%d_%s_d%d_iprobe%s", c.p, c.q, c.n, c.bcast, c.depth, c.iprobe)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			text := fmt.Sprintf(injectionScenario, c.p*c.q, c.iprobe, c.n, c.p, c.q, c.bcast, c.depth)
			pred, emul, l0 := injectionSweep(t, text, observe.WireLatency, 1)
			rr := rrmse(pred, emul)
			atL0 := injectionL0
			if c.iprobe == "0us" {
				atL0 = injectionExactL0
			}
			if math.Abs(pred[0]-emul[0]) > atL0*emul[0] {
				t.Errorf("graph at L0 %.9f s, run %.9f s: the recording misses time", pred[0], emul[0])
			}
			for i := range pred {
				t.Logf("link +%5.2f µs: graph %.6f s, re-emulated %.6f s (%+.3f%%)", float64(i)*injectionLinkDelta/injectionSteps*1e6,
					pred[i], emul[i], 100*(pred[i]-emul[i])/emul[i])
			}
			t.Logf("L0 = %g µs, RRMSE %.3f%%", l0*1e6, 100*rr)
			if !(rr < c.bound) {
				t.Errorf("RRMSE %.3f%%, want < %.1f%%", 100*rr, 100*c.bound)
			}
		})
	}
}

// injectionSweep records the graph at the scenario's latency in the given mode and
// returns the graph's predicted and the re-emulated simulated times with every
// link's latency raised by 0..injectionLinkDelta, and the graph's L0. links is the
// number of links the recorder's ℓ stands for (1 in wire mode; the most common
// route's links end to end), so ℓ = links × platform.link_latency and raising the
// link latency by δ is raising ℓ by links·δ.
func injectionSweep(t *testing.T, text string, mode observe.LatencyMode, links int) (pred, emul []float64, l0 float64) {
	t.Helper()
	base := emulate(t, text, runner.Options{Graph: true, GraphLatency: mode})
	l0 = base.GraphL
	if want := float64(links) * injectionLink; math.Abs(l0-want) > 1e-6*want {
		t.Errorf("the recorder's baseline latency %g s, want %d links × %g s", l0, links, injectionLink)
	}
	rep, err := sensitivity.Analyze(base.Graph, sensitivity.Params{
		Latencies: base.Graph.Baseline(),
		L0:        l0, Lmin: l0, Lmax: l0 + float64(links)*injectionLinkDelta, Points: injectionSteps + 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, pt := range rep.Curve {
		pred = append(pred, pt.T)
		link := injectionLink + float64(i)*injectionLinkDelta/injectionSteps
		res := emulate(t, text, runner.Options{}, fmt.Sprintf("platform.link_latency=%.9gus", link*1e6))
		emul = append(emul, res.SimulatedTime)
	}
	return pred, emul, l0
}

// emulate runs a scenario text with overrides.
func emulate(t *testing.T, text string, opt runner.Options, sets ...string) *runner.Result {
	t.Helper()
	s, err := scenario.Parse([]byte(text), "injection.toml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(plantest.Validated(t, s, sets...), opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// rrmse is sqrt(mean(((p − m)/m)²)).
func rrmse(pred, meas []float64) float64 {
	var s float64
	for i := range pred {
		d := (pred[i] - meas[i]) / meas[i]
		s += d * d
	}
	return math.Sqrt(s / float64(len(pred)))
}

// TestLLAMPInjectionFatTree runs the sweep on the peer's 2:1 fat tree, where a
// route inside a leaf has 2 links (2 µs) and one across leaves 4 (4 µs), with the
// long broadcast (no polling, so the run's order of events does not move with L).
//
// Wire mode (LLAMP Appendix H): ℓ is the link latency and each message carries
// one term per link, so a 2-link message moves by 2δ and a 4-link one by 4δ, as in
// the re-emulated run: the graph at L0 is the run and the RRMSE is below 1%.
//
// End to end, every message has one term at the most common latency, here 4 µs:
// the graph charges intra-leaf messages 4 µs at L0 and moves them by ΔL where
// re-emulation moves them by ΔL/2. On 4×4 a process row (the broadcast's ring)
// sits in one leaf, so the critical path is mostly 2-link messages charged as
// 4-link ones: +7.8% at L0, +15.3% at +25 µs per link, RRMSE 14.1% (a regression
// bound, not a goal). Wire mode measured RRMSE 0.063%, 0 at L0, +0.12% at most.
func TestLLAMPInjectionFatTree(t *testing.T) {
	const crossLeafLinks = 4
	text := strings.Replace(fmt.Sprintf(injectionScenario, 256, "1us", 4000, 4, 4, "longM", 1),
		`topology = "flat"`, `topology = "fat-tree"`+"\nfat_tree = \"2;8,32;1,4;1,1\"", 1)
	text = strings.Replace(text, "hosts = 256\n", "", 1)
	cases := []struct {
		mode     observe.LatencyMode
		links    int     // links ℓ stands for
		measured float64 // RRMSE when written, fraction
		bound    float64 // fraction
	}{
		{observe.WireLatency, 1, 0.00063, injectionRRMSE},
		{observe.EndToEndLatency, crossLeafLinks, 0.1408, 0.17},
	}
	for _, c := range cases {
		t.Run(c.mode.String(), func(t *testing.T) {
			t.Parallel()
			pred, emul, l0 := injectionSweep(t, text, c.mode, c.links)
			rr := rrmse(pred, emul)
			for i := range pred {
				t.Logf("link +%5.2f µs: graph %.6f s, re-emulated %.6f s (%+.3f%%)", float64(i)*injectionLinkDelta/injectionSteps*1e6,
					pred[i], emul[i], 100*(pred[i]-emul[i])/emul[i])
			}
			t.Logf("L0 = %g µs, RRMSE %.3f%% (measured when written %.2f%%)", l0*1e6, 100*rr, 100*c.measured)
			if c.mode == observe.WireLatency && math.Abs(pred[0]-emul[0]) > injectionL0*emul[0] {
				t.Errorf("graph at L0 %.9f s, run %.9f s", pred[0], emul[0])
			}
			if !(rr < c.bound) {
				t.Errorf("RRMSE %.3f%%, want < %.0f%%", 100*rr, 100*c.bound)
			}
		})
	}
}

// TestLLAMPInjectionLatencyFactors runs the sweep on the default scenario (2×2 HPL
// under network.model = "smpi": SMPI's size-dependent latency factors, 1.13 to
// 11.6) with the long broadcast, which does not poll. In wire mode a message of
// factor f carries links terms of ℓ and links terms of f's own class at baseline
// (f−1)·L0 (observe/record_latency.go); re-emulating at link latency ℓ moves
// that class to (f−1)·ℓ, so the prediction scales the whole baseline by ℓ/L0 (as
// `emu sensitivity`'s factor-scaled table does). That agrees with re-emulation
// (measured RRMSE 0.014%); sweeping ℓ alone, the LP's λ_L, misses the factors'
// share (RRMSE 40%), and so does end to end (41%, −4.0% at L0).
func TestLLAMPInjectionLatencyFactors(t *testing.T) {
	text := string(scenario.DefaultTOML())
	base := emulate(t, text, runner.Options{Graph: true}, "hpl.bcast=longM")
	lat0 := base.Graph.Baseline()
	if len(lat0) < 2 || lat0[0] != injectionLink {
		t.Fatalf("baseline %v: want the 1 µs link and factor classes", lat0)
	}
	var scaled, alone, emul []float64
	for i := 0; i <= injectionSteps; i++ {
		link := injectionLink + float64(i)*injectionLinkDelta/injectionSteps
		lat := make([]float64, len(lat0))
		for c, l := range lat0 {
			lat[c] = l * link / lat0[0]
		}
		scaled = append(scaled, base.Graph.Runtime(lat))
		lat = append([]float64(nil), lat0...)
		lat[0] = link
		alone = append(alone, base.Graph.Runtime(lat))
		res := emulate(t, text, runner.Options{}, "hpl.bcast=longM", fmt.Sprintf("platform.link_latency=%.9gus", link*1e6))
		emul = append(emul, res.SimulatedTime)
		t.Logf("link %5.2f µs: factor-scaled %.6f s, ℓ alone %.6f s, re-emulated %.6f s (%+.3f%%, %+.3f%%)", link*1e6,
			scaled[i], alone[i], emul[i], 100*(scaled[i]/emul[i]-1), 100*(alone[i]/emul[i]-1))
	}
	if math.Abs(scaled[0]-emul[0]) > injectionExactL0*emul[0] {
		t.Errorf("graph at its baseline %.9f s, run %.9f s", scaled[0], emul[0])
	}
	rr := rrmse(scaled, emul)
	t.Logf("RRMSE factor-scaled %.3f%%, ℓ alone %.3f%%", 100*rr, 100*rrmse(alone, emul))
	if !(rr < injectionRRMSE) {
		t.Errorf("factor-scaled RRMSE %.3f%%, want < %.0f%%", 100*rr, 100*injectionRRMSE)
	}
}
