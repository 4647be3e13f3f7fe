package scenario

import (
	"slices"
	"strings"
	"testing"
)

// TestNoKernelModelsNote: a scenario of one's own that gives HPL no kernel
// model runs every BLAS call in 0 s (model and real modes charge the model),
// which a new user's torus of 18 ranks showed as 465 Gflops at N = 3,000 and
// every PFACT/RFACT at the same time. The plan says so in a note; a scenario
// with a model, timed mode (wall time) and apps without kernels get none.
func TestNoKernelModelsNote(t *testing.T) {
	const base = "[platform]\nhosts = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n"
	const dgemm = "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [1e-11]\n"
	for _, c := range []struct {
		name, doc string
		note      bool
	}{
		{"hpl without models", base, true},
		{"hpl in real mode", base + "[kernels]\nmode = \"real\"\n", true},
		{"hpl with a model", base + dgemm, false},
		{"hpl timed", base + "[kernels]\nmode = \"timed\"\n", false},
		{"ring", "app = \"ring\"\n" + base, false},
		{"pingpong", "app = \"pingpong\"\n" + base, false},
		{"hpl job", base + "[[jobs]]\napp = \"hpl\"\n[jobs.hpl]\ngrids = \"1x2\"\n[[jobs]]\napp = \"ring\"\nranks = 2\n", true},
		{"ring job", base + "[[jobs]]\napp = \"ring\"\nranks = 2\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			planNote(t, c.doc, "kernels: no kernel models", c.note)
		})
	}
}

// TestFreeModelNote: a plain model with no positive coefficient and some
// negative one charges every call 0 s (means are clamped at 0); a user's
// dgemm with its sign lost ran HPL's updates free and printed no WR line
// (Time 0). The plan notes such a kernel; a model that can be positive, a
// piecewise or noisy one and an all-zero one get no note.
func TestFreeModelNote(t *testing.T) {
	const base = "[platform]\nhosts = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n"
	for _, c := range []struct {
		name, model string
		note        bool
	}{
		{"negative coefficient", "terms = [\"m*n*k\"]\ncoef = [-1e-11]\n", true},
		{"negative intercept alone", "intercept = -1e-6\n", true},
		{"negative and zero", "terms = [\"m*n*k\", \"m*n\"]\ncoef = [-1e-11, 0.0]\nintercept = 0.0\n", true},
		{"a positive term", "terms = [\"m*n*k\", \"m*n\"]\ncoef = [1e-11, -1e-9]\n", false},
		{"a positive intercept", "terms = [\"m*n*k\"]\ncoef = [-1e-11]\nintercept = 1e-6\n", false},
		{"all zero", "intercept = 0.0\n", false},
		{"noisy", "terms = [\"m*n*k\"]\ncoef = [-1e-11]\nnoise = \"gaussian\"\nsigma = 1e-6\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			planNote(t, base+"[kernels.dgemm]\n"+c.model, "kernels.dgemm: its coefficients and intercept are all ≤ 0", c.note)
		})
	}
}

// planNote checks that the plan of scenario doc carries a note starting with
// prefix exactly when want says so.
func planNote(t *testing.T, doc, prefix string, want bool) {
	t.Helper()
	s, err := Parse([]byte(doc), "s.toml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	got := slices.ContainsFunc(p.Notes, func(n string) bool { return strings.HasPrefix(n, prefix) })
	if got != want {
		t.Errorf("a note %q… %v, want %v (notes %q)", prefix, got, want, p.Notes)
	}
}

// TestNegativeInterceptNote: a model whose intercept is negative beside a
// positive coefficient charges its small calls 0 s (the mean is clamped at
// 0): a dgemm with intercept = -1 s ran every call of an N = 400 HPL free,
// Time 0.00, without a word. The plan notes the first such intercept,
// naming its table's line and its key; a model without one gets no note.
func TestNegativeInterceptNote(t *testing.T) {
	const base = "[platform]\nhosts = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n[kernels.dgemm]\n"
	for _, c := range []struct {
		name, model, note string // note: its prefix; "" none
	}{
		{"negative intercept", "terms = [\"m*n*k\"]\ncoef = [1e-11]\nintercept = -1.0\n",
			"s.toml:5: kernels.dgemm.intercept = -1 s is negative: a call whose terms sum to less than 1 s is charged 0 s"},
		{"slightly negative", "terms = [\"m*n*k\"]\ncoef = [1e-11]\nintercept = -1e-7\n", "s.toml:5: kernels.dgemm.intercept = -1e-07 s"},
		{"a piece's", "breaks_on = \"m\"\n[[kernels.dgemm.piece]]\nfrom = 0.0\nto = 64.0\nterms = [\"m*n*k\"]\ncoef = [1e-11]\nintercept = 1e-6\n" +
			"[[kernels.dgemm.piece]]\nfrom = 64.0\nterms = [\"m*n*k\"]\ncoef = [1e-11]\nintercept = -2e-6\n", "s.toml:5: kernels.dgemm.piece[1].intercept = -2e-06 s"},
		{"a host's", "terms = [\"m*n*k\"]\ncoef = [1e-11]\n[kernels.dgemm.host.host-2]\nterms = [\"m*n*k\"]\ncoef = [1e-11]\nintercept = -3e-6\n",
			"s.toml:5: kernels.dgemm.host.host-2.intercept = -3e-06 s"},
		{"positive intercept", "terms = [\"m*n*k\"]\ncoef = [1e-11]\nintercept = 1e-6\n", ""},
		{"all ≤ 0 (the free model's note instead)", "terms = [\"m*n*k\"]\ncoef = [-1e-11]\nintercept = -1e-6\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.note != "" {
				planNote(t, base+c.model, c.note, true)
			} else {
				planNote(t, base+c.model, "s.toml:5: kernels.dgemm", false)
			}
		})
	}
}
