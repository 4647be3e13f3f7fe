package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// graphAtL0 is how closely the graph evaluated at the run's own latency must give
// the run's simulated time under cm02 (one latency for every message), relative:
// the recorder's edges only re-add the run's own durations.
const graphAtL0 = 1e-9

// printedResolution is the rounding of a time the table prints in ms with 6
// decimals, s.
const printedResolution = 0.5e-9

func TestSensitivityDefaultGolden(t *testing.T) {
	code, out, errOut := runCLI(t, "sensitivity", "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "sensitivity_default.txt", out)
}

// TestSensitivityCM02 checks the command against the emulation itself: under
// cm02 every message between hosts crosses the flat cluster's 2 links of 1 µs, so
// in wire mode L0 is the link's 1 µs, the graph at L0 reproduces the run's
// simulated time, and the written graph analysed by `emu analyze` without --L
// (from the baseline the graph keeps) gives the same table; every output file is
// written. End to end, ℓ is the route's 2 µs and each message one term: the same
// graph with half the counts, so the same T(L0) and half the λ_L.
func TestSensitivityCM02(t *testing.T) {
	dir := t.TempDir()
	js, lp, plots, graph := filepath.Join(dir, "s.json"), filepath.Join(dir, "s.lp"), filepath.Join(dir, "plots"), filepath.Join(dir, "g.bin")
	code, out, errOut := runCLI(t, "sensitivity", "-q", "--set", "network.model=cm02", "--range", "1us:6us",
		"--points", "3", "--tolerance", "1,5", "--json", js, "--lp", lp, "--plot", plots, "--graph", graph)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "ℓ = latency of one link") || !strings.Contains(out, "the run's L0 = 1.000000 µs") || strings.Contains(out, "note:") {
		t.Errorf("L0 is not the flat cluster's 1 µs link:\n%s", out)
	}
	m := readReport(t, js)
	sim := simulatedTime(t, out)
	if rt := m["runtime_s"].(float64); math.Abs(rt-sim) > graphAtL0*sim+printedResolution {
		t.Errorf("graph at L0: %v s, emulated %v s", rt, sim)
	}
	if n := len(m["curve"].([]any)); n != 3 {
		t.Errorf("%d curve points, want 3", n)
	}
	for _, k := range []string{"1", "5"} {
		if _, ok := m["tolerance_s"].(map[string]any)[k]; !ok {
			t.Errorf("no %s%% tolerance in %v", k, m["tolerance_s"])
		}
	}
	for _, f := range []string{lp, graph, filepath.Join(plots, "runtime.svg")} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	code, again, errOut := runCLI(t, "analyze", graph, "--G", "0", "--range", "1us:6us", "--points", "3", "--tolerance", "1,5")
	if code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	if _, table, _ := strings.Cut(out, "graph:"); "graph:"+table != again {
		t.Errorf("emu analyze of the written graph differs:\n%s\nsensitivity:\n%s", again, out)
	}

	e2e := filepath.Join(dir, "e2e.json")
	code, out2, errOut := runCLI(t, "sensitivity", "-q", "--set", "network.model=cm02", "--latency", "end-to-end",
		"--range", "2us:12us", "--points", "3", "--json", e2e)
	if code != 0 {
		t.Fatalf("end-to-end: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out2, "ℓ = end-to-end latency") || !strings.Contains(out2, "the run's L0 = 2.000000 µs") {
		t.Errorf("end to end, L0 is not the flat route's 2 µs:\n%s", out2)
	}
	m2 := readReport(t, e2e)
	if a, b := m["runtime_s"].(float64), m2["runtime_s"].(float64); math.Abs(a-b) > graphAtL0*a {
		t.Errorf("T(L0) wire %v s, end to end %v s", a, b)
	}
	if a, b := m["lambda_L"].(float64), m2["lambda_L"].(float64); a != 2*b {
		t.Errorf("λ_L wire %v, want 2 links × end-to-end %v", a, b)
	}
}

var simulatedRE = regexp.MustCompile(`simulated time ([0-9.]+) ms`)

func simulatedTime(t *testing.T, out string) float64 {
	t.Helper()
	m := simulatedRE.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no simulated time in:\n%s", out)
	}
	ms, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return ms * 1e-3
}

func TestSensitivityBadInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.toml")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--range", "5us:1us"}, "--range"},
		{[]string{"--range", "5us"}, "--range"},
		{[]string{"--range", "1:2"}, "--range"},
		{[]string{"--points", "1"}, "--points 1"},
		{[]string{"--tolerance", "x"}, "--tolerance"},
		{[]string{"--tolerance", "-1"}, "--tolerance"},
		{[]string{"--bogus"}, "unknown flag"},
		{[]string{"--latency", "hops"}, "--latency"},
		{[]string{"--set", "hpl.nb=0"}, "hpl.nb"},
		{[]string{"--set", "nosuch.key=1"}, "nosuch"},
		{[]string{missing}, "none.toml"},
		{[]string{"a.toml", "b.toml"}, "accepts at most 1 arg"},
		{[]string{"--class", "level9"}, "--class level9: the platform's link classes are host"},
		{[]string{"--class", "host", "--latency", "end-to-end"}, "--class host"},
		{[]string{"--place", "h.txt", "--latency", "end-to-end"}, "--place"},
		// without a scenario file the line began "emu: : replay.semantics"
		{[]string{"--replay", writeFile(t, "b.goal", llampBlocking), "--set", "replay.semantics=loggops"},
			"emu: --set replay.semantics=loggops: replay.semantics = \"loggops\" runs no ranks"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(t, append([]string{"sensitivity", "-q"}, c.args...)...)
			if code != exitInput {
				t.Errorf("exit %d, want %d", code, exitInput)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) {
				t.Errorf("stderr %q, want one line naming %q", errOut, c.want)
			}
		})
	}
}

// TestSensitivityHPLDatAndPlatform: --hpl-dat and --platform replace the scenario's
// tables as in emu run; on a SimGrid cluster of 1 µs links ℓ is that 1 µs (wire
// mode), and with free probes under cm02 the graph is the run.
func TestSensitivityHPLDatAndPlatform(t *testing.T) {
	dir := t.TempDir()
	xml := writeFile(t, "cluster.xml", `<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" radical="0-3" suffix="" speed="1Gf" core="1"
           bw="10GBps" lat="1us" sharing_policy="SPLITDUPLEX"/>
</platform>
`)
	dat := writeFile(t, "HPL.dat", oneTestHPLDat("HPL.out", "6", 1000, 64, 2, 2, 2))
	js := filepath.Join(dir, "s.json")
	code, out, errOut := runCLI(t, "sensitivity", "-q", "--hpl-dat", dat, "--platform", xml,
		"--set", "network.model=cm02", "--set", "network.iprobe_cost=0us", "--json", js)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "emulated hpl on 4 ranks") || !strings.Contains(out, "L0 = 1.000000 µs") || strings.Contains(out, "note:") {
		t.Errorf("output:\n%s", out)
	}
	m := readReport(t, js)
	if sim := simulatedTime(t, out); math.Abs(m["runtime_s"].(float64)-sim) > graphAtL0*sim+printedResolution {
		t.Errorf("graph at L0 %v s, run %v s", m["runtime_s"], sim)
	}
	if lo, hi := m["Lmin_s"].(float64), m["Lmax_s"].(float64); lo != 1e-6 || math.Abs(hi-51e-6) > 1e-15 {
		t.Errorf("default range %v..%v s, want L0..L0+50 µs", lo, hi)
	}
}

