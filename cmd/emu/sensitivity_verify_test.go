package main

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/runner"
)

// probeScenario is HPL 4×4 whose broadcasts poll with SimGrid's growing Iprobe
// cost, so that one recorded graph cannot follow re-emulation (12% RRMSE).
const probeScenario = "testdata/hpl44_probe.toml"

// reemulate runs `emu run` on file with extra sets and returns its simulated time:
// the independent re-emulation the sensitivity figures are checked against.
func reemulate(t *testing.T, file string, sets ...string) float64 {
	t.Helper()
	js := filepath.Join(t.TempDir(), "r.json")
	args := []string{"run", file, "-q", "--json", js}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	if code, _, errOut := runCLI(t, args...); code != 0 {
		t.Fatalf("emu run %v: exit %d: %s", sets, code, errOut)
	}
	return readReport(t, js)["simulated_time_s"].(float64)
}

// verifiedRRMSE is the verified curve's agreement with re-emulation on HPL 4×4
// (probeScenario) over 1–51 µs with 6 emulations, as measured when written:
// 1.52% on the curve's 11 points (one graph alone: 11.9%). Issue 12's goal is
// 1%; the 4×4 run's T(ℓ) has bumps of up to 4% between the re-emulated
// latencies (16 µs lies 4% below the chord of 11 and 21 µs) that no graph
// recorded at those latencies shows, and re-emulated every µs T(ℓ) is 1.6% RRMSE
// from even the closest cubic (validation TestHPL4x4LatencyNoiseFloor). A
// regression bound, with the gap stated.
const verifiedRRMSE = 0.02

// TestSensitivityVerify: --verify 5 over 1–51 µs re-emulates at 11, 21, ..., 51
// µs; at each of them the verified T must be the re-emulated time of `emu run`
// with that link latency, and over the 11 curve points the verified curve must
// be within verifiedRRMSE of re-emulation and at least 5× closer than the one
// graph of the run.
func TestSensitivityVerify(t *testing.T) {
	js := filepath.Join(t.TempDir(), "v.json")
	code, out, errOut := runCLI(t, "sensitivity", probeScenario, "-q", "--range", "1us:51us", "--verify", "5", "--json", js)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "verified by re-emulation (6 emulations") {
		t.Errorf("no verified table with 6 emulations:\n%s", out)
	}
	m := readReport(t, js)
	if n := m["verify_emulations"].(float64); n != 6 {
		t.Errorf("%v emulations, want 6", n)
	}
	curve := m["verified_curve"].([]any)
	at := map[float64]float64{}
	for _, c := range curve {
		p := c.(map[string]any)
		at[p["L_s"].(float64)] = p["runtime_s"].(float64)
	}
	for _, v := range m["verified"].([]any) {
		p := v.(map[string]any)
		l, em := p["L_s"].(float64), p["emulated_s"].(float64)
		if got := reemulate(t, probeScenario, "network.link_latency="+strconv.FormatFloat(l, 'g', -1, 64)+"s"); got != em {
			t.Errorf("at %g µs: verify's emulation %.9f s, emu run %.9f s", l*1e6, em, got)
		}
		for cl, ct := range at {
			if math.Abs(cl-l) < 1e-15 && math.Abs(ct-em) > 1e-12 {
				t.Errorf("verified T(%g µs) = %.9f s, not its re-emulation %.9f s", l*1e6, ct, em)
			}
		}
	}
	one := m["curve"].([]any)
	var sv, s1 float64
	for i, c := range curve {
		p := c.(map[string]any)
		l := p["L_s"].(float64)
		em := reemulate(t, probeScenario, "network.link_latency="+strconv.FormatFloat(l, 'g', -1, 64)+"s")
		dv := (p["runtime_s"].(float64) - em) / em
		d1 := (one[i].(map[string]any)["runtime_s"].(float64) - em) / em
		sv, s1 = sv+dv*dv, s1+d1*d1
		t.Logf("%5.1f µs: re-emulated %.6f s, verified %+.2f%%, one graph %+.2f%%", l*1e6, em, 100*dv, 100*d1)
	}
	rv, r1 := math.Sqrt(sv/float64(len(curve))), math.Sqrt(s1/float64(len(curve)))
	t.Logf("RRMSE: verified %.2f%%, one graph %.2f%%", 100*rv, 100*r1)
	if !(rv <= verifiedRRMSE) || !(5*rv <= r1) {
		t.Errorf("verified RRMSE %.2f%% (bound %.0f%%), one graph %.2f%%", 100*rv, 100*verifiedRRMSE, 100*r1)
	}
}

