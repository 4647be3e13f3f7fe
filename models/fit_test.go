package models_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/models/modelstest"
)

func TestParseFamily(t *testing.T) {
	cases := []struct {
		in, want string // want "" means an error
	}{
		{"auto", "auto"}, {"AUTO", "auto"}, {"auto-per-host", "auto-per-host"}, {"M1-N0", "M1-N0"}, {"m2-n2", "M2-N2"},
		{"Mp-N1", "Mp-N1"}, {"M'-N'", "Mp-Nmix"}, {"M2-Nmix", "M2-Nmix"}, {"Mh2-N2", "Mh2-N2"},
		{"M0-N1", "M0-N1"}, {"rate", "Mr-N0"}, {"Mr-N2", "Mr-N2"}, {"M3-N0", ""}, {"M1", ""}, {"M1-N3", ""}, {"", ""}, {"M1-N0-x", ""},
	}
	for _, c := range cases {
		f, err := models.ParseFamily(c.in)
		if c.want == "" {
			if err == nil {
				t.Errorf("ParseFamily(%q) = %v, want an error", c.in, f)
			}
			continue
		}
		if err != nil || f.String() != c.want {
			t.Errorf("ParseFamily(%q) = %v, %v; want %s", c.in, f, err, c.want)
		}
	}
}

// The guides name the families in words (linear, polynomial, piecewise,
// mixture); asked for by those words, the error says which code each is.
func TestParseFamilyErrorNamesTheCodes(t *testing.T) {
	for _, in := range []string{"linear", "polynomial", "piecewise", "per-host", "mixture", "M1-gaussian", "M1"} {
		_, err := models.ParseFamily(in)
		if err == nil {
			t.Errorf("ParseFamily(%q): no error", in)
			continue
		}
		for _, want := range []string{"M1 linear", "M2 polynomial", "Mp piecewise", "per host", "N1 Gaussian", "Nmix mixture"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("ParseFamily(%q): %v; want it to say %q", in, err, want)
			}
		}
	}
}

func TestParseLoss(t *testing.T) {
	for in, want := range map[string]string{"robust": "robust", "": "robust", "LS": "squares", "squares": "squares", "l1": ""} {
		l, err := models.ParseLoss(in)
		if want == "" {
			if err == nil {
				t.Errorf("ParseLoss(%q) = %v, want an error", in, l)
			}
			continue
		}
		if err != nil || l.String() != want {
			t.Errorf("ParseLoss(%q) = %v, %v; want %s", in, l, err, want)
		}
	}
}

func FuzzParseFamily(f *testing.F) {
	for _, s := range []string{"auto", "M1-N0", "Mh2-N2", "Mp-Nmix", "M'-N'", "x-y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fam, err := models.ParseFamily(s)
		if err != nil {
			return
		}
		// A family that parses prints as a name that parses to itself.
		again, err := models.ParseFamily(fam.String())
		if err != nil || again != fam {
			t.Fatalf("%q → %v → %v, %v", s, fam, again, err)
		}
	})
}