// TestSensitivityLPAgainstGlpsol solves the exported LP with glpk's glpsol, an
// independent solver: its optimum is the report's T(L0) and the reduced cost of
// the latency variable l0 is λ_L (the LP is in ns).
func TestSensitivityLPAgainstGlpsol(t *testing.T) {
	if _, err := exec.LookPath("glpsol"); err != nil {
		t.Skip("glpsol not installed (Debian: glpk-utils)")
	}
	dir := t.TempDir()
	js, lp := filepath.Join(dir, "s.json"), filepath.Join(dir, "s.lp")
	code, _, errOut := runCLI(t, "sensitivity", "-q", "--set", "network.model=cm02", "--json", js, "--lp", lp)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	sol, glp := filepath.Join(dir, "sol.txt"), filepath.Join(dir, "p.glp")
	if out, err := exec.Command("glpsol", "--lp", lp, "-w", sol, "--wglp", glp).CombinedOutput(); err != nil {
		t.Fatalf("glpsol: %v\n%s", err, out)
	}
	l0 := ""
	for _, f := range fieldsOf(t, glp) {
		if len(f) == 4 && f[0] == "n" && f[1] == "j" && f[3] == "l0" {
			l0 = f[2]
		}
	}
	var obj, dual float64
	for _, f := range fieldsOf(t, sol) {
		switch {
		case len(f) == 7 && f[0] == "s":
			obj, _ = strconv.ParseFloat(f[6], 64)
		case len(f) == 5 && f[0] == "j" && f[1] == l0:
			dual, _ = strconv.ParseFloat(f[4], 64)
		}
	}
	m := readReport(t, js)
	if rt := m["runtime_s"].(float64); math.Abs(obj*1e-9-rt) > glpsolRel*rt {
		t.Errorf("glpsol optimum %v ns, report %v s", obj, rt)
	}
	// At a breakpoint of T(L) the LP is degenerate: any slope between the left
	// and the right derivative is an optimal reduced cost.
	lo, hi := m["lambda_L_left"].(float64), m["lambda_L"].(float64)
	if l0 == "" || dual < min(lo, hi) || dual > max(lo, hi) {
		t.Errorf("glpsol reduced cost of l0 (column %q) %v, λ_L %v (left %v)", l0, dual, hi, lo)
	}
}

// glpsolRel is the agreement required with glpsol's simplex, relative.
const glpsolRel = 1e-9

func fieldsOf(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, line := range strings.Split(string(data), "\n") {
		out = append(out, strings.Fields(line))
	}
	return out
}

