package calibration

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
)

// probeFlops is what the probe's dgemm computes: 2·512³ flops.
const probeFlops = 2 * ProbeSize * ProbeSize * ProbeSize

// fakeTimer returns the given durations in turn (the first is the warm-up's)
// without running the call, so a test sets the rate the probe reads.
func fakeTimer(secs ...float64) func(func()) float64 {
	i := 0
	return func(func()) float64 {
		s := secs[min(i, len(secs)-1)]
		i++
		return s
	}
}

var (
	testNode = Node{Host: "n1", CPU: "Test CPU @ 2.1GHz", Cores: 4}
	testTime = time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
)

// TestMeasureProbe: the rate is that of the median timed run; the warm-up
// does not count. Runs of 0.9, 0.01, 0.02, 0.03 s after a 5 s warm-up have
// median 0.02 s: 2·512³ / 0.02 s = 13.42 Gflop/s.
func TestMeasureProbe(t *testing.T) {
	p, err := MeasureProbe(ProbeOptions{Node: testNode, Runs: 4, Timer: fakeTimer(5, 0.9, 0.01, 0.02, 0.03), Now: func() time.Time { return testTime }})
	if err != nil {
		t.Fatal(err)
	}
	// The median of an even count is the mean of the middle two: (0.02 + 0.03) / 2.
	want := models.Probe{Host: "n1", CPU: testNode.CPU, Cores: 4, Backend: "gonum", Clock: "wall", Kernel: "dgemm",
		Size: ProbeSize, Runs: 4, Gflops: probeFlops / 0.025 / 1e9, Time: testTime}
	if p != want {
		t.Errorf("probe %+v\nwant %+v", p, want)
	}
	p, err = MeasureProbe(ProbeOptions{Node: testNode, Host: "other", Timer: fakeTimer(1), Now: func() time.Time { return testTime }})
	if err != nil || p.Host != "other" || p.Runs != ProbeRuns || p.Gflops != probeFlops/1e9 {
		t.Errorf("host override and default runs: %+v, %v", p, err)
	}
	if _, err := MeasureProbe(ProbeOptions{Node: testNode, Timer: fakeTimer(0)}); err == nil {
		t.Error("a probe measured 0 s: no error")
	}
	if _, err := MeasureProbe(ProbeOptions{Backend: "mkl"}); err == nil {
		t.Error("unknown backend: no error")
	}
}

// TestMeasureProbeForReal runs the real probe once, small: a plausible rate
// and this node's identity.
func TestMeasureProbeForReal(t *testing.T) {
	p, err := MeasureProbe(ProbeOptions{Size: 64, Runs: 3})
	if err != nil {
		t.Fatal(err)
	}
	n := ThisNode()
	if p.Host != n.Host || p.Cores != n.Cores || !(p.Gflops > 0) || math.IsInf(p.Gflops, 0) {
		t.Errorf("probe %+v on node %+v", p, n)
	}
}

func TestCPUModel(t *testing.T) {
	cases := map[string]string{
		"processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R)  Gold 6130 CPU @ 2.10GHz\n": "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz",
		"processor\t: 0\nBogoMIPS\t: 50.00\nModel\t\t: Raspberry Pi 4 Model B\n":                               "Raspberry Pi 4 Model B",
		"processor : 0\ncpu model : ICT Loongson-3\n":                                                          "ICT Loongson-3",
		"": "",
	}
	for in, want := range cases {
		if got := cpuModel([]byte(in)); got != want {
			t.Errorf("cpuModel(%q) = %q, want %q", in, got, want)
		}
	}
}

func ref(host string, gflops float64, at time.Time) models.Probe {
	return models.Probe{Host: host, CPU: testNode.CPU, Cores: 4, Backend: "gonum", Clock: "wall", Kernel: "dgemm",
		Size: ProbeSize, Runs: 7, Gflops: gflops, Time: at}
}

// TestCompare: the ratio is then/now in Gflop/s, i.e. now/then in seconds; a
// node that differs says how; probes of different calls do not compare.
func TestCompare(t *testing.T) {
	then, now := ref("n1", 105, testTime), ref("n1", 64, testTime.Add(10*time.Minute))
	d, err := Compare(then, now)
	if err != nil {
		t.Fatal(err)
	}
	// Issue 32's drift: 105 → 64 Gflop/s, calls take 105/64 = 1.640625 as long.
	if d.Ratio != 105.0/64 || len(d.Differs) != 0 {
		t.Errorf("drift %+v, want ratio %g and the same node", d, 105.0/64)
	}
	other := now
	other.Host, other.Cores, other.CPU = "n2", 16, "Other CPU"
	d, _ = Compare(then, other)
	want := []string{"host n2, not n1", `CPU "Other CPU", not "Test CPU @ 2.1GHz"`, "16 cores, not 4"}
	if strings.Join(d.Differs, "|") != strings.Join(want, "|") {
		t.Errorf("differs %q, want %q", d.Differs, want)
	}
	odd := now
	odd.Size = 256
	if _, err := Compare(then, odd); err == nil {
		t.Error("probes of 512³ and 256³ compared")
	}
	if got := NodeDiffers(then, Node{Host: "n1"}); got != nil {
		t.Errorf("unknown CPU and cores differ from nothing: %q", got)
	}
}

