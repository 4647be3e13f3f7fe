package main

import (
	"os"
	"path/filepath"
	"testing"
)

// A --set key over the Dahu example's models file that does not belong to
// the form of its model (d.toml's models have no noise; a noise family set
// with the key of another), or a host's table that its CPUs' models shadow,
// is refused before the run: exit 2, one line naming the --set and the key,
// and no output file written, not even in part.
func TestRunRefusesForeignModelKeys(t *testing.T) {
	dir := t.TempDir()
	js, tr, gr := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.trace"), filepath.Join(dir, "r.graph")
	for _, c := range []struct {
		sets []string
		want string
	}{
		{[]string{`kernels.dgemm.host."dahu-5/cpu0".sigma=1e-7`},
			`emu: --set kernels.dgemm.host."dahu-5/cpu0".sigma=1e-7: kernels.dgemm.host.dahu-5/cpu0.sigma: the model has no noise (noise = "none"); give noise too to set one`},
		{[]string{"kernels.dgemm.noise=gaussian", "kernels.dgemm.sigma_intercept=1e-7"},
			`emu: --set kernels.dgemm.sigma_intercept=1e-7: kernels.dgemm.sigma_intercept: not a key of noise = "gaussian", which takes sigma; give noise too to change the family`},
		{[]string{"kernels.dgemm.host.dahu-5.intercept=1e-6"}, // qa48's: a per-CPU file, a host's table
			`emu: --set kernels.dgemm.host.dahu-5.intercept=1e-6: kernels.dgemm.host.dahu-5: no call would use it: its CPUs' own models (dahu-5/cpu0, dahu-5/cpu1) come before a host's; set theirs, e.g. kernels.dgemm.host."dahu-5/cpu0"`},
	} {
		args := []string{"run", "-q", "../../examples/dahu/dahu.toml", "--set", "hpl.n=1000", "--set", "kernels.models=d.toml",
			"--json", js, "--trace", tr, "--graph", gr}
		for _, s := range c.sets {
			args = append(args, "--set", s)
		}
		code, stdout, stderr := runCLI(t, args...)
		if code != exitInput || stderr != c.want+"\n" || stdout != "" {
			t.Errorf("exit %d, stdout %q\nstderr %q\nwant   %q", code, stdout, stderr, c.want)
		}
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			t.Errorf("%s written", left[0].Name())
		}
	}
}
