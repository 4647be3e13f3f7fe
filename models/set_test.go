package models

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

const exampleSet = `# models.toml for a two-host platform
[kernels.dgemm]
terms = ["m*n*k", "m*n"]
coef = [1e-11, 2e-10]
intercept = 1e-6
noise = "hetero"
sigma_terms = ["m*n*k"]
sigma_coef = [1e-13]
sigma_intercept = 1e-7

[kernels.dgemm.host.slow1]
terms = ["m*n*k"]
coef = [2e-11]
intercept = 0.0

[kernels.daxpy]
breaks_on = "n"
noise = "gaussian"
sigma = 1e-8

[[kernels.daxpy.piece]]
from = 0
to = 1000
terms = ["n"]
coef = [1e-9]
intercept = 1e-7

[[kernels.daxpy.piece]]
from = 1000
terms = ["n"]
coef = [2e-9]
intercept = 0.0

[kernels.idamax]
noise = "mixture"
terms = ["n"]
coef = [1e-9]
mixture = [{weight = 0.9, sigma_scale = 0.01}, {weight = 0.1, mean_scale = 10, sigma = 1e-7}]
`

func TestParseSetFor(t *testing.T) {
	s, err := ParseSet([]byte(exampleSet), "models.toml")
	if err != nil {
		t.Fatal(err)
	}
	v := Vars{M: 100, N: 200, K: 50, W: 100 * 200 * 50}
	// Hand-computed means (seconds):
	//   dgemm platform: 1e-11·1e6 + 2e-10·2e4 + 1e-6 = 1e-5 + 4e-6 + 1e-6 = 1.5e-5
	//   dgemm on slow1: 2e-11·1e6 = 2e-5
	//   daxpy n=200 (first piece): 1e-9·200 + 1e-7 = 3e-7; n=2000: 2e-9·2000 = 4e-6
	//   idamax n=200: center 2e-7, mean = 2e-7·(0.9·1 + 0.1·10) = 3.8e-7
	cases := []struct {
		kernel, host string
		v            Vars
		want         float64
	}{
		{"dgemm", "node0", v, 1.5e-5},
		{"dgemm", "slow1", v, 2e-5},
		{"daxpy", "slow1", Vars{N: 200}, 3e-7},
		{"daxpy", "", Vars{N: 2000}, 4e-6},
		{"daxpy", "", Vars{N: 1000}, 2e-6},
		{"idamax", "", Vars{N: 200}, 3.8e-7},
	}
	for _, c := range cases {
		m := s.For(c.kernel, c.host)
		if m == nil {
			t.Fatalf("For(%q, %q) = nil", c.kernel, c.host)
		}
		if got := m.Mean(c.v); math.Abs(got-c.want) > relTol*c.want {
			t.Errorf("%s on %q: Mean = %g, want %g", c.kernel, c.host, got, c.want)
		}
	}
	if m := s.For("dtrsm", "node0"); m != nil {
		t.Errorf("For(dtrsm) = %v, want nil for a kernel without a model", m)
	}
	var none *Set
	if none.For("dgemm", "x") != nil {
		t.Error("nil Set gave a model")
	}
	if got := s.Kernels(); strings.Join(got, ",") != "daxpy,dgemm,idamax" {
		t.Errorf("Kernels() = %v", got)
	}
}

// relTol is the relative tolerance for values computed in floating point from
// hand-derived closed forms.
const relTol = 1e-12