// TestSensitivityBandwidthTolerance is issue 12's done-when for bandwidth: each
// reported tolerance holds by re-emulation. On the flat cluster every cable is
// of class host at platform.link_bandwidth, so `emu run --set
// network.link_bandwidth=B` re-emulates the class at B by another road than the
// search's (runner.Options.ClassBandwidth): at the reported bandwidth T is
// within x% of the run, at the reported "exceeded" bandwidth, at most 1% below
// it, T is above.
func TestSensitivityBandwidthTolerance(t *testing.T) {
	js := filepath.Join(t.TempDir(), "b.json")
	code, out, errOut := runCLI(t, "sensitivity", probeScenario, "-q", "--bandwidth-tolerance", "1,5", "--json", js)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "bandwidth tolerance per link class") {
		t.Errorf("no bandwidth table:\n%s", out)
	}
	t0 := reemulate(t, probeScenario)
	classes := readReport(t, js)["bandwidth"].([]any)
	if len(classes) != 1 {
		t.Fatalf("%d classes, want host alone", len(classes))
	}
	bc := classes[0].(map[string]any)
	if bc["name"] != "host" || bc["bandwidth_Bps"].(float64) != 1e10 {
		t.Errorf("class %v at %v B/s, want host at 1e10", bc["name"], bc["bandwidth_Bps"])
	}
	// Every message of the flat cluster crosses class host, whose rest is its
	// bandwidth time (cm02: bytes/B, stretched where flows share a link), so the
	// graph's per-class λ_G (Σ rest·B over the critical path) is the report's
	// λ_G (Σ bytes) but for contention: measured +1.1%.
	if lg, all := bc["lambda_G"].(float64), readReport(t, js)["lambda_G"].(float64); !(math.Abs(lg-all) <= 0.05*all) {
		t.Errorf("class host λ_G %g bytes, report's λ_G %g: more than 5%% apart", lg, all)
	}
	prev := bc["bandwidth_Bps"].(float64)
	for _, c := range bc["critical_bandwidths_Bps"].([]any) {
		if b := c.(float64); !(b < prev) {
			t.Errorf("critical bandwidths %v not decreasing below the run's", bc["critical_bandwidths_Bps"])
		}
		prev = c.(float64)
	}
	for _, x := range bc["tolerance"].([]any) {
		tol := x.(map[string]any)
		pct := tol["percent"].(float64)
		b, e := tol["bandwidth_Bps"].(float64), tol["exceeded_Bps"].(float64)
		target := (1 + pct/100) * t0
		tb := reemulate(t, probeScenario, fmt.Sprintf("network.link_bandwidth=%sBps", strconv.FormatFloat(b, 'g', -1, 64)))
		te := reemulate(t, probeScenario, fmt.Sprintf("network.link_bandwidth=%sBps", strconv.FormatFloat(e, 'g', -1, 64)))
		t.Logf("%g%%: %.4g B/s → T %.6f s (target %.6f s); %.4g B/s → %.6f s; %v emulations; graph predicts %v B/s",
			pct, b, tb, target, e, te, tol["emulations"], tol["predicted_Bps"])
		if !(tb <= target) || !(te > target) || !(b/e <= 1.01) {
			t.Errorf("%g%%: T(%g) = %g, T(%g) = %g against %g s: not a 1%% bracket", pct, b, tb, e, te, target)
		}
	}
}