// TestFitPerHost: the study's Mh — one host 25% slower; each host with
// enough samples gets its own coefficients, the others fall back.
func TestFitPerHost(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	spec := func(coef float64) models.Spec {
		return models.Spec{Terms: []string{"m*n*k"}, Coef: []float64{coef}, Intercept: 1e-6,
			Noise: models.NoiseGaussian, Sigma: 1e-6}
	}
	var data []models.Sample
	hosts := []struct {
		name string
		coef float64
		n    int
	}{{"fast0", 1e-11, 400}, {"fast1", 1e-11, 400}, {"slow2", 1.25e-11, 400}, {"rare3", 1e-11, 10}}
	for _, h := range hosts {
		data = append(data, modelstest.Draw(modelstest.MustBuild(t, spec(h.coef)), h.name, h.n, modelstest.GemmDims(16, 1024), rng)...)
	}
	fam, _ := models.ParseFamily("Mh1-N1")
	got, q, err := models.Fit("dgemm", data, fam, models.FitOptions{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hosts {
		hs, ok := got.Host[h.name]
		if h.n < 30 {
			if ok {
				t.Errorf("host %s with %d samples got its own model", h.name, h.n)
			}
			continue
		}
		if !ok {
			t.Fatalf("no model for host %s: %v", h.name, got.Host)
		}
		if e := modelstest.RelErr(hs.Coef[0], h.coef); e > coefTol {
			t.Errorf("%s: coef %g, want %g", h.name, hs.Coef[0], h.coef)
		}
		if _, ok := q.Hosts[h.name]; !ok {
			t.Errorf("no quality for host %s", h.name)
		}
	}
	set, err := models.NewSet(map[string]models.Spec{"dgemm": got})
	if err != nil {
		t.Fatal(err)
	}
	v := models.Vars{M: 512, N: 512, K: 512, W: 512 * 512 * 512}
	slow, fast, rare := set.For("dgemm", "slow2").Mean(v), set.For("dgemm", "fast0").Mean(v), set.For("dgemm", "rare3").Mean(v)
	if e := modelstest.RelErr(slow/fast, 1.25); e > coefTol {
		t.Errorf("slow/fast = %g, want 1.25", slow/fast)
	}
	if rare != set.For("dgemm", "").Mean(v) {
		t.Errorf("rare3 did not fall back to the platform model")
	}
}

func TestFitErrors(t *testing.T) {
	good := []models.Sample{{Vars: models.Vars{N: 1}, Seconds: 1}, {Vars: models.Vars{N: 2}, Seconds: 2}, {Vars: models.Vars{N: 3}, Seconds: 3}}
	cases := []struct {
		name string
		data []models.Sample
		opts models.FitOptions
		want string
	}{
		{"too few", good[:2], models.FitOptions{}, "2 samples"},
		{"negative", append([]models.Sample{{Seconds: -1}}, good...), models.FitOptions{}, "negative"},
		{"bad term", good, models.FitOptions{Terms: []string{"q"}}, "unknown term"},
		{"bad breaks_on", good, models.FitOptions{BreaksOn: "z"}, "breaks_on"},
	}
	fam, _ := models.ParseFamily("M2-N1")
	for _, c := range cases {
		_, _, err := models.Fit("daxpy", c.data, fam, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

// TestFitDeterministic: same samples and seed, same spec and quality.
func TestFitDeterministic(t *testing.T) {
	c := recoveryCases[3] // the mixture: EM restarts and CV folds are seeded
	data := c.draw(t, 5)
	fam, _ := models.ParseFamily(c.family)
	a, qa, err := models.Fit(c.kernel, data, fam, models.FitOptions{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	b, qb, _ := models.Fit(c.kernel, data, fam, models.FitOptions{Seed: 9})
	sa, _ := models.NewSet(map[string]models.Spec{"k": a})
	sb, _ := models.NewSet(map[string]models.Spec{"k": b})
	ta, _ := sa.MarshalTOML()
	tb, _ := sb.MarshalTOML()
	if string(ta) != string(tb) || qa.BIC != qb.BIC || qa.CVRMSE != qb.CVRMSE {
		t.Errorf("two fits differ:\n%s\n%s", ta, tb)
	}
}

// TestFitUnknownKernel: a kernel without natural terms is fitted on the
// variables its samples use (here m and n → m*n for M1).
func TestFitUnknownKernel(t *testing.T) {
	m := modelstest.MustBuild(t, models.Spec{Terms: []string{"m*n"}, Coef: []float64{3e-10}, Intercept: 1e-7})
	data := modelstest.Draw(m, "h", 200, modelstest.MatrixDims(1, 1000), rand.New(rand.NewPCG(1, 1)))
	fam, _ := models.ParseFamily("M1-N0")
	got, _, err := models.Fit("HPL_custom", data, fam, models.FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Terms) != 1 || got.Terms[0] != "m*n" || modelstest.RelErr(got.Coef[0], 3e-10) > coefTol {
		t.Errorf("got %v %v", got.Terms, got.Coef)
	}
}

// TestAutoPerHost: two hosts, one 30% slower, each M1-N1. Pooled, their
// samples look like two modes; per host, auto must find M1 on each.
func TestAutoPerHost(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var data []models.Sample
	for i, coef := range []float64{1e-11, 1.3e-11} {
		m := modelstest.MustBuild(t, models.Spec{Terms: []string{"m*n*k"}, Coef: []float64{coef}, Intercept: 5e-6,
			Noise: models.NoiseGaussian, Sigma: 5e-7})
		data = append(data, modelstest.Draw(m, fmt.Sprintf("node%d", i), 800, modelstest.GemmDims(1, 512), rng)...)
	}
	auto, _ := models.ParseFamily("auto")
	spec, q, err := models.Fit("dgemm", data, auto, models.FitOptions{Seed: 4, PerHost: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("pooled: %s", q.Family)
	for i, coef := range []float64{1e-11, 1.3e-11} {
		h := fmt.Sprintf("node%d", i)
		// The mean must be M1. The noise may come out N2: N1 keeps the
		// robust mean (weighted by 1/ŷ, for the intercepts of issue 10), not
		// N1's own least-squares one, and with absolute noise that mean is
		// a little off at the largest calls, which N2's 1/σ²-refitted mean
		// and growing σ describe better.
		if hq := q.Hosts[h]; hq.Family != "M1-N1" && hq.Family != "M1-N2" {
			t.Errorf("%s: auto chose %s, want M1-N1 (or M1-N2)", h, hq.Family)
		}
		if hs := spec.Host[h]; len(hs.Coef) != 1 || modelstest.RelErr(hs.Coef[0], coef) > coefTol {
			t.Errorf("%s: %v %v, want m*n*k coefficient %g", h, hs.Terms, hs.Coef, coef)
		}
	}
}

// TestFitEveryFamily fits each family on each generating model's samples:
// whatever the mismatch, the result must build and its quality be finite.
func TestFitEveryFamily(t *testing.T) {
	for _, c := range recoveryCases[:4] {
		data := c.draw(t, 1)
		data = data[:min(len(data), 400)]
		for _, m := range []string{"M0", "M1", "M2", "Mp", "Mh1"} {
			for _, n := range []string{"N0", "N1", "N2", "Nmix"} {
				fam, _ := models.ParseFamily(m + "-" + n)
				sp, q, err := models.Fit(c.kernel, data, fam, models.FitOptions{Seed: 1})
				if err != nil {
					t.Errorf("%s, %s: %v", c.name, fam, err)
					continue
				}
				if _, err := models.NewSet(map[string]models.Spec{"k": sp}); err != nil {
					t.Errorf("%s, %s: fitted spec does not build: %v", c.name, fam, err)
				}
				for _, x := range []float64{q.R2, q.RMSE, q.CVRMSE, q.AIC, q.BIC} {
					if math.IsNaN(x) || math.IsInf(x, 0) {
						t.Errorf("%s, %s: quality %+v", c.name, fam, q)
						break
					}
				}
			}
		}
	}
}

// TestAutoFewSamples: with as few samples as an M2 dgemm model has
// parameters, auto must not pick a family that merely interpolates them.
func TestAutoFewSamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	m := modelstest.MustBuild(t, models.Spec{Terms: []string{"m*n*k"}, Coef: []float64{1e-11}, Intercept: 5e-6,
		Noise: models.NoiseGaussian, Sigma: 5e-7})
	auto, _ := models.ParseFamily("auto")
	for _, n := range []int{4, 6, 10} {
		data := modelstest.Draw(m, "h", n, modelstest.GemmDims(1, 512), rng)
		_, q, err := models.Fit("dgemm", data, auto, models.FitOptions{Seed: 1})
		if err != nil {
			t.Fatalf("%d samples: %v", n, err)
		}
		if q.Params >= n {
			t.Errorf("%d samples: auto chose %s with %d parameters", n, q.Family, q.Params)
		}
	}
}