// TestForCPU checks the lookup order of per-CPU overrides: HOST/cpuS, then
// HOST, then the platform-wide model, then nothing.
func TestForCPU(t *testing.T) {
	s, err := ParseSet([]byte(`[kernels.dgemm]
intercept = 1.0
[kernels.dgemm.host."n1/cpu1"]
intercept = 2.0
[kernels.dgemm.host.n1]
intercept = 3.0
[kernels.dgemm.host."n2/cpu0"]
intercept = 4.0
`), "m.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		host string
		cpu  int
		want float64
	}{
		{"n1", 1, 2}, {"n1", 0, 3}, {"n1", -1, 3}, {"n2", 0, 4}, {"n2", 1, 1}, {"n3", 0, 1},
	} {
		if got := s.ForCPU("dgemm", c.host, c.cpu).Mean(Vars{}); got != c.want {
			t.Errorf("ForCPU(dgemm, %s, %d) = %g, want %g", c.host, c.cpu, got, c.want)
		}
	}
	if got := s.For("dgemm", "n2").Mean(Vars{}); got != 1 {
		t.Errorf("For(dgemm, n2) = %g, want the platform-wide 1 (no CPU given)", got)
	}
	if s.ForCPU("dtrsm", "n1", 1) != nil {
		t.Error("a kernel without a model has one")
	}
	for _, c := range []struct {
		key  string
		host string
		cpu  int
		ok   bool
	}{{"n1", "n1", -1, true}, {"n1/cpu0", "n1", 0, true}, {"dahu-32/cpu12", "dahu-32", 12, true},
		{"n1/cpu", "n1/cpu", -1, false}, {"n1/cpu01", "n1/cpu01", -1, false}, {"/cpu0", "/cpu0", -1, false}, {"n1/gpu0", "n1/gpu0", -1, false}} {
		host, cpu, ok := SplitCPUKey(c.key)
		if host != c.host || cpu != c.cpu || ok != c.ok {
			t.Errorf("SplitCPUKey(%q) = %q, %d, %v; want %q, %d, %v", c.key, host, cpu, ok, c.host, c.cpu, c.ok)
		}
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	s, err := ParseSet([]byte(exampleSet), "models.toml")
	if err != nil {
		t.Fatal(err)
	}
	out1, err := s.MarshalTOML()
	if err != nil {
		t.Fatal(err)
	}
	s2, err := ParseSet(out1, "out1.toml")
	if err != nil {
		t.Fatalf("re-parse: %v\n%s", err, out1)
	}
	out2, err := s2.MarshalTOML()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out1, out2) {
		t.Errorf("marshal is not stable:\n%s\n---\n%s", out1, out2)
	}
	v := Vars{M: 300, N: 70, K: 20, W: 300 * 70 * 20}
	for _, k := range s.Kernels() {
		for _, h := range []string{"", "slow1"} {
			if a, b := s.For(k, h).Mean(v), s2.For(k, h).Mean(v); a != b {
				t.Errorf("%s/%s: mean %g after round trip, was %g", k, h, b, a)
			}
		}
	}
}