func TestSensitivityReemulationFlagsAreChecked(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--verify", "-1"}, "--verify -1"},
		// 2⁶³−1 latencies were allocated before the first re-emulation
		// (makeslice: cap out of range, exit 1), 10⁹ ran for ever (qa47).
		{[]string{"--verify", "9223372036854775807"}, "--verify 9223372036854775807: want a number of re-emulations from 1 to 100000 (0: none)"},
		{[]string{"--verify", "100001"}, "--verify 100001: want a number"},
		{[]string{"--verify", "2", "--latency", "end-to-end"}, "needs --latency wire"},
		{[]string{"--verify", "2", "--class", "host"}, "--class host"},
		{[]string{"--bandwidth-tolerance", "1,x"}, `--bandwidth-tolerance "1,x"`},
		{[]string{"--bandwidth-tolerance", "1", "--latency", "end-to-end"}, "needs --latency wire"},
		{[]string{"--perturb", "3"}, "only meaningful with --verify"},
		{[]string{"--verify", "2", "--seeds", "0"}, "--seeds 0"},
		{[]string{"--verify", "2", "--perturb", "2", "--jobs", "-1"}, "--jobs -1"},
		// No message over a network link: the graph's L0 is 0 and T flat in ℓ.
		// It said "the run's ℓ (L0 = 0 s) is not the platform's link latency
		// (1.000000 µs)", as if the user had set something wrong.
		{[]string{"--verify", "2", "--set", "platform.cores_per_host=4", "--set", "hpl.n=300"}, "--verify: no message of the run crosses a network link"},
		{[]string{"--verify", "2", "--set", "hpl.grids=1x1", "--set", "hpl.n=200"}, "--verify: no message of the run crosses a network link"},
	} {
		code, _, errOut := runCLI(t, append([]string{"sensitivity", "-q"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, %q; want 2 and one line with %q", c.args, code, errOut, c.want)
		}
	}
}

// fatTreeLPAgreement bounds how far the graph's bandwidth tolerance may lie from
// the re-emulated one on the three-level fat tree below, relative: measured at
// most 10.9% (level2, 5%: 3.93 against 3.54 GB/s); longM does not poll, so the
// gap is the graph scaling every crossing message's time where re-emulation
// slows only those the class binds, and contention.
const fatTreeLPAgreement = 0.15

// TestSensitivityBandwidthToleranceFatTree: on a three-level fat tree (the
// stampede example shrunk as in examples TestPerClassLatencyPredictsReemulation)
// each of the link classes host, level1 and level2 gets its own tolerances, each a
// 1% bracket whose ends, re-emulated through scenario with that class alone at
// their bandwidths, straddle the target; the graph's prediction lies within
// fatTreeLPAgreement of each.
func TestSensitivityBandwidthToleranceFatTree(t *testing.T) {
	sets := []string{"platform.fat_tree=3;2,2,4;1,2,2;1,1,1", "network.model=cm02", "hpl.n=2048", "hpl.nb=64",
		"hpl.grids=[[4,4]]", "hpl.max_iterations=0"}
	js := filepath.Join(t.TempDir(), "b.json")
	args := []string{"sensitivity", "../../examples/stampede.toml", "-q", "--bandwidth-tolerance", "1,5", "--json", js}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	if code, _, errOut := runCLI(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	sf := scenarioFlags{sets: sets}
	plan, err := sf.plan("../../examples/stampede.toml")
	if err != nil {
		t.Fatal(err)
	}
	at := func(class string, b float64) float64 {
		var opt runner.Options
		if class != "" {
			opt.ClassBandwidth = map[string]float64{class: b}
		}
		res, err := runner.Run(plan, opt)
		if err != nil {
			t.Fatal(err)
		}
		return res.SimulatedTime
	}
	t0 := at("", 0)
	var names []string
	for _, x := range readReport(t, js)["bandwidth"].([]any) {
		bc := x.(map[string]any)
		name := bc["name"].(string)
		names = append(names, name)
		for _, y := range bc["tolerance"].([]any) {
			tol := y.(map[string]any)
			pct, b, e := tol["percent"].(float64), tol["bandwidth_Bps"].(float64), tol["exceeded_Bps"].(float64)
			target := (1 + pct/100) * t0
			tb, te := at(name, b), at(name, e)
			pred, _ := tol["predicted_Bps"].(float64)
			t.Logf("%s %g%%: %.4g GB/s (T %.6f ms), exceeded at %.4g GB/s (%.6f ms), target %.6f ms; graph %.4g GB/s",
				name, pct, b/1e9, tb*1e3, e/1e9, te*1e3, target*1e3, pred/1e9)
			if !(tb <= target) || !(te > target) || !(b/e <= 1.01) {
				t.Errorf("%s %g%%: [%g, %g] B/s is not a 1%% bracket of the target", name, pct, e, b)
			}
			if !(math.Abs(pred-b) <= fatTreeLPAgreement*b) {
				t.Errorf("%s %g%%: the graph predicts %g B/s, re-emulation %g", name, pct, pred, b)
			}
		}
	}
	if strings.Join(names, ",") != "host,level1,level2" {
		t.Errorf("classes %v, want host, level1, level2", names)
	}
}

// ensembleMedian runs `emu run file --perturb k` with extra sets and returns
// the ensemble of its simulated time: the independent re-emulation the
// ensembles of --verify are checked against.
func ensembleMedian(t *testing.T, file string, k int, sets ...string) (median, spread float64) {
	t.Helper()
	_, _, doc := runJSON(t, withSets([]string{"run", file, "-q", "--perturb", strconv.Itoa(k)}, sets...)...)
	var d struct {
		Ensemble struct {
			Sim struct{ Median, P05, P95 float64 } `json:"simulated_time_s"`
		} `json:"ensemble"`
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	s := d.Ensemble.Sim
	return s.Median, (s.P95 - s.P05) / (2 * s.Median)
}

// TestSensitivityVerifyAgainstEnsembles: on the chaotic 8×8 (links moved by
// parts in 10⁹ spread T by about ±6%), --verify 5 --perturb 4 over 1–51 µs
// reports as noise floor the spread `emu run --perturb 4` finds at L0, takes
// at each re-emulated latency the median that `emu run --perturb 4` finds
// there, labels each point by its gap, and its verified curve is within the
// noise floor of the ensembles' medians at the 11 curve points (RRMSE; 2.8%
// against a 6.0% floor when written), where the one graph of the run is 25%
// off.
func TestSensitivityVerifyAgainstEnsembles(t *testing.T) {
	js := filepath.Join(t.TempDir(), "v.json")
	code, out, errOut := runCLI(t, "sensitivity", chaoticScenario, "-q", "--range", "1us:51us", "--verify", "5", "--perturb", "4", "--json", js)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "verified against ensembles of 4 runs") || !strings.Contains(out, "noise floor at L0") {
		t.Errorf("no ensemble table:\n%s", out)
	}
	var d struct {
		Curve    []struct{ L, T float64 } `json:"curve"`
		Verified []struct {
			L         float64 `json:"L_s"`
			Predicted float64 `json:"predicted_s"`
			Emulated  float64 `json:"emulated_s"`
			Recorded  bool    `json:"recorded"`
		} `json:"verified"`
		VCurve []struct {
			L float64 `json:"L_s"`
			T float64 `json:"runtime_s"`
		} `json:"verified_curve"`
		VE struct {
			Runs       int     `json:"runs"`
			NoiseFloor float64 `json:"noise_floor"`
			Accept     float64 `json:"accept"`
			Points     []struct {
				Within string `json:"within"`
			} `json:"points"`
		} `json:"verify_ensemble"`
	}
	if err := json.Unmarshal(mustRead(t, js), &d); err != nil {
		t.Fatal(err)
	}
	var one []float64
	for _, c := range readReport(t, js)["curve"].([]any) {
		one = append(one, c.(map[string]any)["runtime_s"].(float64))
	}
	_, floor := ensembleMedian(t, chaoticScenario, 4)
	if d.VE.Runs != 4 || d.VE.NoiseFloor != floor || d.VE.Accept != math.Max(0.01, floor) {
		t.Errorf("runs %d, noise floor %g, accept %g; emu run --perturb 4 at L0: floor %g", d.VE.Runs, d.VE.NoiseFloor, d.VE.Accept, floor)
	}
	if len(d.VE.Points) != 6 || len(d.Verified) != 5 {
		t.Fatalf("%d ensembles, %d verified points; want 6 and 5", len(d.VE.Points), len(d.Verified))
	}
	medians := map[float64]float64{}
	var sv, s1 float64
	for i, c := range d.VCurve {
		m, _ := ensembleMedian(t, chaoticScenario, 4, "network.link_latency="+strconv.FormatFloat(c.L, 'g', -1, 64)+"s")
		medians[c.L] = m
		dv, d1 := (c.T-m)/m, (one[i]-m)/m
		sv, s1 = sv+dv*dv, s1+d1*d1
		t.Logf("%5.1f µs: median %.6f s, verified %+.2f%%, one graph %+.2f%%", c.L*1e6, m, 100*dv, 100*d1)
	}
	for i, v := range d.Verified {
		m, ok := medians[v.L]
		if !ok || v.Emulated != m {
			t.Errorf("at %g µs: verify's median %.9f s, emu run --perturb 4 %.9f s", v.L*1e6, v.Emulated, m)
		}
		gap := math.Abs(v.Predicted-v.Emulated) / v.Emulated
		want := "departed"
		if gap <= 0.01 {
			want = "1%"
		} else if gap <= d.VE.Accept {
			want = "noise floor"
		}
		if got := d.VE.Points[i+1].Within; got != want || v.Recorded != (want == "departed") {
			t.Errorf("at %g µs: gap %.2f%%: within %q, recorded %v; want %q", v.L*1e6, 100*gap, got, v.Recorded, want)
		}
	}
	rv, r1 := math.Sqrt(sv/float64(len(d.VCurve))), math.Sqrt(s1/float64(len(d.VCurve)))
	t.Logf("RRMSE against the medians: verified %.2f%%, one graph %.2f%%; noise floor %.2f%%", 100*rv, 100*r1, 100*floor)
	if !(rv <= d.VE.Accept) || !(3*rv <= r1) {
		t.Errorf("verified RRMSE %.2f%% beyond the accepted %.2f%%, or not 3× better than one graph's %.2f%%", 100*rv, 100*d.VE.Accept, 100*r1)
	}
}

// TestSensitivityVerifySaysIdenticalRuns: when the ensemble at L0 gives the
// same bits in every run, --verify says on stderr that its noise floor of 0 is
// no measurement and what to try, as emu run --seeds does; a chaotic run
// under --perturb moves and gets no such line, and -q silences it.
func TestSensitivityVerifySaysIdenticalRuns(t *testing.T) {
	const said = "runs at L0 are identical, so the noise floor is 0"
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"--verify", "1", "--seeds", "3"}, true},
		{[]string{"--verify", "1", "--seeds", "3", "-q"}, false},
		{[]string{chaoticScenario, "--verify", "1", "--perturb", "2"}, false},
	} {
		code, _, errOut := runCLI(t, append([]string{"sensitivity"}, c.args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", c.args, code, errOut)
		}
		if got := strings.Contains(errOut, said); got != c.want {
			t.Errorf("%v: says %q: %v, want %v; stderr:\n%s", c.args, said, got, c.want, errOut)
		}
	}
}