// TestSensitivityFactorScaledAgainstReEmulation: under cm02 with a latency factor
// of 3 on every message (network.lat_factor = "0:3"), free probes and the long
// broadcast (HPL then never adapts to timing), the wire graph holds 2 terms of ℓ
// and 2 of the factor class (baseline 2·L0) per message. Its factor-scaled curve
// must be what re-emulating at each link latency gives; the LP sweep of ℓ alone
// rises by a third of that, and the factor-scaled slope at L0 is λ_0 + 2·λ_1.
func TestSensitivityFactorScaledAgainstReEmulation(t *testing.T) {
	sets := []string{"--set", "network.model=cm02", "--set", "network.lat_factor=0:3", "--set", "network.iprobe_cost=0us",
		"--set", "hpl.bcast=longM"}
	js := filepath.Join(t.TempDir(), "s.json")
	code, out, errOut := runCLI(t, append([]string{"sensitivity", "-q", "--range", "1us:11us", "--points", "3", "--json", js}, sets...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := readReport(t, js)
	fs, ok := m["factor_scaled"].(map[string]any)
	if !ok {
		t.Fatalf("no factor_scaled in the JSON:\n%s", out)
	}
	classes := m["classes"].([]any)
	if len(classes) != 2 {
		t.Fatalf("%d classes, want ℓ and one factor class", len(classes))
	}
	l0 := classes[0].(map[string]any)["lambda"].(float64)
	l1 := classes[1].(map[string]any)["lambda"].(float64)
	if got, want := fs["lambda"].(float64), l0+2*l1; math.Abs(got-want) > 1e-9*want {
		t.Errorf("factor-scaled slope %v, want λ_0 + 2·λ_1 = %v", got, want)
	}
	// The LP sweep moves class 0 alone: its curve rises by a third of the scaled
	// one's where the critical path is the same; the scaled one is re-emulation.
	dir := t.TempDir()
	for i, pt := range fs["curve"].([]any) {
		p := pt.(map[string]any)
		L, T := p["L_s"].(float64), p["runtime_s"].(float64)
		rj := filepath.Join(dir, strconv.Itoa(i)+".json")
		code, _, errOut := runCLI(t, append([]string{"run", "-q", "--json", rj,
			"--set", "platform.link_latency=" + strconv.FormatFloat(L*1e6, 'g', -1, 64) + "us"}, sets...)...)
		if code != 0 {
			t.Fatalf("run: exit %d: %s", code, errOut)
		}
		sim := readReport(t, rj)["simulated_time_s"].(float64)
		t.Logf("link %g µs: factor-scaled graph %.9f s, re-emulated %.9f s, LP sweep %.9f s", L*1e6, T, sim,
			m["curve"].([]any)[i].(map[string]any)["runtime_s"].(float64))
		if math.Abs(T-sim) > factorScaledAgreement*sim {
			t.Errorf("link %g µs: factor-scaled graph %.9f s, re-emulated %.9f s", L*1e6, T, sim)
		}
	}
}

// factorScaledAgreement is how closely the factor-scaled curve must follow
// re-emulation where HPL does not adapt to timing, relative: on this 2×2 flat
// cluster the order of events does not move with the link latency and the graph
// is the re-emulated run up to floating-point sums (measured: equal to 1e-12).
const factorScaledAgreement = 1e-9

// TestRunGraphLatencyFlag: `emu run --graph` records in the --latency mode asked,
// and the graph file keeps its baseline (ℓ and, under smpi, the factor classes),
// so `emu analyze FILE` without --L gives the run's simulated time in wire mode
// (the default scenario runs under smpi's latency factors). End to end it starts
// at the most common message latency, 2 × 1 µs × 1.95341 (SMPI's factor for
// 258–732 bytes with the envelope), and the graph departs from the run (−2.84%).
func TestRunGraphLatencyFlag(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		mode, L0 string
		exact    bool
	}{{"wire", "1.000000 µs", true}, {"end-to-end", "3.906820 µs", false}} {
		graph, rj, aj := filepath.Join(dir, c.mode+".graph"), filepath.Join(dir, c.mode+".json"), filepath.Join(dir, c.mode+"-a.json")
		code, _, errOut := runCLI(t, "run", "-q", "--graph", graph, "--latency", c.mode, "--json", rj)
		if code != 0 {
			t.Fatalf("%s: run: exit %d: %s", c.mode, code, errOut)
		}
		code, out, errOut := runCLI(t, "analyze", graph, "--json", aj, "--points", "2")
		if code != 0 {
			t.Fatalf("%s: analyze: exit %d: %s", c.mode, code, errOut)
		}
		if !strings.Contains(out, "at L = "+c.L0) {
			t.Errorf("%s: analyze does not start at L0 = %s:\n%s", c.mode, c.L0, out)
		}
		sim := readReport(t, rj)["simulated_time_s"].(float64)
		rt := readReport(t, aj)["runtime_s"].(float64)
		if exact := math.Abs(rt-sim) <= graphAtL0*sim; exact != c.exact {
			t.Errorf("%s: graph at L0 %.9f s, run %.9f s (want equal: %v)", c.mode, rt, sim, c.exact)
		}
	}
	code, _, errOut := runCLI(t, "run", "-q", "--latency", "hops")
	if code != exitInput || !strings.Contains(errOut, "--latency") {
		t.Errorf("--latency hops: exit %d, stderr %q", code, errOut)
	}
}

// TestSensitivityClassFlag: on a two-level fat tree of 4 hosts (2 per leaf,
// cm02) the report names both link classes, each with λ > 0; --class level1
// sweeps the level-1 cables alone from their 1 µs, and its λ_L, tolerances and
// critical latencies are the ones the per-class table gives for level1
// without --class (the same analysis reached two ways); the one-ℓ report is
// the same with or without the per-class table.
func TestSensitivityClassFlag(t *testing.T) {
	dir := t.TempDir()
	fat := []string{"sensitivity", "-q", "--set", "platform.topology=fat-tree", "--set", "platform.fat_tree=2;2,2;1,1;1,1",
		"--set", "network.model=cm02", "--tolerance", "1,5"}
	all, one := filepath.Join(dir, "all.json"), filepath.Join(dir, "one.json")
	if code, _, errOut := runCLI(t, append(fat, "--json", all)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, append(fat, "--json", one, "--class", "level1")...)
	if code != 0 {
		t.Fatalf("--class level1: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "ℓ = latency of one level1 link") || !strings.Contains(out, "L0 = 1.000000 µs") {
		t.Errorf("--class level1 does not say what it sweeps:\n%s", out)
	}
	ma, mo := readReport(t, all), readReport(t, one)
	byName := map[string]map[string]any{}
	for _, c := range ma["classes"].([]any) {
		c := c.(map[string]any)
		byName[c["name"].(string)] = c
	}
	for _, n := range []string{"host", "level1"} {
		if c := byName[n]; c == nil || !(c["lambda"].(float64) > 0) || c["tolerance_s"] == nil {
			t.Errorf("class %s: %v, want λ > 0 and tolerances", n, c)
		}
	}
	lv := byName["level1"]
	if mo["class"] != lv["class"] || mo["lambda_L"] != lv["lambda"] || mo["L_s"] != lv["L_s"] {
		t.Errorf("--class level1: class %v λ_L %v L %v; per-class table: %v %v %v",
			mo["class"], mo["lambda_L"], mo["L_s"], lv["class"], lv["lambda"], lv["L_s"])
	}
	if a, b := fmt.Sprint(mo["tolerance_s"]), fmt.Sprint(lv["tolerance_s"]); a != b {
		t.Errorf("--class level1 tolerances %s, per-class table %s", a, b)
	}
	if a, b := len(mo["critical_latencies_s"].([]any)), len(lv["critical_latencies_s"].([]any)); a != b {
		t.Errorf("--class level1: %d critical latencies, per-class table %d", a, b)
	}
	// Every link at 1 µs: the critical paths are the same for every class, and
	// ℓ's λ_L (most terms on one of them) lies between the largest class's
	// and the classes' sum (each class's most terms, maybe on different ones).
	lh, l1, lw := byName["host"]["lambda"].(float64), lv["lambda"].(float64), ma["lambda_L"].(float64)
	if lw < max(lh, l1) || lw > lh+l1 {
		t.Errorf("one-ℓ λ_L %v, per-class λ host %v, level1 %v", lw, lh, l1)
	}
}

// TestSensitivitySwitchClass: with 200 ns at every switch on the same 4-host
// fat tree, the report has the class "switch" at 200 ns with λ > 0, --class
// switch sweeps it and says so, and the re-emulation with the switches at
// 200 ns + 50 ns moves the simulated time by λ_switch·50 ns within 1% (the
// long broadcast does not poll, so the critical path holds). A negative switch
// latency is refused with exit 2 naming the key.
func TestSensitivitySwitchClass(t *testing.T) {
	dir := t.TempDir()
	net := []string{"--set", "platform.topology=fat-tree", "--set", "platform.fat_tree=2;2,2;1,1;1,1",
		"--set", "network.model=cm02", "--set", "hpl.bcast=longM", "--set", "network.iprobe_cost=0us"}
	js := filepath.Join(dir, "s.json")
	code, out, errOut := runCLI(t, append(append([]string{"sensitivity", "-q", "--json", js, "--class", "switch"}, net...),
		"--set", "platform.switch_latency=200ns")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "ℓ = latency of one switch") || !strings.Contains(out, "L0 = 200.000 ns") {
		t.Errorf("--class switch does not say what it sweeps:\n%s", out)
	}
	m := readReport(t, js)
	var sw map[string]any
	for _, c := range m["classes"].([]any) {
		if c := c.(map[string]any); c["name"] == "switch" {
			sw = c
		}
	}
	if sw == nil || sw["L_s"].(float64) != 200e-9 || !(sw["lambda"].(float64) > 0) {
		t.Fatalf("switch class %v, want L 200 ns and λ > 0", sw)
	}
	at := func(ls string) float64 {
		code, out, errOut := runCLI(t, append(append([]string{"sensitivity", "-q", "--points", "2"}, net...), "--set", "platform.switch_latency="+ls)...)
		if code != 0 {
			t.Fatalf("run: exit %d: %s", code, errOut)
		}
		return simulatedTime(t, out)
	}
	moved, want := at("250ns")-at("200ns"), sw["lambda"].(float64)*50e-9
	t.Logf("λ_switch %v: switches +50 ns move T by %.6g s re-emulated, %.6g s predicted", sw["lambda"], moved, want)
	if math.Abs(moved-want) > 0.01*want {
		t.Errorf("re-emulated ΔT %.6g s, λ_switch·δ %.6g s", moved, want)
	}
	code, _, errOut = runCLI(t, "run", "--set", "platform.switch_latency=-1us")
	if code != exitInput || !strings.Contains(errOut, "switch_latency") || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
		t.Errorf("negative switch latency: exit %d, stderr %q", code, errOut)
	}
}

// TestSensitivitySeveralTests: with several HPL tests the graph holds the
// whole run, so T(ℓ) is all of them in turn while "HPL Time" was the first
// test's alone; the first line now says which is which (a new user's HPL.dat
// of nine variants read as one test of 412 ms against an HPL Time of 46 ms).
func TestSensitivitySeveralTests(t *testing.T) {
	const says = "(the first of 2 tests; T below is all 2 in turn)"
	for _, c := range []struct {
		n    string
		says bool
	}{{"hpl.n=300", false}, {"hpl.n=[300,400]", true}} {
		code, out, errOut := runCLI(t, "sensitivity", "-q", "--set", c.n, "--set", "hpl.nb=32", "--range", "1us:2us", "--points", "2")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.n, code, errOut)
		}
		first, _, _ := strings.Cut(out, "\n")
		if strings.Contains(first, says) != c.says {
			t.Errorf("%s: first line %q, says %q: %v, want %v", c.n, first, says, !c.says, c.says)
		}
	}
}