func TestReferenceFor(t *testing.T) {
	t0, t1 := testTime, testTime.Add(time.Hour)
	two := []models.Probe{ref("n1", 10, t0), ref("n2", 20, t0), ref("n1", 11, t1)}
	if p, ok := ReferenceFor(two, "n1"); !ok || p.Gflops != 11 {
		t.Errorf("n1 among two nodes: %+v %v, want its latest (11)", p, ok)
	}
	if _, ok := ReferenceFor(two, "n3"); ok {
		t.Error("n3 among n1 and n2: found a reference")
	}
	one := []models.Probe{ref("n1", 10, t0), ref("n1", 12, t1)}
	if p, ok := ReferenceFor(one, "laptop"); !ok || p.Host != "n1" || p.Gflops != 12 {
		t.Errorf("a single node's models checked elsewhere: %+v %v, want n1's latest", p, ok)
	}
	if got := LatestPerHost(two); len(got) != 2 || got[0].Gflops != 11 || got[1].Host != "n2" {
		t.Errorf("LatestPerHost = %+v", got)
	}
}

const rescaleModels = `
[kernels.dgemm]
terms = ["m*n*k"]
coef = [2e-11]
intercept = 1e-6
noise = "gaussian"
sigma = 4e-6

[kernels.dgemm.host.n2]
terms = ["m*n*k"]
coef = [3e-11]
intercept = 0.0

[kernels.dtrsm]
terms = ["w"]
coef = [4e-11]
intercept = 0.0

[kernels.dlaswp]
terms = ["w"]
coef = [9e-9]
intercept = 0.0
`

// TestRescale: a drift of 1.25 multiplies the BLAS kernels' means and σ by
// 1.25 (worked by hand below) and leaves HPL's copies alone; the new probe
// replaces the node's. With several nodes' probes only that node's models
// move: its own override, or one made from the platform-wide model.
func TestRescale(t *testing.T) {
	base, err := models.ParseSet([]byte(rescaleModels), "m.toml")
	if err != nil {
		t.Fatal(err)
	}
	then, now := ref("n1", 10, testTime), ref("n1", 8, testTime.Add(time.Hour))
	d, _ := Compare(then, now) // 10/8 = 1.25
	v := models.Vars{M: 100, N: 100, K: 100, W: 1e6}

	set, done, err := Rescale(base.WithProbes([]models.Probe{then}), d)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(done, ",") != "dgemm,dtrsm" {
		t.Errorf("rescaled %v, want dgemm and dtrsm", done)
	}
	for _, c := range []struct {
		kernel, host string
		want         float64 // s
	}{
		{"dgemm", "n1", 1.25 * (2e-11*1e6 + 1e-6)},
		{"dgemm", "n2", 1.25 * 3e-11 * 1e6}, // a single node's file: every host moves
		{"dtrsm", "n1", 1.25 * 4e-11 * 1e6},
		{"dlaswp", "n1", 9e-9 * 1e6},
	} {
		if got := set.For(c.kernel, c.host).Mean(v); math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("%s on %s: %g s, want %g s", c.kernel, c.host, got, c.want)
		}
	}
	if sp, _ := set.Spec("dgemm"); math.Abs(sp.Sigma-5e-6) > 1e-18 {
		t.Errorf("dgemm σ %g, want 1.25 × 4e-6 = 5e-6", sp.Sigma)
	}
	if p := set.Probes(); len(p) != 1 || p[0] != now {
		t.Errorf("probes %+v, want the new one", p)
	}

	// Two nodes: n1 moves, n2 keeps its override, the platform model stays.
	set, _, err = Rescale(base.WithProbes([]models.Probe{then, ref("n2", 20, testTime)}), d)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kernel, host string
		want         float64
	}{
		{"dgemm", "n1", 1.25 * (2e-11*1e6 + 1e-6)},
		{"dgemm", "n2", 3e-11 * 1e6},
		{"dgemm", "n3", 2e-11*1e6 + 1e-6},
		{"dtrsm", "n1", 1.25 * 4e-11 * 1e6},
		{"dtrsm", "n3", 4e-11 * 1e6},
		{"dlaswp", "n1", 9e-9 * 1e6},
	} {
		if got := set.For(c.kernel, c.host).Mean(v); math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("two nodes: %s on %s: %g s, want %g s", c.kernel, c.host, got, c.want)
		}
	}
	if p := set.Probes(); len(p) != 2 || p[0] != now || p[1].Host != "n2" || p[1].Gflops != 20 {
		t.Errorf("two nodes' probes %+v", p)
	}
}

