package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emu-hpc/emu/calibration"
	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/models"
)

// probeSeconds is how long the 512³ probe dgemm runs at gflops.
func probeSeconds(gflops float64) float64 {
	const n = calibration.ProbeSize
	return 2 * n * n * n / (gflops * 1e9)
}

// fakeNode makes this node n1 (a 4-core "Test CPU") whose probe dgemm runs
// at gflops, for the duration of the test.
func fakeNode(t *testing.T, host string, gflops float64) {
	t.Helper()
	savedNode, savedTimer := thisNode, probeTimer
	t.Cleanup(func() { thisNode, probeTimer = savedNode, savedTimer })
	thisNode = func() calibration.Node { return calibration.Node{Host: host, CPU: "Test CPU", Cores: 4} }
	probeTimer = func(func()) float64 { return probeSeconds(gflops) }
}

// agedModels is a models file calibrated on n1 when its dgemm ran at
// 10 Gflop/s.
const agedModels = `[[probe]]
host = "n1"
cpu = "Test CPU"
cores = 4
backend = "gonum"
clock = "wall"
kernel = "dgemm"
size = 512
runs = 7
gflops = 10.0
time = 2026-11-28T08:00:00Z

[kernels.dgemm]
terms = ["m*n*k"]
coef = [2e-11]
intercept = 1e-6
noise = "gaussian"
sigma = 4e-6

[kernels.dtrsm]
terms = ["w"]
coef = [4e-11]
intercept = 0.0

[kernels.dlaswp]
terms = ["w"]
coef = [9e-9]
intercept = 0.0
`