func TestParseSetErrors(t *testing.T) {
	cases := []struct {
		name, doc string
		want      []string // substrings of the error
	}{
		{"syntax", "[kernels.dgemm]\nterms = [\"m\"\n", []string{"m.toml:"}},
		{"unknown term", "[kernels.dgemm]\nterms = [\"m*q\"]\ncoef = [1.0]\n",
			[]string{"m.toml:2:", "kernels.dgemm.terms", `unknown term "m*q"`}},
		{"unknown key", "[kernels.dgemm]\nterms = [\"m\"]\ncoef = [1.0]\nsigmaa = 3.0\n",
			[]string{"m.toml:4:", "unknown key kernels.dgemm.sigmaa"}},
		{"unknown top key", "mode = \"model\"\n", []string{"m.toml:1:", "unknown key mode"}},
		// a byte order mark before line 1's header lost the line ("m.toml: unknown key ...")
		{"unknown key after a BOM", "\ufeff[kernels.dgemm]\r\nterms = [\"m\"]\r\ncoef = [1.0]\r\nsigmaa = 3.0\r\n",
			[]string{"m.toml:4:", "unknown key kernels.dgemm.sigmaa"}},
		// a scenario given where a models file is wanted (calibrate --check
		// scenario.toml said "type mismatch for models.Spec")
		{"a scenario", "app = \"hpl\"\n[platform]\nhosts = 2\n[kernels]\nmodels = \"m.toml\"\n", []string{"m.toml: a scenario, not a models file"}},
		{"a scenario's tables", "[hpl]\nn = 1000\n[kernels.dgemm]\ncoef = [1.0]\nterms = [\"m*n*k\"]\n", []string{"m.toml: a scenario, not a models file"}},
		// a samples CSV given where a models file is wanted (calibrate --check
		// samples.csv, kernels.models = "samples.csv") said "m.toml:1:
		// expected '.' or '=', but got ',' instead"
		{"a samples CSV", "index,plan,host,core,kernel,m,n,k,seconds,timestamp,backend,clock,runs,status\n0,ab,h,0,dgemm,1,2,3,1e-6,,gonum,wall,5,\n",
			[]string{"m.toml: a samples CSV, not a models file (emu fit m.toml -o models.toml"}},
		{"another tool's samples CSV", "\ufeffKernel, host,m,n,k, Seconds\r\ndgemm,h,1,2,3,1e-6\r\n", []string{"m.toml: a samples CSV, not a models file"}},
		// a samples CSV opening with '#' comments, as examples/sweep-samples.csv
		// does, and an HPL.dat said "m.toml:3: expected '.' or '='" (qa57)
		{"a samples CSV after comments", "# my sweep\n\n# 2 calls\nkernel,host,m,n,k,seconds\nsweep,h,1,2,,1e-6\n",
			[]string{"m.toml: a samples CSV, not a models file (emu fit m.toml -o models.toml"}},
		// an empty models file ran as the scenario's own models, silently (qa57)
		{"empty", "", []string{"m.toml: no [kernels.NAME] table"}},
		{"comments alone", "# emu fit of nothing\n\n", []string{"m.toml: no [kernels.NAME] table"}},
		{"an HPL.dat", "HPLinpack benchmark input file\nInnovative Computing Laboratory\nHPL.out output file name\n6 device out\n",
			[]string{"m.toml: an HPL.dat, not a models file (an HPL.dat goes with --hpl-dat FILE)"}},
		{"coef count", "[kernels.dgemm]\nterms = [\"m\", \"n\"]\ncoef = [1.0]\n",
			[]string{"m.toml:3:", "kernels.dgemm.coef", "1 coefficients for 2 terms"}},
		{"bad noise", "[kernels.dgemm]\nnoise = \"pink\"\n", []string{"m.toml:2:", "kernels.dgemm.noise", "pink"}},
		{"negative sigma", "[kernels.dgemm]\nnoise = \"gaussian\"\nsigma = -1.0\n", []string{"m.toml:3:", "sigma"}},
		// a noise family without its spread ran as no noise at all
		{"gaussian without sigma", "[kernels.dgemm]\nterms = [\"m\"]\ncoef = [1.0]\nnoise = \"gaussian\"\n",
			[]string{"m.toml:1:", "kernels.dgemm.sigma: missing or 0"}},
		{"gaussian sigma 0", "[kernels.dgemm]\nnoise = \"gaussian\"\nsigma = 0.0\n", []string{"m.toml:3:", "kernels.dgemm.sigma: missing or 0"}},
		{"hetero without sigma", "[kernels.dgemm]\nnoise = \"hetero\"\n", []string{"m.toml:1:", "kernels.dgemm.sigma_intercept: missing or 0"}},
		{"hetero of zeros", "[kernels.dgemm]\nnoise = \"hetero\"\nsigma_terms = [\"m\"]\nsigma_coef = [0.0]\n", []string{"kernels.dgemm.sigma_intercept: missing or 0"}},
		{"halfnormal without sigma", "[kernels.dgemm]\nnoise = \"halfnormal\"\n", []string{"m.toml:1:", "kernels.dgemm.sigma: missing or 0"}},
		{"a host's gaussian without sigma", "[kernels.dgemm]\n[kernels.dgemm.host.a]\nnoise = \"gaussian\"\n", []string{"m.toml:2:", "kernels.dgemm.host.a.sigma: missing or 0"}},
		{"mixture without modes", "[kernels.dgemm]\nnoise = \"mixture\"\n", []string{"kernels.dgemm.mixture", "at least one"}},
		{"mixture negative sigma", "[kernels.dgemm]\nnoise = \"mixture\"\nmixture = [{weight = 1.0, sigma = -1.0}]\n", []string{"kernels.dgemm.mixture[0]", "sigma"}},
		{"sigma without gaussian", "[kernels.dgemm]\nsigma = 1.0\n", []string{"kernels.dgemm.sigma", "only applies"}},
		{"weights", "[kernels.dgemm]\nnoise = \"mixture\"\nmixture = [{weight = 0.5}, {weight = 0.2}]\n",
			[]string{"m.toml:3:", "weights sum to 0.7"}},
		{"mixture key", "[kernels.dgemm]\nnoise = \"mixture\"\nmixture = [{weight = 1.0, mean = 2.0}]\n",
			[]string{"m.toml", "unknown key \"mean\""}},
		{"duplicate term", "[kernels.dgemm]\nterms = [\"m*n\", \"n*m\"]\ncoef = [1.0, 2.0]\n", []string{"repeats"}},
		{"gap between pieces", "[kernels.daxpy]\nbreaks_on = \"n\"\n[[kernels.daxpy.piece]]\nfrom = 0\nto = 10\n[[kernels.daxpy.piece]]\nfrom = 20\n",
			[]string{"m.toml:7:", "kernels.daxpy.piece[1].from", "contiguous"}},
		{"bad breaks_on", "[kernels.daxpy]\nbreaks_on = \"q\"\n[[kernels.daxpy.piece]]\nfrom = 0\n", []string{"m.toml:2:", "breaks_on"}},
		{"host term", "[kernels.dgemm]\n[kernels.dgemm.host.a]\nterms = [\"z\"]\ncoef = [1.0]\n",
			[]string{"m.toml:3:", "kernels.dgemm.host.a.terms"}},
		{"nested host", "[kernels.dgemm.host.a.host.b]\n", []string{"cannot nest"}},
		{"wrong type", "[kernels.dgemm]\ncoef = \"fast\"\n", []string{"m.toml:2:", "kernels.dgemm.coef", "want a list, got a string"}},
		{"kernels not a table", "kernels = 3\n", []string{"m.toml:1:", "kernels: must be a table"}},
		{"kernel not a table", "[kernels]\ndgemm = 3\n", []string{"m.toml:2:", "kernels.dgemm"}},
		{"piece not an array", "[kernels.d]\n[kernels.d.piece]\nfrom = 1\n", []string{"m.toml:2:", "kernels.d.piece"}},
		{"halfnormal sigma and sigma_terms", "[kernels.dgemm]\nnoise = \"halfnormal\"\nsigma = 1.0\nsigma_intercept = 1.0\n",
			[]string{"kernels.dgemm.sigma", "not both"}},
		{"halfnormal negative sigma", "[kernels.dgemm]\nnoise = \"halfnormal\"\nsigma = -1.0\n", []string{"m.toml:3:", "kernels.dgemm.sigma"}},
		{"bad CPU key", "[kernels.dgemm]\n[kernels.dgemm.host.\"n1/socket0\"]\nintercept = 1.0\n", []string{"kernels.dgemm.host", "HOST/cpuS"}},
		{"negative CPU", "[kernels.dgemm]\n[kernels.dgemm.host.\"n1/cpu-1\"]\nintercept = 1.0\n", []string{"kernels.dgemm.host", "HOST/cpuS"}},
	}
	for _, c := range cases {
		_, err := ParseSet([]byte(c.doc), "m.toml")
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", c.name, err, w)
			}
		}
	}
}