// TestRescalePerCPU: a node of a several-node file whose models are per CPU
// (Dahu's [kernels.dgemm.host."N/cpuS"]) has its CPUs' models rescaled too.
// Per-CPU models come before the host's, so rescaling only a host-level
// override left every rank of the node at the old speed.
func TestRescalePerCPU(t *testing.T) {
	const doc = rescaleModels + `
[kernels.dgemm.host."n1/cpu0"]
terms = ["m*n*k"]
coef = [5e-11]

[kernels.dgemm.host."n1/cpu1"]
terms = ["m*n*k"]
coef = [6e-11]

[kernels.dgemm.host."n2/cpu0"]
terms = ["m*n*k"]
coef = [7e-11]
`
	base, err := models.ParseSet([]byte(doc), "m.toml")
	if err != nil {
		t.Fatal(err)
	}
	then, now := ref("n1", 10, testTime), ref("n1", 8, testTime.Add(time.Hour))
	d, _ := Compare(then, now) // 10/8 = 1.25
	set, _, err := Rescale(base.WithProbes([]models.Probe{then, ref("n2", 20, testTime)}), d)
	if err != nil {
		t.Fatal(err)
	}
	v := models.Vars{M: 100, N: 100, K: 100, W: 1e6}
	for _, c := range []struct {
		host string
		cpu  int
		want float64 // s, by hand
	}{
		{"n1", 0, 1.25 * 5e-11 * 1e6},
		{"n1", 1, 1.25 * 6e-11 * 1e6},
		{"n1", 2, 1.25 * (2e-11*1e6 + 1e-6)}, // no model of its own: the node's, made from the platform's
		{"n2", 0, 7e-11 * 1e6},               // another node: unchanged
		{"n2", 1, 3e-11 * 1e6},
	} {
		if got := set.ForCPU("dgemm", c.host, c.cpu).Mean(v); math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("dgemm on %s CPU %d: %g s, want %g s", c.host, c.cpu, got, c.want)
		}
	}
}

// TestProbeLines: probes written into a sample file come back from
// ReadProbes, and readers of samples skip them; a bad line is named.
func TestProbeLines(t *testing.T) {
	rows := []Sample{{Index: 0, Host: "n1", Core: 0, Kernel: "dgemm", M: 8, N: 8, K: 8, Seconds: 1e-6}}
	probes := []models.Probe{ref("n1", 10, testTime), ref("n2", 20, testTime)}
	var buf bytes.Buffer
	if err := WriteSampleFile(&buf, rows, probes); err != nil {
		t.Fatal(err)
	}
	got, err := ReadProbes(buf.Bytes(), "s.csv")
	if err != nil || len(got) != 2 || got[0] != probes[0] || got[1] != probes[1] {
		t.Errorf("ReadProbes = %+v, %v", got, err)
	}
	samples, err := ReadSamples(buf.Bytes(), "s.csv")
	if err != nil || len(samples) != 1 {
		t.Errorf("ReadSamples over probe lines: %d rows, %v", len(samples), err)
	}
	bad := strings.Replace(buf.String(), `"gflops":10`, `"gflops":-1`, 1)
	if _, err := ReadProbes([]byte(bad), "s.csv"); err == nil || !strings.HasPrefix(err.Error(), "s.csv:2: probe: gflops: -1") {
		t.Errorf("bad probe: %v", err)
	}
	if _, err := ReadProbes([]byte("h\n# probe {\"host\":\"a\",\"speed\":1}\n"), "s.csv"); err == nil || !strings.Contains(err.Error(), "s.csv:2:") {
		t.Errorf("unknown field: %v", err)
	}
	// A key twice kept the last value without a word (qa47); JSON's keys
	// match encoding/json's way, case-blind, so "Gflops" is gflops again.
	for _, c := range []struct{ from, to, want string }{
		{`"gflops":10`, `"gflops":1,"gflops":10`, `s.csv:2: probe: key "gflops" given twice`},
		{`"host":"n1"`, `"host":"n1","host":"n2"`, `s.csv:2: probe: key "host" given twice`},
		{`"gflops":10`, `"gflops":10,"host":"x"`, `s.csv:2: probe: key "host" given twice`},
		{`"gflops":10`, `"gflops":1,"Gflops":10`, `s.csv:2: probe: key "Gflops" given twice`},
	} {
		twice := strings.Replace(buf.String(), c.from, c.to, 1)
		if _, err := ReadProbes([]byte(twice), "s.csv"); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.to, err, c.want)
		}
	}
}

