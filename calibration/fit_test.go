package calibration

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/models"
)

// coefTol is the relative error allowed on a recovered coefficient (the
// issue's 5%).
const coefTol = 0.05

// synthetic draws samples of plan p's calls from a known per-host dgemm
// model T = a_h·m·n·k + b with 2% Gaussian relative noise, and daxpy
// T = c·n + d, plus empty calls that must be skipped.
func synthetic(p Plan, hosts map[string]float64) []Sample {
	rng := rand.New(rand.NewPCG(4, 4))
	var out []Sample
	for h, a := range hosts {
		for i := 0; i < p.Total(); i++ {
			c := p.Call(i)
			s := Sample{Index: i, Host: h, Kernel: c.Kernel, M: c.M, N: c.N, K: c.K}
			switch c.Kernel {
			case "dgemm":
				s.Seconds = a*float64(c.M*c.N*c.K) + 2e-6
			default:
				s.Seconds = 1e-9*float64(c.N) + 5e-7
			}
			s.Seconds *= 1 + 0.02*rng.NormFloat64()
			out = append(out, s)
		}
		out = append(out, Sample{Host: h, Kernel: "dgemm", M: 10, N: 0, K: 3, Seconds: 1e-6})
	}
	return out
}

func TestFitSamplesRecoversPerHostModels(t *testing.T) {
	p := Plan{Kernels: []string{"dgemm", "daxpy"}, Samples: 200, MaxDim: 400, Seed: 1}
	hosts := map[string]float64{"fast": 1e-11, "slow": 2e-11}
	family, err := models.ParseFamily("Mh1-N1")
	if err != nil {
		t.Fatal(err)
	}
	set, fits, err := FitSamples(synthetic(p, hosts), family, models.FitOptions{Seed: 1, PerHost: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(fits) != 2 || fits[0].Kernel != "daxpy" || fits[1].Kernel != "dgemm" || fits[1].Skipped != 2 {
		t.Fatalf("fits %+v", fits)
	}
	// Each host's dgemm mean at a large call must match its generating model.
	v := models.Vars{M: 400, N: 400, K: 128, W: 400 * 400 * 128}
	for h, a := range hosts {
		want := a*v.W + 2e-6
		got := set.For("dgemm", h).Mean(v)
		if math.Abs(got-want) > coefTol*want {
			t.Errorf("host %s: dgemm mean %g s, want %g s within %g", h, got, want, coefTol)
		}
	}
	var table strings.Builder
	if err := WriteFitTable(&table, fits); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"kernel", "dgemm", "daxpy", "fast", "slow", "CV-RMSE"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
}

func TestFitSamplesErrors(t *testing.T) {
	family, _ := models.ParseFamily("M1-N0")
	if _, _, err := FitSamples(nil, family, models.FitOptions{}); err == nil {
		t.Error("fitting no samples succeeded")
	}
	two := []Sample{{Kernel: "dgemm", Host: "h", M: 1, N: 1, K: 1, Seconds: 1}, {Kernel: "dgemm", Host: "h", M: 2, N: 1, K: 1, Seconds: 2}}
	if _, _, err := FitSamples(two, family, models.FitOptions{}); err == nil || !strings.Contains(err.Error(), "kernel dgemm") {
		t.Errorf("fitting two samples: %v, want an error naming dgemm", err)
	}
}

func TestWritePlots(t *testing.T) {
	p := Plan{Kernels: []string{"dgemm", "daxpy"}, Samples: 50, MaxDim: 200, Seed: 2}
	samples := synthetic(p, map[string]float64{"a": 1e-11, "b": 3e-11})
	family, _ := models.ParseFamily("Mh2-N0")
	set, _, err := FitSamples(samples, family, models.FitOptions{PerHost: true, MinHost: 10})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files, err := WritePlots(dir, samples, set)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"daxpy-residuals.svg", "daxpy.svg", "dgemm-residuals.svg", "dgemm.svg"}
	if len(files) != len(want) {
		t.Fatalf("wrote %v, want %v", files, want)
	}
	for i, f := range files {
		data, err := os.ReadFile(f)
		if filepath.Base(f) != want[i] || err != nil || !strings.Contains(string(data), "<svg") {
			t.Errorf("file %s: %v, %d bytes", f, err, len(data))
		}
	}
}

// TestFitEachKernelReportsFailures: a kernel that cannot be fitted is
// returned as failed, naming it, and the others are fitted; with none
// fitted the error says so and wraps the kernel's.
func TestFitEachKernelReportsFailures(t *testing.T) {
	family, _ := models.ParseFamily("M1-N0")
	rows := []Sample{{Kernel: "daxpy", Host: "h", N: 10, Seconds: 1e-8}, {Kernel: "daxpy", Host: "h", N: 20, Seconds: 2e-8}}
	for i := 1; i <= 5; i++ {
		rows = append(rows, Sample{Kernel: "dgemm", Host: "h", M: 10 * i, N: 10, K: 10, Seconds: 1e-9 * float64(100*10*i)})
	}
	set, fits, failed, err := FitEachKernel(rows, family, models.FitOptions{})
	if err != nil || len(fits) != 1 || fits[0].Kernel != "dgemm" || len(failed) != 1 || !strings.Contains(failed[0].Error(), "kernel daxpy: ") {
		t.Fatalf("fits %+v, failed %v, err %v", fits, failed, err)
	}
	if set.For("dgemm", "h") == nil || set.For("daxpy", "h") != nil {
		t.Errorf("set kernels %v, want dgemm only", set.Kernels())
	}
	if _, _, err := FitSamples(rows, family, models.FitOptions{}); err == nil || !strings.Contains(err.Error(), "kernel daxpy") {
		t.Errorf("FitSamples: %v, want the daxpy error", err)
	}
	_, _, failed, err = FitEachKernel(rows[:2], family, models.FitOptions{})
	if err == nil || !strings.Contains(err.Error(), "no kernel could be fitted: kernel daxpy: ") || len(failed) != 1 {
		t.Errorf("only daxpy: %v, %v", failed, err)
	}
}
