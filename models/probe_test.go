package models

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

const probeSet = `
[[probe]]
host = "node1"
cpu = "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz"
cores = 32
backend = "gonum"
clock = "wall"
kernel = "dgemm"
size = 512
runs = 7
gflops = 41.75
time = 2026-11-28T08:30:00Z

[[probe]]
host = "node2"
kernel = "dgemm"
size = 512
runs = 7
gflops = 38.5
time = 2026-11-28T08:31:00Z

[kernels.dgemm]
terms = ["m*n*k"]
coef = [2e-11]
intercept = 1e-6
`

// TestProbeRoundTrip: a models file's probes parse, marshal and parse again
// to the same probes and the same bytes.
func TestProbeRoundTrip(t *testing.T) {
	s, err := ParseSet([]byte(probeSet), "m.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := []Probe{
		{Host: "node1", CPU: "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz", Cores: 32, Backend: "gonum", Clock: "wall",
			Kernel: "dgemm", Size: 512, Runs: 7, Gflops: 41.75, Time: time.Date(2026, 11, 28, 8, 30, 0, 0, time.UTC)},
		{Host: "node2", Kernel: "dgemm", Size: 512, Runs: 7, Gflops: 38.5, Time: time.Date(2026, 11, 28, 8, 31, 0, 0, time.UTC)},
	}
	if got := s.Probes(); !probesEqual(got, want) {
		t.Fatalf("probes %+v\nwant %+v", got, want)
	}
	out, err := s.MarshalTOML()
	if err != nil {
		t.Fatal(err)
	}
	s2, err := ParseSet(out, "out.toml")
	if err != nil {
		t.Fatalf("re-parse: %v\n%s", err, out)
	}
	if !probesEqual(s2.Probes(), want) {
		t.Errorf("after a round trip: %+v", s2.Probes())
	}
	out2, _ := s2.MarshalTOML()
	if !bytes.Equal(out, out2) {
		t.Errorf("marshal is not stable:\n%s\n---\n%s", out, out2)
	}
	if !strings.HasPrefix(string(out), "[[probe]]\n") || !strings.Contains(string(out), "\n\n[kernels.dgemm]\n") {
		t.Errorf("layout: want the probes first, a blank line before each table:\n%s", out)
	}
	// No probe: the file has none, as before probes existed.
	plain, _ := ParseSet([]byte("[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [2e-11]\n"), "p.toml")
	if b, _ := plain.MarshalTOML(); strings.Contains(string(b), "probe") || plain.Probes() != nil {
		t.Errorf("a set without probes wrote %q, Probes %v", b, plain.Probes())
	}
	if w := plain.WithProbes(want[:1]); len(w.Probes()) != 1 || plain.Probes() != nil || w.For("dgemm", "") == nil {
		t.Errorf("WithProbes: %v on the copy, %v on the original", w.Probes(), plain.Probes())
	}
}

func probesEqual(a, b []Probe) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Time.Equal(b[i].Time) {
			return false
		}
		x, y := a[i], b[i]
		x.Time, y.Time = time.Time{}, time.Time{}
		if x != y {
			return false
		}
	}
	return true
}

func TestProbeErrors(t *testing.T) {
	base := "[[probe]]\nhost = \"n\"\nkernel = \"dgemm\"\nsize = 512\nruns = 3\ngflops = 10.0\n"
	cases := []struct {
		name, doc string
		want      string
	}{
		{"no host", strings.Replace(base, "host = \"n\"\n", "", 1), "m.toml:1: probe[0].host: missing"},
		{"zero gflops", strings.Replace(base, "10.0", "0.0", 1), "m.toml:6: probe[0].gflops: 0, want a finite rate > 0"},
		{"second probe's size", base + strings.Replace(base, "512", "-1", 1), "m.toml:10: probe[1].size: -1"},
		{"unknown key", base + "speed = 3\n", "m.toml:7: unknown key probe.speed"},
		// qa48: a probe is measured again at its size; 100,000 asked for 240 GB and died
		{"size past the largest", strings.Replace(base, "512", "100000", 1), "m.toml:4: probe[0].size: 100000, want the call's order from 1 to 2048"},
		// Go's type names said as the file's reader would say them
		{"size a string", strings.Replace(base, "512", `"big"`, 1), "m.toml:4: probe.size: want an integer, got a string"},
		{"cores a float", base + "cores = 2.5\n", "m.toml:7: probe.cores: want an integer, got a number"},
		{"runs a boolean", strings.Replace(base, "runs = 3", "runs = true", 1), "m.toml:5: probe.runs: want an integer, got a boolean"},
		{"time a word", base + "time = \"yesterday\"\n", "m.toml:7: probe.time: want a date and time, e.g. 2026-11-28T08:30:00Z"},
		{"[probe] for [[probe]]", strings.Replace(base, "[[probe]]", "[probe]", 1), "m.toml:1: probe: want a list, got a table"},
		{"coef a string", base + "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = \"x\"\n", "m.toml:9: kernels.dgemm.coef: want a list, got a string"},
		{"intercept a list", base + "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [1e-11]\nintercept = [1]\n", "m.toml:10: kernels.dgemm.intercept: want a number, got a list"},
	}
	for _, c := range cases {
		_, err := ParseSet([]byte(c.doc), "m.toml")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "type") {
			t.Errorf("%s: got %v, want %q...", c.name, err, c.want)
		}
		// emu run and --check read the probes alone: the same message
		if strings.Contains(c.want, "probe") && !strings.Contains(c.want, "unknown key") {
			if _, err := ParseProbes([]byte(c.doc), "m.toml"); err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("%s: ParseProbes: got %v, want %q...", c.name, err, c.want)
			}
		}
	}
}