// TestCalibrateCheckRescale: the node now runs the probe at 8 Gflop/s
// against 10 at calibration, so calls take 10/8 = 1.25 times as long;
// --rescale writes dgemm's and dtrsm's coefficients and σ × 1.25 (worked by
// hand below), dlaswp's as they were, and the new probe.
func TestCalibrateCheckRescale(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "models.toml")
	if err := os.WriteFile(in, []byte(agedModels), 0o644); err != nil {
		t.Fatal(err)
	}
	fakeNode(t, "n1", 8)
	code, stdout, stderr := runCLI(t, "calibrate", "--check", in)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"probe of n1, 2026-11-28 08:00 UTC: 10 Gflop/s", "n1 now: 8 Gflop/s (median of 7): calls take 1.25x as long as when calibrated (25.0% slower)",
		"node: the calibrated one", "emu calibrate --check " + in + " --rescale"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--check output lacks %q:\n%s", want, stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "models.rescaled.toml")); err == nil {
		t.Error("--check without --rescale wrote models")
	}

	code, stdout, stderr = runCLI(t, "calibrate", "--check", in, "--rescale")
	if code != exitOK {
		t.Fatalf("--rescale: exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "models.rescaled.toml")
	if !strings.Contains(stdout, "wrote "+out+": dgemm, dtrsm × 1.25") {
		t.Errorf("--rescale output:\n%s", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	set, err := models.ParseSet(data, out)
	if err != nil {
		t.Fatalf("rescaled models do not parse: %v\n%s", err, data)
	}
	for _, c := range []struct {
		kernel string
		coef   float64
		sigma  float64
	}{{"dgemm", 2.5e-11, 5e-6}, {"dtrsm", 5e-11, 0}, {"dlaswp", 9e-9, 0}} {
		sp, _ := set.Spec(c.kernel)
		if math.Abs(sp.Coef[0]-c.coef) > 1e-15*c.coef || math.Abs(sp.Sigma-c.sigma) > 1e-15*c.sigma {
			t.Errorf("%s: coef %g, sigma %g; want %g, %g", c.kernel, sp.Coef[0], sp.Sigma, c.coef, c.sigma)
		}
	}
	if p := set.Probes(); len(p) != 1 || math.Abs(p[0].Gflops-8) > 1e-12 || p[0].Host != "n1" {
		t.Errorf("rescaled models' probe %+v, want n1 at 8 Gflop/s", p)
	}
	// -o elsewhere, and the rescaled file checks as undrifted.
	other := filepath.Join(dir, "now.toml")
	if code, _, stderr := runCLI(t, "calibrate", "--check", in, "--rescale", "-o", other); code != exitOK {
		t.Fatalf("-o: exit %d: %s", code, stderr)
	}
	if _, stdout, _ := runCLI(t, "calibrate", "--check", other); !strings.Contains(stdout, "calls take 1x as long as when calibrated (unchanged)") {
		t.Errorf("the rescaled models checked again:\n%s", stdout)
	}
}

func TestCalibrateCheckErrors(t *testing.T) {
	dir := t.TempDir()
	noProbe := filepath.Join(dir, "published.toml")
	os.WriteFile(noProbe, []byte(agedModels[strings.Index(agedModels, "[kernels.dgemm]"):]), 0o644)
	two := filepath.Join(dir, "two.toml")
	os.WriteFile(two, []byte(strings.Replace(agedModels, "[kernels.dgemm]", strings.Replace(agedModels[:strings.Index(agedModels, "[kernels")], `"n1"`, `"n2"`, 1)+"[kernels.dgemm]", 1)), 0o644)
	one := filepath.Join(dir, "one.toml")
	os.WriteFile(one, []byte(agedModels), 0o644)
	fakeNode(t, "n3", 8)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"calibrate", "--check", noProbe}, "emu: --check " + noProbe + ": the models carry no probe"},
		{[]string{"calibrate", "--check", two}, "emu: --check " + two + ": no probe of n3 among those of n1, n2 (--host NAME picks one)"},
		{[]string{"calibrate", "--check", two, "--host", "n4"}, "emu: --check " + two + ": no probe of n4 among those of n1, n2 (--host NAME picks one)"},
		{[]string{"calibrate", "--check", one, "--host", "n4"}, "emu: --check " + one + ": no probe of n4 among those of n1 (--host NAME picks one)"},
		{[]string{"calibrate", "--rescale"}, "emu: --rescale: only meaningful with --check models.toml"},
		{[]string{"calibrate", "--check", one, "-o", filepath.Join(dir, "new.toml")}, "emu: -o " + filepath.Join(dir, "new.toml") + ": --check writes a file only with --rescale"},
		{[]string{"calibrate", "--check", filepath.Join(dir, "missing.toml")}, "emu: --check: " + filepath.Join(dir, "missing.toml") + ": no such file or directory"},
		// A campaign's flags were dropped without a word: the probe is the models' own.
		{[]string{"calibrate", "--check", one, "--samples", "3", "--backend", "gonum"}, "emu: --backend, --samples: --check measures the models' probe again with its own call, BLAS and clock; it takes --host, --rescale and -o only"},
		{[]string{"calibrate", "--check", one, "--set", "hpl.n=100"}, "emu: --set: --check measures the models' probe again"},
		// --replay was no scenario to calibrate: a standard campaign ran (exit 0).
		{[]string{"calibrate", "--replay", "../../examples/replay-ring.txt", "-o", filepath.Join(dir, "s.csv")}, "emu: calibrate: the scenario runs replay; recording an application's kernel calls needs HPL"},
	} {
		code, _, stderr := runCLI(t, c.args...)
		if code != exitInput || !strings.HasPrefix(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2, %q", c.args, code, stderr, c.want)
		}
	}
	// --host picks n2's probe among two nodes'.
	if code, stdout, stderr := runCLI(t, "calibrate", "--check", two, "--host", "n2"); code != exitOK || !strings.Contains(stdout, "probe of n2") ||
		!strings.Contains(stdout, "not the calibrated one: host n3, not n2") {
		t.Errorf("--host n2: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestRunWarnsOnAgedModels: emu run says, in one line on stderr, when the
// models' probe names another node or this node now runs at another speed
// (beyond agedDrift), and nothing when the models carry no probe or the
// drift is small.
func TestRunWarnsOnAgedModels(t *testing.T) {
	dir := t.TempDir()
	aged := filepath.Join(dir, "aged.toml")
	os.WriteFile(aged, []byte(agedModels), 0o644)
	published := filepath.Join(dir, "published.toml")
	os.WriteFile(published, []byte(agedModels[strings.Index(agedModels, "[kernels.dgemm]"):]), 0o644)
	scenarioFor := func(models string) string {
		path := filepath.Join(dir, filepath.Base(models)+".scenario.toml")
		os.WriteFile(path, []byte("[platform]\nhosts = 2\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n[kernels]\nmode = \"model\"\nmodels = \""+
			filepath.Base(models)+"\"\n[hpl]\nn = 400\nnb = 64\ngrids = [[1, 2]]\n"), 0o644)
		return path
	}
	cases := []struct {
		name   string
		models string
		host   string
		gflops float64
		want   string // "" = no warning
	}{
		{"published models: silence", published, "n1", 5, ""},
		{"same node, 5% drift: silence", aged, "n1", 10 / 1.05, ""},
		{"same node, 1.25x: warning", aged, "n1", 8, "emu: this node's dgemm runs at 8 Gflop/s, 10 when the models were calibrated (2026-11-28 08:00 UTC): calls take 1.25x as long now (25.0% slower)"},
		{"same node, faster: warning", aged, "n1", 20, "calls take 0.5x as long now (100.0% faster)"},
		{"another node: warning", aged, "laptop", 10, "emu: the models were calibrated on another node (this one has host laptop, not n1): the prediction is for n1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fakeNode(t, c.host, c.gflops)
			code, stdout, stderr := runCLI(t, "run", scenarioFor(c.models))
			if code != exitOK || !strings.Contains(stdout, "WR11") {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			var lines []string
			for _, l := range strings.Split(stderr, "\n") {
				if strings.Contains(l, "calibrated") {
					lines = append(lines, l)
				}
			}
			switch {
			case c.want == "" && len(lines) > 0:
				t.Errorf("want silence, got %q", lines)
			case c.want != "" && (len(lines) != 1 || !strings.Contains(lines[0], c.want)):
				t.Errorf("want one line with %q, got %q", c.want, lines)
			}
		})
	}
}

// TestCalibrateFitCarryProbe: emu calibrate writes the probe into the sample
// file, emu fit into the models file, emu calibrate merge keeps each node's.
func TestCalibrateFitCarryProbe(t *testing.T) {
	dir := t.TempDir()
	fakeNode(t, "n1", 12.5)
	samples, modelsFile := filepath.Join(dir, "s.csv"), filepath.Join(dir, "m.toml")
	if code, _, stderr := runCLI(t, "calibrate", "--kernels", "dgemm", "--samples", "4", "--max-dim", "32", "--host", "n1", "-o", samples); code != exitOK {
		t.Fatalf("calibrate: exit %d: %s", code, stderr)
	}
	probes, err := calibration.ReadProbeFile(samples)
	if err != nil || len(probes) != 1 || math.Abs(probes[0].Gflops-12.5) > 1e-12 || probes[0].Host != "n1" || probes[0].CPU != "Test CPU" || probes[0].Cores != 4 {
		t.Fatalf("sample file's probes %+v, %v", probes, err)
	}
	// A second node's samples: the same rows and probe under host n2.
	data, _ := os.ReadFile(samples)
	n2 := filepath.Join(dir, "n2.csv")
	os.WriteFile(n2, []byte(strings.ReplaceAll(string(data), "n1", "n2")), 0o644)
	all := filepath.Join(dir, "all.csv")
	if code, _, stderr := runCLI(t, "calibrate", "merge", samples, n2, "-o", all); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "fit", all, "--family", "M1-N0", "-o", modelsFile); code != exitOK {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	text, _ := os.ReadFile(modelsFile)
	set, err := models.ParseSet(text, modelsFile)
	if err != nil {
		t.Fatal(err)
	}
	if p := set.Probes(); len(p) != 2 || p[0].Host != "n1" || p[1].Host != "n2" || math.Abs(p[0].Gflops-12.5) > 1e-12 {
		t.Errorf("models' probes %+v, want n1's and n2's", p)
	}
}

// TestPerHostModelsWithHostSpeed: per-host models fitted from a two-node
// campaign (merge, fit --per-host) and a host_speed what-if compose: the
// rank on the slowed host computes exactly 1/speed as long as without it,
// the other exactly as long. The samples are drawn without noise from
// dgemm T = a·m·n·k, a = 1e-11 on h0 and 2e-11 on h1, so the fitted means
// have no intercept worth a chunk of HPL's update (whose dgemm splits as
// the broadcast progresses; the total m·n·k does not change).
func TestPerHostModelsWithHostSpeed(t *testing.T) {
	dir := t.TempDir()
	var files []string
	p := calibration.Plan{Kernels: []string{"dgemm"}, Samples: 60, MaxDim: 300, Seed: 9}
	for h, a := range []float64{1e-11, 2e-11} {
		host := "h" + strconv.Itoa(h)
		var rows []calibration.Sample
		for i := 0; i < p.Total(); i++ {
			c := p.Call(i)
			rows = append(rows, calibration.Sample{Index: i, Plan: "p", Host: host, Core: 0, Kernel: c.Kernel, M: c.M, N: c.N, K: c.K,
				Seconds: a * float64(c.M*c.N*c.K)})
		}
		path := filepath.Join(dir, host+".csv")
		writeSampleFile(t, path, rows)
		files = append(files, path)
	}
	all, modelsFile := filepath.Join(dir, "all.csv"), filepath.Join(dir, "m.toml")
	if code, _, stderr := runCLI(t, append([]string{"calibrate", "merge", "-o", all}, files...)...); code != exitOK {
		t.Fatalf("merge: %s", stderr)
	}
	if code, _, stderr := runCLI(t, "fit", all, "--family", "Mh1-N0", "-o", modelsFile); code != exitOK {
		t.Fatalf("fit: %s", stderr)
	}
	sc := filepath.Join(dir, "s.toml")
	os.WriteFile(sc, []byte("[platform]\nhosts = 2\nhost_prefix = \"h\"\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n"+
		"[kernels]\nmode = \"model\"\nmodels = \"m.toml\"\n[hpl]\nn = 600\nnb = 32\ngrids = [[1, 2]]\n"), 0o644)
	compute := func(sets ...string) []float64 {
		t.Helper()
		plot := filepath.Join(dir, "plot-"+strconv.Itoa(len(sets)))
		args := []string{"run", sc, "--plot", plot}
		for _, s := range sets {
			args = append(args, "--set", s)
		}
		if code, _, stderr := runCLI(t, args...); code != exitOK {
			t.Fatalf("run %v: %s", sets, stderr)
		}
		rows := scenariotest.ReadCSV(t, filepath.Join(plot, "rank_time.csv"))
		var out []float64
		for _, r := range rows[1:] {
			v, _ := strconv.ParseFloat(r[1], 64)
			out = append(out, v)
		}
		return out
	}
	base, slowed := compute(), compute("kernels.host_speed.h1=0.5")
	if len(base) != 2 || len(slowed) != 2 {
		t.Fatalf("ranks: %v, %v", base, slowed)
	}
	// Rank 1 runs on h1, whose own model is twice h0's: about twice rank 0's dgemm.
	if !(base[1] > 1.5*base[0]) {
		t.Errorf("without a what-if rank 1 (h1, 2e-11 s per m·n·k) computes %g s, rank 0 (h0, 1e-11) %g s", base[1], base[0])
	}
	const tol = 1e-9 // relative: the fitted intercepts are rounding, far below a chunk's m·n·k
	if math.Abs(slowed[0]-base[0]) > tol*base[0] || math.Abs(slowed[1]-2*base[1]) > tol*base[1] {
		t.Errorf("h1 at 0.5: ranks compute %v s, want [%g %g]", slowed, base[0], 2*base[1])
	}
}

// TestTuneSweepsVariability: the variability keys are sweep axes of emu tune
// as they are: spreads (a percent or a fraction), a spread's seed, and one
// host's factor by its bare name. On the embedded default, every point with a
// spread or a slow host runs at another Time than the homogeneous cluster,
// and a spread of 10% and of 0.1 are the same point, run once (a note says
// so: tune_same.go).
func TestTuneSweepsVariability(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, "tune", "--quiet", "--out", dir, "--sweep", "kernels.host_spread=0,10%,0.1",
		"--sweep", "kernels.host_speed.host-1=1,0.5")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	times := map[string]string{} // point → time_s column
	for _, line := range strings.Split(stdout, "\n") {
		f := strings.Fields(line)
		if len(f) >= 6 && f[0] != "rank" {
			times[strings.Join(f[5:], " ")] = f[2]
		}
	}
	base := times["host_spread=0 host-1=1"]
	if len(times) != 4 || base == "" {
		t.Fatalf("want 4 points, got %v\n%s", times, stdout)
	}
	for p, tm := range times {
		if p != "host_spread=0 host-1=1" && tm == base {
			t.Errorf("%s: Time %s, the homogeneous cluster's", p, tm)
		}
	}
	if !strings.Contains(stderr, "10% and 0.1 are one configuration (the same kernels.host_spread): run once, as 10%") {
		t.Errorf("10%% and 0.1 not taken for one point: %s", stderr)
	}
}

// TestRunNotesHostSpeeds: emu run names the hosts a what-if slows, few of
// them one by one, many as the slowest, the fastest and the spread.
func TestRunNotesHostSpeeds(t *testing.T) {
	cases := []struct {
		sets []string
		want string
	}{
		{[]string{"kernels.host_speed.host-1=0.8"}, "emu: host speeds (durations ÷ speed): host-1 0.8; the others 1\n"},
		{[]string{"kernels.host_speed.host-1=0.8", "kernels.host_speed.host-3=1.25"}, "emu: host speeds (durations ÷ speed): host-1 0.8, host-3 1.25; the others 1\n"},
		// 8 hosts: host-2 and host-5 at 0.5, host-7 at 0.9, host-0 and host-1 at
		// 1.2, three at 1. Mean (1 + 0.9 + 2.4 + 3) / 8 = 0.9125; mean square
		// (0.5 + 0.81 + 2.88 + 3) / 8 = 0.89875; SD √(0.89875 − 0.9125²) = 25.7%.
		{[]string{"platform.hosts=8", `kernels.host_speed={"host-[25]" = 0.5, "host-7" = 0.9, "host-0..1" = 1.2}`},
			"emu: host speeds (durations ÷ speed) of 8 hosts: slowest host-2 0.5, fastest host-0 1.2, mean 0.9125, SD 25.7% (--json lists each)\n"},
		// Five hosts slowed of 8 (0.5, 0.9 and three at 0.8): the three left at 1
		// are the fastest. Mean (0.5 + 0.9 + 2.4 + 3) / 8 = 0.85; mean square
		// (0.25 + 0.81 + 1.92 + 3) / 8 = 0.7475; SD √(0.7475 − 0.85²) = 15.8%.
		{[]string{"platform.hosts=8", `kernels.host_speed={"host-0" = 0.5, "host-1" = 0.9, "host-2..4" = 0.8}`},
			"emu: host speeds (durations ÷ speed) of 8 hosts: slowest host-0 0.5, fastest the 3 at 1, mean 0.85, SD 15.8% (--json lists each)\n"},
		// And five sped up to 1.1: the hosts at 1 are the slowest. Mean 8.5 / 8 =
		// 1.0625; mean square 9.05 / 8; SD √(1.13125 − 1.0625²) = 4.84%.
		{[]string{"platform.hosts=8", `kernels.host_speed={"host-[0-4]" = 1.1}`},
			"emu: host speeds (durations ÷ speed) of 8 hosts: slowest the 3 at 1, fastest host-0 1.1, mean 1.062, SD 4.84% (--json lists each)\n"},
		{nil, ""},
	}
	for _, c := range cases {
		args := []string{"run"}
		for _, s := range c.sets {
			args = append(args, "--set", s)
		}
		code, _, stderr := runCLI(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", c.sets, code, stderr)
		}
		got := ""
		for _, l := range strings.SplitAfter(stderr, "\n") {
			if strings.HasPrefix(l, "emu: host speeds") {
				got += l
			}
		}
		if got != c.want {
			t.Errorf("%v: noted %q, want %q", c.sets, got, c.want)
		}
	}
}

// TestCalibrateRescaleRefusesItsOutputFirst: --rescale -o into a folder that
// does not exist measured the probe and printed the drift before refusing the
// path; a bad -o is bad input, refused before any work, with nothing printed.
func TestCalibrateRescaleRefusesItsOutputFirst(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.toml")
	os.WriteFile(one, []byte(agedModels), 0o644)
	fakeNode(t, "n1", 8)
	for _, out := range []string{filepath.Join(dir, "missing", "x.toml"), dir} {
		code, stdout, stderr := runCLI(t, "calibrate", "--check", one, "--rescale", "-o", out)
		if code != exitInput || !strings.HasPrefix(stderr, "emu: -o "+out+": ") || stdout != "" {
			t.Errorf("-o %s: exit %d, stdout %q, stderr %q; want 2, nothing measured, the -o named", out, code, stdout, stderr)
		}
	}
}

// TestProbeHostsNamesAFew: the nodes a models file was calibrated on are all
// named up to 8; a campaign on more (64 or 1,024 nodes, calibrate merge) names
// the first 7 and counts the rest, so that emu run's one warning line stays a
// line.
func TestProbeHostsNamesAFew(t *testing.T) {
	probes := func(n int) []models.Probe {
		ps := make([]models.Probe, n)
		for i := range ps {
			ps[i].Host = fmt.Sprintf("n%d", i)
		}
		return ps
	}
	for _, c := range []struct {
		n    int
		want string
	}{
		{1, "n0"},
		{2, "n0, n1"},
		{8, "n0, n1, n2, n3, n4, n5, n6, n7"},
		{9, "n0, n1, n2, n3, n4, n5, n6 and 2 more (9 nodes)"},
		{64, "n0, n1, n2, n3, n4, n5, n6 and 57 more (64 nodes)"},
		{1024, "n0, n1, n2, n3, n4, n5, n6 and 1017 more (1024 nodes)"},
	} {
		if got := probeHosts(probes(c.n)); got != c.want {
			t.Errorf("%d probes: %q, want %q", c.n, got, c.want)
		}
	}
}

// TestDriftWords: a drift in words; a ratio read from a probe of 10³⁰⁰
// Gflop/s printed 300 digits of percent, one without its time read
// "0001-01-01 00:00 UTC".
func TestDriftWords(t *testing.T) {
	for _, tc := range []struct {
		ratio float64
		want  string
	}{
		{1.046, "4.6% slower"},
		{0.5, "100.0% faster"},
		{1, "unchanged"},
		{11, "1000.0% slower"},
		{1001, "1e+05% slower"},
		{2.661e299, "2.66e+301% slower"},
		{1e-300, "1e+302% faster"},
	} {
		if got := driftWords(tc.ratio); got != tc.want {
			t.Errorf("driftWords(%g) = %q, want %q", tc.ratio, got, tc.want)
		}
	}
	if got := probeWhen(models.Probe{}); got != "time unknown" {
		t.Errorf("a probe without its time: %q", got)
	}
	if got := probeWhen(models.Probe{Time: time.Date(2026, 11, 28, 8, 30, 0, 0, time.UTC)}); got != "2026-11-28 08:30 UTC" {
		t.Errorf("a probe of 2026-11-28T08:30Z: %q", got)
	}
}

// TestPrintedCommandsQuotePaths: the commands emu prints to copy (rescale
// the models, reproduce a search's best point, analyse the graph) quote a path the shell would split: a
// models file "my models.toml" gave "emu calibrate --check my models.toml
// --rescale", which the shell reads as two files.
func TestPrintedCommandsQuotePaths(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "my models.toml")
	if err := os.WriteFile(in, []byte(agedModels), 0o644); err != nil {
		t.Fatal(err)
	}
	fakeNode(t, "n1", 8)
	if _, stdout, _ := runCLI(t, "calibrate", "--check", in, "--host", "n1"); !strings.Contains(stdout, "emu calibrate --check '"+in+"' --host n1 --rescale") {
		t.Errorf("--check's suggestion does not quote the models' path:\n%s", stdout)
	}
	dat := filepath.Join(dir, "best point.dat")
	code, stdout, stderr := runCLI(t, "tune", "--quiet", "--search", "--out", filepath.Join(dir, "s"), "--write-hpl-dat", dat,
		"--set", "platform.hosts=4", "--set", "hpl.n=500", "--sweep", "nb=32,64", "--sweep", "grid=1x4")
	if code != exitOK || !strings.Contains(stdout, "reproduce with: emu run --hpl-dat '"+dat+"'") {
		t.Errorf("exit %d; tune --search's command does not quote its HPL.dat:\n%s%s", code, stdout, stderr)
	}
	graph := filepath.Join(dir, "a graph")
	code, _, stderr = runCLI(t, "run", "--set", "hpl.n=200", "--graph", graph)
	if code != exitOK || !strings.Contains(stderr, "analyse it with: emu analyze '"+graph+"'") {
		t.Errorf("exit %d; --graph's suggestion does not quote its path:\n%s", code, stderr)
	}
}

// TestRunNotesHostSpeedsOfNoCompute: a what-if of host speeds on a run that
// computes nothing (ping-pong, ring, a job mix of ring and congestor) says
// that it moves no time, once; a run that computes (HPL) gets no such note.
// Before, emu named the slow hosts and ran the same times without a word.
func TestRunNotesHostSpeedsOfNoCompute(t *testing.T) {
	const note = "emu: note: %s computes nothing (messages alone): host speeds change no time\n"
	for _, tc := range []struct {
		args []string
		apps string // "" for no note
	}{
		{[]string{"run", "../../examples/pingpong.toml", "--set", "kernels.host_speed.host-1=0.5"}, "pingpong"},
		{[]string{"run", "../../examples/pingpong.toml", "--set", "app=ring", "--set", "ring.iterations=2", "--set", "kernels.host_speed.host-1=0.5"}, "ring"},
		{[]string{"run", "../../examples/jobs-congestor.toml", "--no-alone", "--set", `kernels.host_speed."*"=0.5`}, "congestor and ring"},
		{[]string{"run", "--set", "kernels.host_speed.host-1=0.5"}, ""},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
		}
		want := ""
		if tc.apps != "" {
			want = fmt.Sprintf(note, tc.apps)
		}
		got := ""
		for _, l := range strings.SplitAfter(stderr, "\n") {
			if strings.Contains(l, "computes nothing") {
				got += l
			}
		}
		if got != want {
			t.Errorf("%v: noted %q, want %q", tc.args, got, want)
		}
	}
}