// TestCampaignWritesProbe: a campaign with Probe writes one probe line,
// keeps it when resumed and when screening rewrites the file; Merge carries
// each node's.
func TestCampaignWritesProbe(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.csv")
	p := smallPlan(3)
	run := func(plan Plan) {
		c := &Campaign{Plan: plan, Out: out, Host: "n1", Probe: &ProbeOptions{Node: testNode, Timer: fakeTimer(0.02)},
			now: func() time.Time { return testTime }}
		if _, err := c.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	run(p)
	run(p) // complete: resumes nothing, adds no probe
	probes, err := ReadProbeFile(out)
	want := models.Probe{Host: "n1", CPU: testNode.CPU, Cores: 4, Backend: "gonum", Clock: "wall", Kernel: "dgemm",
		Size: ProbeSize, Runs: ProbeRuns, Gflops: probeFlops / 0.02 / 1e9, Time: testTime}
	if err != nil || len(probes) != 1 || probes[0] != want {
		t.Fatalf("probes %+v, %v\nwant one: %+v", probes, err, want)
	}
	checkComplete(t, out, p)
	if err := replaceSamples(out, mustRead(t, out)); err != nil {
		t.Fatal(err)
	}
	if probes, _ := ReadProbeFile(out); len(probes) != 1 {
		t.Errorf("after screening's rewrite: %d probes, want 1", len(probes))
	}
	// A second node's file, merged with the first: both probes.
	data, _ := os.ReadFile(out)
	other := filepath.Join(dir, "n2.csv")
	if err := os.WriteFile(other, bytes.ReplaceAll(data, []byte("n1"), []byte("n2")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, merged, _, err := Merge([]string{out, other, out})
	if err != nil || len(merged) != 2 || merged[0].Host != "n1" || merged[1].Host != "n2" {
		t.Errorf("merged probes %+v, %v", merged, err)
	}
}

func mustRead(t *testing.T, path string) []Sample {
	t.Helper()
	s, err := ReadSampleFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// FuzzReadProbes: any input either fails with an error naming the file and
// line, or gives valid probes that a written sample file gives back alike.
func FuzzReadProbes(f *testing.F) {
	var buf bytes.Buffer
	WriteSampleFile(&buf, nil, []models.Probe{ref("n1", 10, testTime)})
	f.Add(buf.Bytes())
	f.Add([]byte("h\n# probe {}\n"))
	f.Add([]byte("# probe {\"host\":\"a\",\"kernel\":\"dgemm\",\"size\":1,\"runs\":1,\"gflops\":1e308,\"time\":\"2026-01-01T00:00:00Z\"} x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		probes, err := ReadProbes(data, "f.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.csv:") {
				t.Fatalf("error without file and line: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := WriteSampleFile(&out, nil, probes); err != nil {
			t.Fatal(err)
		}
		again, err := ReadProbes(out.Bytes(), "out.csv")
		if err != nil || len(again) != len(probes) {
			t.Fatalf("written probes read back: %d, %v (had %d)", len(again), err, len(probes))
		}
		for i := range probes {
			if err := probes[i].Validate(); err != nil || !again[i].Time.Equal(probes[i].Time) || again[i].Gflops != probes[i].Gflops || again[i].Host != probes[i].Host {
				t.Fatalf("probe %d: %+v read back as %+v (%v)", i, probes[i], again[i], err)
			}
		}
	})
}

// TestCompareHandWrittenProbe: a probe written without its backend or clock
// (both optional in a models file) took the defaults, which --check measures
// it again with, so it compares with a probe of them; before, --check said
// "probes differ: dgemm 256³ on  ( clock) then, dgemm 256³ on gonum (wall
// clock) now". A backend or clock named otherwise still differs.
func TestCompareHandWrittenProbe(t *testing.T) {
	now := ref("n1", 8, testTime)
	now.Backend, now.Clock = kernels.DefaultBackend, "wall"
	for _, tc := range []struct {
		backend, clock string
		ok             bool
	}{
		{"", "", true},
		{kernels.DefaultBackend, "", true},
		{"", "wall", true},
		{"", "cpu", false},
		{"openblas", "", false},
	} {
		then := ref("n1", 10, testTime)
		then.Backend, then.Clock = tc.backend, tc.clock
		d, err := Compare(then, now)
		if (err == nil) != tc.ok || (tc.ok && d.Ratio != 10.0/8) {
			t.Errorf("backend %q, clock %q: drift %+v, %v; want compared: %v", tc.backend, tc.clock, d, err, tc.ok)
		}
	}
}
