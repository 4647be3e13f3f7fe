package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/ranks"
)

// writeOwnKernel writes noiseless samples of a kernel emu does not know,
// T = a·(the product of the sizes in dims) + b, on a grid of 8×8 sizes
// in the two variables of dims ("mn": m and n; "nk": n and k), the other
// size 0 as a sample file of one's own may leave it.
func writeOwnKernel(t *testing.T, path, kernel, dims string, a, b float64) {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("kernel,host,m,n,k,seconds\n")
	for i := 1; i <= 8; i++ {
		for j := 1; j <= 8; j++ {
			x, y := 100*i, 150*j
			d := map[byte]int{dims[0]: x, dims[1]: y}
			fmt.Fprintf(&sb, "%s,h1,%d,%d,%d,%.17g\n", kernel, d['m'], d['n'], d['k'], a*float64(x*y)+b)
		}
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFitOwnKernel fits samples of a kernel of one's own, named with
// --product, and checks the law it was drawn from (closed form) comes back,
// and that the models file drives Rank.Compute as docs/library.md does: one
// rank charged the model's mean of one call ends at a + b·product.
func TestFitOwnKernel(t *testing.T) {
	const a, b = 1e-9, 2e-6
	cases := []struct {
		name, kernel, dims, product string
		at                          models.Vars
		size                        float64 // the product at at
	}{
		{"m*n", "sweep", "mn", "sweep=m*n", models.Vars{M: 2000, N: 3000}, 6e6},
		{"n*k spelled k*n", "smooth", "nk", "smooth=k*n", models.Vars{N: 500, K: 700}, 3.5e5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			samples, out, plots := filepath.Join(dir, "s.csv"), filepath.Join(dir, "m.toml"), filepath.Join(dir, "fig")
			writeOwnKernel(t, samples, c.kernel, c.dims, a, b)
			code, stdout, stderr := runCLI(t, "fit", samples, "--product", c.product, "-o", out, "--plot", plots)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			// Its figures too: duration and residuals against the product.
			for _, f := range []string{c.kernel + ".svg", c.kernel + "-residuals.svg"} {
				if _, err := os.Stat(filepath.Join(plots, f)); err != nil || !strings.Contains(stdout, "wrote 2 figures") {
					t.Errorf("--plot: %v; stdout %q", err, stdout)
				}
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			set, err := models.ParseSet(data, out)
			if err != nil {
				t.Fatalf("written models do not load: %v\n%s", err, data)
			}
			want := a*c.size + b
			got := set.For(c.kernel, "h1").Mean(c.at)
			if math.Abs(got-want) > 1e-3*want {
				t.Errorf("mean at %+v: %g s, want %g", c.at, got, want)
			}
			// The intercept: a call of the smallest product the law allows.
			if small := set.For(c.kernel, "h1").Mean(models.Vars{M: 1, N: 1, K: 1}); math.Abs(small-(a+b)) > 0.05*(a+b) {
				t.Errorf("mean of a 1×1 call: %g s, want %g", small, a+b)
			}
			topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 1, Link: fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6}})
			if err != nil {
				t.Fatal(err)
			}
			cfg, _ := ranks.Preset("cm02")
			w, err := ranks.NewWorld(cfg, topo, []int{0}, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Run(func(r *ranks.Rank) {
				r.Compute(set.For(c.kernel, r.HostName()).Mean(c.at), c.kernel)
			}); err != nil {
				t.Fatal(err)
			}
			if math.Abs(w.End()-want) > 1e-3*want {
				t.Errorf("emulated time %g s, want %g", w.End(), want)
			}
		})
	}
}

// TestFitOwnKernelRefusals: a kernel emu does not know without --product,
// and a --product it cannot use, exit 2 with one line that says what to do.
func TestFitOwnKernelRefusals(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "own.csv")
	writeOwnKernel(t, own, "sweep", "mn", 1e-9, 2e-6)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"fit", own}, own + `:2: unknown kernel "sweep": for a kernel of your own, say which product of m, n, k its time grows with: --product sweep=m*n`},
		{[]string{"fit", own, "--product", "other=m*n"}, own + `:2: unknown kernel "sweep"`},
		{[]string{"fit", own, "--product", "sweep"}, `emu: --product "sweep": want KERNEL=PRODUCT, as sweep=m*n`},
		{[]string{"fit", own, "--product", "sweep=m*x"}, `emu: --product "sweep=m*x": unknown term "m*x"`},
		{[]string{"fit", own, "--product", "sweep=w"}, `emu: --product "sweep=w": a product of m, n and k (sample files have no w)`},
		{[]string{"fit", own, "--product", "sweep=1"}, `emu: --product "sweep=1": a product of m, n and k (sample files have no w)`},
		{[]string{"fit", own, "--product", "=m*n"}, `emu: --product "=m*n": want KERNEL=PRODUCT, as sweep=m*n`},
		{[]string{"fit", own, "--product", "sweep=m*n", "--product", "sweep=n"}, `emu: --product "sweep=n": sweep's product is given twice`},
		// A product for a kernel no sample calls (a typo) fitted nothing, exit 0.
		{[]string{"fit", own, "--product", "sweep=m*n", "--product", "sweeep=m*n"}, `emu: --product "sweeep=m*n": no sample is a call of sweeep (the samples hold sweep)`},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(t, c.args...)
		if code != exitInput || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