// TestSpecScaled: every duration of a spec is multiplied, relative terms are
// not; means and σ of the built model scale by the factor (worked by hand).
func TestSpecScaled(t *testing.T) {
	sp := Spec{Terms: []string{"m*n*k"}, Coef: []float64{2e-11}, Intercept: 1e-6,
		Noise: NoiseHetero, SigmaTerms: []string{"m*n*k"}, SigmaCoef: []float64{4e-13}, SigmaIntercept: 1e-7,
		Host: map[string]Spec{"slow": {Terms: []string{"m*n*k"}, Coef: []float64{3e-11}, Noise: NoiseGaussian, Sigma: 1e-5}}}
	got := sp.Scaled(1.5)
	want := Spec{Terms: []string{"m*n*k"}, Coef: []float64{3e-11}, Intercept: 1.5e-6,
		Noise: NoiseHetero, SigmaTerms: []string{"m*n*k"}, SigmaCoef: []float64{6e-13}, SigmaIntercept: 1.5e-7,
		Host: map[string]Spec{"slow": {Terms: []string{"m*n*k"}, Coef: []float64{4.5e-11}, Noise: NoiseGaussian, Sigma: 1.5e-5}}}
	if !specNear(got, want) {
		t.Errorf("Scaled(1.5) = %+v\nwant %+v", got, want)
	}
	if sp.Coef[0] != 2e-11 || sp.Host["slow"].Coef[0] != 3e-11 {
		t.Error("Scaled changed its receiver")
	}
	mix := Spec{Terms: []string{"w"}, Coef: []float64{1e-9}, Noise: NoiseMixture,
		Mixture: []Component{{Weight: 0.9, MeanScale: 1, Sigma: 1e-6, SigmaScale: 0.01}, {Weight: 0.1, MeanScale: 2, Offset: 1e-5}}}
	pw := Spec{BreaksOn: "w", Pieces: []Piece{{From: 0, To: 100, Terms: []string{"w"}, Coef: []float64{1e-9}, Intercept: 1e-7}, {From: 100, Coef: nil, Intercept: 2e-7}}}
	v := Vars{M: 10, N: 20, K: 5, W: 1000}
	for _, s := range []Spec{sp, mix, pw} {
		a, err := s.Build()
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Scaled(1.5).Build()
		if err != nil {
			t.Fatal(err)
		}
		if m0, m1 := a.Mean(v), b.Mean(v); !near(m1, 1.5*m0, 1e-12) {
			t.Errorf("%s: mean %g scaled, %g before: want ×1.5", s.Noise, m1, m0)
		}
	}
	if got := mix.Scaled(2).Mixture; got[0].Sigma != 2e-6 || got[0].SigmaScale != 0.01 || got[1].Offset != 2e-5 || got[1].MeanScale != 2 {
		t.Errorf("mixture scaled by 2: %+v (offsets and σ double; mean_scale and sigma_scale stay)", got)
	}
}

func near(a, b, rel float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= rel*max(abs(a), abs(b))
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func specNear(a, b Spec) bool {
	const rel = 1e-15
	if !near(a.Intercept, b.Intercept, rel) || !near(a.Sigma, b.Sigma, rel) || !near(a.SigmaIntercept, b.SigmaIntercept, rel) ||
		len(a.Coef) != len(b.Coef) || len(a.SigmaCoef) != len(b.SigmaCoef) || len(a.Host) != len(b.Host) || a.Noise != b.Noise {
		return false
	}
	for i := range a.Coef {
		if !near(a.Coef[i], b.Coef[i], rel) {
			return false
		}
	}
	for i := range a.SigmaCoef {
		if !near(a.SigmaCoef[i], b.SigmaCoef[i], rel) {
			return false
		}
	}
	for h := range a.Host {
		if !specNear(a.Host[h], b.Host[h]) {
			return false
		}
	}
	return true
}

// TestScaledCoversEveryField: Scaled knows every field of the spec types. A
// field added later (a noise family's parameter) fails here until it is
// placed in scaledFields and, if it is a duration, scaled.
func TestScaledCoversEveryField(t *testing.T) {
	for typ, fields := range scaledFields {
		for i := range typ.NumField() {
			if _, ok := fields[typ.Field(i).Name]; !ok {
				t.Errorf("%s.%s: not in scaledFields (is it a duration Scaled must multiply?)", typ.Name(), typ.Field(i).Name)
			}
		}
		if len(fields) != typ.NumField() {
			t.Errorf("%s: scaledFields names %d fields, the type has %d", typ.Name(), len(fields), typ.NumField())
		}
	}
}