func FuzzParseSet(f *testing.F) {
	f.Add([]byte(exampleSet))
	f.Add([]byte(probeSet))
	f.Add([]byte("[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [1e-11]\n"))
	f.Add([]byte("[kernels.x]\nnoise = \"mixture\"\nmixture = [{weight = 1}]\n"))
	f.Add([]byte("[kernels.d]\nbreaks_on = \"m\"\n[[kernels.d.piece]]\nfrom = 0\nto = 1e400\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSet(data, "fuzz.toml")
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "fuzz.toml") {
				t.Fatalf("error %q: want one line naming fuzz.toml", msg)
			}
			return
		}
		// Whatever parses must marshal, re-parse to the same bytes, and give
		// finite non-negative means and draws.
		out, err := s.MarshalTOML()
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		s2, err := ParseSet(out, "out.toml")
		if err != nil {
			t.Fatalf("re-parse of marshalled set: %v\n%s", err, out)
		}
		out2, _ := s2.MarshalTOML()
		if !bytes.Equal(out, out2) {
			t.Fatalf("unstable marshal:\n%s\n---\n%s", out, out2)
		}
		v := Vars{M: 64, N: 64, K: 64, W: 64 * 64 * 64}
		for _, k := range s.Kernels() {
			if m := s.For(k, ""); m.Mean(v) < 0 {
				t.Fatalf("%s: negative mean", k)
			}
		}
	})
}

// FuzzParseProbes: the [[probe]] tables of a models file (read for
// kernels.host_speed = "probe") give a one-line error naming the file, or
// probes that each pass Validate and that ParseSet of the same document, when
// it passes, holds too.
func FuzzParseProbes(f *testing.F) {
	f.Add([]byte(probeSet))
	f.Add([]byte(exampleSet))
	f.Add([]byte("[[probe]]\nhost = \"n1\"\nkernel = \"dgemm\"\nsize = 1024\nruns = 3\ngflops = 1e309\n"))
	f.Add([]byte("[[probe]]\nhost = \"\"\n[[probe]]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		probes, err := ParseProbes(data, "fuzz.toml")
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "fuzz.toml") {
				t.Fatalf("error %q: want one line naming fuzz.toml", msg)
			}
			return
		}
		for i, p := range probes {
			if err := p.Validate(); err != nil {
				t.Fatalf("probe %d accepted but %v", i, err)
			}
		}
		if s, err := ParseSet(data, "fuzz.toml"); err == nil && len(s.Probes()) != len(probes) {
			t.Fatalf("ParseSet holds %d probes, ParseProbes %d", len(s.Probes()), len(probes))
		}
	})
}

// TestShellWord: the path in a command emu prints to copy is quoted where a
// shell would split or expand it, and left bare where it would not.
func TestShellWord(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"samples.csv", "samples.csv"},
		{"/tmp/run-1/s_2.csv", "/tmp/run-1/s_2.csv"},
		{"my samples.csv", "'my samples.csv'"},
		{"it's.csv", `'it'\''s.csv'`},
		{"$HOME.csv", "'$HOME.csv'"},
		{"", "''"},
	} {
		if got := shellWord(tc.in); got != tc.want {
			t.Errorf("shellWord(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
