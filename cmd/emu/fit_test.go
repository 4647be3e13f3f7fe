package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/calibration"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/scenario"
)

// fitCoefTol is the relative error allowed on a recovered model mean (the
// issue's 5%).
const fitCoefTol = 0.05

// writeSynthetic writes a sample file drawn without noise from
// dgemm T = 1e-11·m·n·k + 3e-6 s on host h1 and twice as slow on h2.
func writeSynthetic(t *testing.T, path string) {
	t.Helper()
	p := calibration.Plan{Kernels: []string{"dgemm"}, Samples: 60, MaxDim: 300, Seed: 9}
	var rows []calibration.Sample
	for h, a := range map[string]float64{"h1": 1e-11, "h2": 2e-11} {
		for i := 0; i < p.Total(); i++ {
			c := p.Call(i)
			rows = append(rows, calibration.Sample{Index: i, Host: h, Core: 0, Kernel: c.Kernel, M: c.M, N: c.N, K: c.K,
				Seconds: a*float64(c.M*c.N*c.K) + 3e-6})
		}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := calibration.WriteSamples(f, rows); err != nil {
		t.Fatal(err)
	}
}

func TestFitWritesModelsTablesAndPlots(t *testing.T) {
	dir := t.TempDir()
	samples, out, plots := filepath.Join(dir, "s.csv"), filepath.Join(dir, "m.toml"), filepath.Join(dir, "fig")
	writeSynthetic(t, samples)
	code, stdout, stderr := runCLI(t, "fit", samples, "--family", "Mh1-N0", "-o", out, "--plot", plots)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"kernel", "dgemm", "h1", "h2", "wrote 2 figures"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	set, err := models.ParseSet(data, out)
	if err != nil {
		t.Fatalf("written models do not parse: %v\n%s", err, data)
	}
	v := models.Vars{M: 300, N: 300, K: 100, W: 300 * 300 * 100}
	for h, a := range map[string]float64{"h1": 1e-11, "h2": 2e-11} {
		want := a*v.W + 3e-6
		if got := set.For("dgemm", h).Mean(v); math.Abs(got-want) > fitCoefTol*want {
			t.Errorf("%s: mean %g, want %g", h, got, want)
		}
	}
	// Without -o the TOML goes to stdout and the table to stderr.
	code, stdout, stderr = runCLI(t, "fit", samples, "--family", "M1-N0")
	if code != exitOK || !strings.Contains(stdout, "[kernels.dgemm]") || !strings.Contains(stderr, "dgemm") {
		t.Fatalf("fit to stdout: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
}

// TestCalibrateThenFit is the evening workflow on this machine, tiny.
func TestCalibrateThenFit(t *testing.T) {
	dir := t.TempDir()
	samples := filepath.Join(dir, "s.csv")
	if code, _, stderr := runCLI(t, "calibrate", "--kernels", "dgemm,daxpy", "--samples", "40", "--max-dim", "64", "-o", samples); code != exitOK {
		t.Fatalf("calibrate: %s", stderr)
	}
	code, stdout, stderr := runCLI(t, "fit", samples, "--family", "auto")
	if code != exitOK || !strings.Contains(stdout, "[kernels.daxpy]") || !strings.Contains(stdout, "[kernels.dgemm]") {
		t.Fatalf("fit: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

func TestFitNetworkFactors(t *testing.T) {
	// osu_latency of a route with L = 1 µs, B = 10 GB/s nominal: up to 1 KiB
	// the time is 2 µs + s/5 GB/s (factors 2 and 0.5), beyond it
	// 4 µs + s/8 GB/s (factors 4 and 0.8).
	var b strings.Builder
	b.WriteString("# OSU MPI Latency Test\n# Size          Latency (us)\n")
	for s := 1; s <= 1<<20; s *= 2 {
		us := 2 + float64(s)/5e9*1e6
		if s > 1024 {
			us = 4 + float64(s)/8e9*1e6
		}
		fmt.Fprintf(&b, "%d %.6f\n", s, us)
	}
	path := filepath.Join(t.TempDir(), "osu.txt")
	os.WriteFile(path, []byte(b.String()), 0o644)
	code, stdout, stderr := runCLI(t, "fit", "--network", path, "--latency", "1us", "--bandwidth", "10GBps")
	if code != exitOK || !strings.Contains(stdout, "[network]\nlat_factor = \"0:") || !strings.Contains(stdout, "bw_factor = ") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
}

func TestFitBadInput(t *testing.T) {
	dir := t.TempDir()
	samples := filepath.Join(dir, "s.csv")
	writeSynthetic(t, samples)
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("kernel,host,m,n,k,seconds\ndgemm,h,1,2,3,1e-6\ndgemm,h,1,2,x,1e-6\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"fit", samples, "--family", "M9-N0"}, "emu: fit: --family: family \"M9-N0\""},
		{[]string{"fit", bad}, bad + `:3: column k: "x" is not a non-negative integer`},
		{[]string{"fit", filepath.Join(dir, "missing.csv")}, "missing.csv"},
		{[]string{"fit"}, "no sample file given"},
		{[]string{"fit", "--network", samples}, "--latency and --bandwidth"},
		{[]string{"fit", "--network", samples, "--latency", "1parsec", "--bandwidth", "1GBps"}, "--latency"},
		{[]string{"fit", "--network", bad, "--latency", "1us", "--bandwidth", "1GBps"}, bad + ":1: want columns bytes and seconds"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(t, c.args...)
		if code != exitInput || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// predictTol bounds the relative gap between a model-mode prediction from
// this machine's calibration and the timed-mode run of the same HPL. The
// issue's target is 5% (measured here: M1-N0 within 6% at N=2000 on a
// loaded 2-core VM, see the kernels report); the bound is loose because CI
// machines are shared, and still catches a wrong work term, dimension
// convention or unit anywhere between calibrate, fit and kernels.
const predictTol = 0.25

// TestCalibrationPredictsTimedHPL is the workflow: calibrate this
// machine, fit, and check that a model-mode HPL predicts the timed-mode run.
// Both measure process CPU time so that other processes do not count.
func TestCalibrationPredictsTimedHPL(t *testing.T) {
	// Measurements on a shared machine are noisy (another process's burst can
	// inflate a whole calibration), so the workflow is tried up to three times
	// with fresh samples; a systematic error (a wrong unit, work term or
	// dimension convention) is off by far more than predictTol every time.
	var gaps []string
	for attempt := 1; attempt <= 3; attempt++ {
		timed, model := calibrateAndPredict(t, uint64(attempt+1))
		t.Logf("attempt %d, HPL N=1000 2×2: timed %.4f s, model %.4f s (%+.1f%%)", attempt, timed, model, 100*(model/timed-1))
		if math.Abs(model/timed-1) <= predictTol {
			return
		}
		gaps = append(gaps, fmt.Sprintf("%+.1f%%", 100*(model/timed-1)))
	}
	t.Errorf("model-mode HPL vs timed HPL off by more than %g in every attempt: %v", predictTol, gaps)
}

// calibrateAndPredict calibrates this machine with the given plan seed, fits M1-N0 and
// returns the timed-mode and the model-mode HPL Time of the same small problem.
func calibrateAndPredict(t *testing.T, seed uint64) (timed, model float64) {
	t.Helper()
	dir := t.TempDir()
	samples, fitted := filepath.Join(dir, "s.csv"), filepath.Join(dir, "m.toml")
	if code, _, stderr := runCLI(t, "calibrate", "--samples", "100", "--max-dim", "520", "--clock", "cpu", "--seed", fmt.Sprint(seed), "-o", samples); code != exitOK {
		t.Fatalf("calibrate: %s", stderr)
	}
	if code, _, stderr := runCLI(t, "fit", samples, "--family", "M1-N0", "-o", fitted); code != exitOK {
		t.Fatalf("fit: %s", stderr)
	}
	hplTime := func(mode string) float64 {
		path := filepath.Join(dir, mode+".toml")
		os.WriteFile(path, []byte(`app = "hpl"
seed = 1
[platform]
topology = "flat"
hosts = 4
cores_per_host = 1
link_bandwidth = "10Gbps"
link_latency = "1us"
[kernels]
mode = "`+mode+`"
models = "m.toml"
[hpl]
n = 1000
nb = 64
grids = [[2, 2]]
`), 0o644)
		s, err := scenario.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Validate()
		if err != nil {
			t.Fatal(err)
		}
		p.Kernels.Clock = kernels.CPUClock
		res, err := p.Run(scenario.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res.HPL[0].Time
	}
	return hplTime("timed"), hplTime("model")
}