// TestBandwidthToleranceBeyondTheFloor: where a run hardly moves with a
// class's bandwidth (three 1-byte messages behind 3 ms of compute: 1% of T
// needs the critical message's 17 bytes to take 30 µs, 566 kB/s, below the
// search's floor b0/1024 = 9.766 MB/s), the table printed "—" in every
// column without a word. A line under it now says what "—" means, with
// the floor; --json keeps bandwidth_Bps null.
func TestBandwidthToleranceBeyondTheFloor(t *testing.T) {
	dir := t.TempDir()
	writeIn(t, dir, "tri.txt", "0 init\n1 init\n2 init\n0 compute 1e6\n0 send 1 0 1\n1 recv 0 0 1\n1 compute 1e6\n"+
		"1 send 2 0 1\n2 recv 1 0 1\n0 compute 2e6\n0 send 2 1 1\n2 recv 0 1 1\n0 finalize\n1 finalize\n2 finalize\n")
	scen := writeIn(t, dir, "tri.toml", "app = \"replay\"\n[replay]\nfile = \"tri.txt\"\n[platform]\nhosts = 3\ncores_per_host = 1\n"+
		"link_bandwidth = \"10GBps\"\nlink_latency = \"1us\"\nspeed = \"1Gf\"\n[network]\nmodel = \"smpi\"\nlat_factor = \"none\"\nbw_factor = \"none\"\n")
	js := filepath.Join(dir, "b.json")
	code, out, errOut := runCLI(t, "sensitivity", "-q", scen, "--bandwidth-tolerance", "1", "--json", js)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := "—: T stays within the tolerance down to the search's floor, 1/1024 of the class's bandwidth (host: 0.009766 GB/s)"; !strings.Contains(out, want) {
		t.Errorf("no word on \"—\"; want %q in\n%s", want, out)
	}
	tol := readReport(t, js)["bandwidth"].([]any)[0].(map[string]any)["tolerance"].([]any)[0].(map[string]any)
	if tol["bandwidth_Bps"] != nil {
		t.Errorf("tolerance %v, want bandwidth_Bps null", tol)
	}
}
