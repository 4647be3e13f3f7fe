package scenario

import (
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
			s, err := Parse([]byte(c.doc), "s.toml")
			if err != nil {
				t.Fatal(err)
			}
			p, err := s.Validate()
			if err != nil {
				t.Fatal(err)
			}
			got := false
			for _, n := range p.Notes {
				got = got || strings.HasPrefix(n, "kernels: no kernel models")
			}
			if got != c.note {
				t.Errorf("note %v, want %v (notes %q)", got, c.note, p.Notes)
			}
		})
	}
}