// TestSensitivityFactorScaledHoldsTheSwitches: re-emulating at another link
// latency leaves platform.switch_latency where it is, so the factor-scaled
// curve ("the ones to compare with re-emulation") must not scale the
// switches' class with ℓ. It did: on a two-leaf fat tree with 100 ns switches,
// a 3-rank replay whose last message crosses 3 switches, the scaled curve was
// 2.3% over re-emulation at 200.5 µs and 2.8% at 400 µs under SMPI's factors,
// and without factors the switches alone made a "latency factor" note and a
// scaled table (slope 4.3 for λ_L 4). The curve is held to re-emulation here,
// and without factors there is no scaled table, its slope being λ_L's.
func TestSensitivityFactorScaledHoldsTheSwitches(t *testing.T) {
	dir := t.TempDir()
	writeIn(t, dir, "tri.txt", "0 init\n1 init\n2 init\n0 compute 1e6\n0 send 1 0 1\n1 recv 0 0 1\n1 compute 1e6\n"+
		"1 send 2 0 1\n2 recv 1 0 1\n0 compute 2e6\n0 send 2 1 1\n2 recv 0 1 1\n0 finalize\n1 finalize\n2 finalize\n")
	scen := writeIn(t, dir, "ft.toml", "app = \"replay\"\n[replay]\nfile = \"tri.txt\"\n[platform]\ntopology = \"fat-tree\"\n"+
		"fat_tree = \"2;2,2;1,2;1,1\"\nlink_bandwidth = \"10GBps\"\nlink_latency = \"1us\"\nspeed = \"1Gf\"\nswitch_latency = \"100ns\"\n"+
		"[network]\nmodel = \"smpi\"\n")
	for _, factors := range []bool{true, false} {
		sets := []string{}
		if !factors {
			sets = []string{"--set", "network.lat_factor=none"}
		}
		js := filepath.Join(dir, "s.json")
		code, out, errOut := runCLI(t, append([]string{"sensitivity", "-q", scen, "--range", "1us:400us", "--points", "3", "--json", js}, sets...)...)
		if code != 0 {
			t.Fatalf("factors %v: exit %d: %s", factors, code, errOut)
		}
		m := readReport(t, js)
		fs, ok := m["factor_scaled"].(map[string]any)
		if !factors {
			if ok || strings.Contains(out, "latency factor") {
				t.Errorf("no factors: a factor-scaled analysis of the switches:\n%s", out)
			}
			continue
		}
		if !ok {
			t.Fatalf("no factor_scaled:\n%s", out)
		}
		for i, pt := range fs["curve"].([]any) {
			p := pt.(map[string]any)
			L, T := p["L_s"].(float64), p["runtime_s"].(float64)
			rj := filepath.Join(dir, strconv.Itoa(i)+".json")
			code, _, errOut := runCLI(t, "run", "-q", scen, "--json", rj,
				"--set", "platform.link_latency="+strconv.FormatFloat(L*1e6, 'g', -1, 64)+"us")
			if code != 0 {
				t.Fatalf("run: exit %d: %s", code, errOut)
			}
			// the replay does not adapt: the graph is the re-emulation but for
			// the 1-byte transfers' share of bandwidth (ns of ms)
			if sim := readReport(t, rj)["simulated_time_s"].(float64); math.Abs(T-sim) > 1e-5*sim {
				t.Errorf("link %g µs: factor-scaled graph %.9f s, re-emulated %.9f s", L*1e6, T, sim)
			}
		}
		if strings.Contains(out, "factor(s) above 1 are classes 1..2") {
			t.Errorf("the switches' class is counted as a latency factor:\n%s", out)
		}
	}
}
