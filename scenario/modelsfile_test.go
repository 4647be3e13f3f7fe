package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/models"
)

// A models file's kernels are the ones a run charges, unless the scenario
// itself says otherwise: the embedded default's placeholder dgemm and dtrsm
// (the SMPI study's) give way to a fitted file, as docs/tour.md runs it
// (`emu fit ... -o models.toml; emu run --set kernels.models=models.toml`),
// where they silently replaced the fitted ones; a scenario's own inline table
// and a --set come over the file key by key, and say so. The expected
// durations are the closed forms of the tables below, by hand.
func TestModelsFileOverInlineTables(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "fitted.toml")
	fitted := "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [2e-11]\nintercept = 1e-5\n\n" +
		"[kernels.dtrsm]\nterms = [\"w\"]\ncoef = [3e-11]\nintercept = 2e-6\n"
	if err := os.WriteFile(file, []byte(fitted), 0o644); err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(dir, "own.toml")
	ownText := strings.Replace(string(DefaultTOML()), "coef = [1.029e-11]\nintercept = 1.981e-12\n\n[kernels.dtrsm]",
		"coef = [5e-11]\nintercept = 0.0\n\n[kernels.dtrsm]", 1)
	if err := os.WriteFile(own, []byte(ownText), 0o644); err != nil {
		t.Fatal(err)
	}
	dgemm := models.Vars{M: 100, N: 200, K: 64} // m·n·k = 1,280,000
	dtrsm := models.Vars{M: 64, N: 300, K: 64, W: 64 * 64 * 300}
	tests := []struct {
		name       string
		load       func() (*Scenario, error)
		sets       []string
		dgemm      float64 // expected mean of dgemm(100, 200, 64)
		dtrsmFile  bool    // dtrsm is the file's
		wantShadow bool    // a note says inline keys come over the file
	}{
		{"default alone: the study's", func() (*Scenario, error) { return Default(), nil }, nil,
			1.029e-11*1280000 + 1.981e-12, false, false},
		{"default with a models file: the file's", func() (*Scenario, error) { return Default(), nil },
			[]string{"kernels.models=" + file}, 2e-11*1280000 + 1e-5, true, false},
		{"default, a --set key over the file: the file's but that key", func() (*Scenario, error) { return Default(), nil },
			[]string{"kernels.models=" + file, "kernels.dgemm.coef=[4e-11]"}, 4e-11*1280000 + 1e-5, true, true},
		{"a scenario's own inline table over the file", func() (*Scenario, error) { return Load(own) },
			[]string{"kernels.models=" + file}, 5e-11 * 1280000, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := tc.load()
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range tc.sets {
				if err := s.Set(a); err != nil {
					t.Fatal(err)
				}
			}
			p, err := s.Validate()
			if err != nil {
				t.Fatal(err)
			}
			got := p.Kernels.Models.For("dgemm", "").Mean(dgemm)
			if rel := got/tc.dgemm - 1; rel > 1e-12 || rel < -1e-12 {
				t.Errorf("dgemm(100, 200, 64) = %g s, want %g", got, tc.dgemm)
			}
			fileTrsm := 3e-11*dtrsm.W + 2e-6
			if got := p.Kernels.Models.For("dtrsm", "").Mean(dtrsm); (got == fileTrsm) != tc.dtrsmFile {
				t.Errorf("dtrsm = %g s; the file's %g: want %v", got, fileTrsm, tc.dtrsmFile)
			}
			shadow := false
			for _, n := range p.Notes {
				if strings.Contains(n, "the scenario's") && strings.Contains(n, "over "+file+"'s dgemm, key by key") {
					shadow = true
				}
			}
			if shadow != tc.wantShadow {
				t.Errorf("notes %q: a note of inline keys over the file = %v, want %v", p.Notes, shadow, tc.wantShadow)
			}
		})
	}
}

// perHostModels is a models file of per-host dgemm models: the platform-wide
// one with hetero noise, n1 a polynomial without noise, n2 a half-normal.
const perHostModels = `[kernels.dgemm]
terms = ["m*n*k"]
coef = [2e-11]
intercept = 1e-5
noise = "hetero"
sigma_terms = ["m*n*k"]
sigma_coef = [1e-13]
sigma_intercept = 1e-7

[kernels.dgemm.host.n1]
terms = ["m*n*k", "m*n"]
coef = [3e-11, 1e-10]
intercept = 2e-6

[kernels.dgemm.host.n2]
terms = ["m*n*k"]
coef = [4e-11]
intercept = 3e-6
noise = "halfnormal"
sigma = 5e-7
`

// An inline table or a --set over a models file overrides only the keys it
// names, per host and platform-wide: one host's intercept moves that host's
// dgemm by the difference and no other host's. The means are the file's
// closed forms at m, n, k = 100, 200, 64 (m·n·k = 1,280,000, m·n = 20,000),
// by hand: n0 and n3 take the platform-wide 2e-11·1.28e6 + 1e-5 = 3.56e-5 s,
// n1 3e-11·1.28e6 + 1e-10·2e4 + 2e-6 = 4.24e-5 s, n2 4e-11·1.28e6 + 3e-6 =
// 5.42e-5 s.
func TestInlineOverModelsFileKeyByKey(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.toml"), []byte(perHostModels), 0o644); err != nil {
		t.Fatal(err)
	}
	const doc = "[platform]\nhosts = 4\nhost_prefix = \"n\"\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n" +
		"[kernels]\nmodels = \"m.toml\"\n[hpl]\nn = 200\nnb = 50\ngrids = [[1, 4]]\n"
	v := models.Vars{M: 100, N: 200, K: 64}
	file := [4]float64{3.56e-5, 4.24e-5, 5.42e-5, 3.56e-5}
	plus := func(host int, d float64) [4]float64 { m := file; m[host] += d; return m }
	tests := []struct {
		name   string
		inline string // the scenario's own [kernels.dgemm...] tables
		sets   []string
		means  [4]float64 // dgemm(100, 200, 64) on n0 … n3
		noise  [4]string  // each host's noise family, "" for none
	}{
		{"the file alone", "", nil, file, [4]string{"hetero", "", "halfnormal", "hetero"}},
		{"one host's intercept", "", []string{"kernels.dgemm.host.n1.intercept=5e-6"},
			plus(1, 3e-6), [4]string{"hetero", "", "halfnormal", "hetero"}},
		{"one host's coef", "", []string{"kernels.dgemm.host.n2.coef=[5e-11]"},
			plus(2, 1e-11*1.28e6), [4]string{"hetero", "", "halfnormal", "hetero"}},
		{"the platform-wide intercept: the hosts without a table", "", []string{"kernels.dgemm.intercept=2e-5"},
			[4]float64{4.56e-5, 4.24e-5, 5.42e-5, 4.56e-5}, [4]string{"hetero", "", "halfnormal", "hetero"}},
		{"a host's noise family, its mean kept", "", []string{"kernels.dgemm.host.n1.noise=gaussian", "kernels.dgemm.host.n1.sigma=1e-7"},
			file, [4]string{"hetero", "gaussian", "halfnormal", "hetero"}},
		{"the scenario's own table, a --set over it", "[kernels.dgemm.host.n2]\nintercept = 4e-6\n",
			[]string{"kernels.dgemm.host.n2.intercept=6e-6"}, plus(2, 3e-6), [4]string{"hetero", "", "halfnormal", "hetero"}},
		{"a new host: its table whole", "", []string{"kernels.dgemm.host.n3.intercept=1e-6"},
			[4]float64{3.56e-5, 4.24e-5, 5.42e-5, 1e-6}, [4]string{"hetero", "", "halfnormal", ""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "s.toml")
			if err := os.WriteFile(path, []byte(doc+tc.inline), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			mustSet(t, s, tc.sets)
			p := mustPlan(t, s, nil)
			spec, _ := p.Kernels.Models.Spec("dgemm")
			for h := range 4 {
				host := p.Platform.HostName(h)
				if got := p.Kernels.Models.For("dgemm", host).Mean(v); !close(got, tc.means[h]) {
					t.Errorf("dgemm(100, 200, 64) on %s = %.10g s, want %.10g", host, got, tc.means[h])
				}
				noise := spec.Noise
				if hs, ok := spec.Host[host]; ok {
					noise = hs.Noise
				}
				if noise != tc.noise[h] {
					t.Errorf("%s's noise %q, want %q", host, noise, tc.noise[h])
				}
			}
		})
	}
}

// A key that does not belong to the form of the part it sets, under the
// file's model or one the table gives, is an error naming the --set and the
// key, one line; so is a host's table that its CPUs' own models shadow.
func TestInlineOverModelsFileErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.toml"), []byte(perHostModels), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := "[platform]\nhosts = 4\nhost_prefix = \"n\"\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n[kernels]\nmodels = \"m.toml\"\n"
	path := filepath.Join(dir, "s.toml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		sets []string
		want string
	}{
		{[]string{"kernels.dgemm.sigma=1e-7"},
			`--set kernels.dgemm.sigma=1e-7: kernels.dgemm.sigma: not a key of noise = "hetero", which takes sigma_terms, sigma_coef, sigma_intercept; give noise too to change the family`},
		{[]string{"kernels.dgemm.host.n1.sigma=1e-7"},
			`--set kernels.dgemm.host.n1.sigma=1e-7: kernels.dgemm.host.n1.sigma: the model has no noise (noise = "none"); give noise too to set one`},
		{[]string{"kernels.dgemm.host.n2.noise=gaussian", "kernels.dgemm.host.n2.sigma_coef=[1e-13]"},
			`--set kernels.dgemm.host.n2.sigma_coef=[1e-13]: kernels.dgemm.host.n2.sigma_coef: not a key of noise = "gaussian", which takes sigma; give noise too to change the family`},
		{[]string{"kernels.dgemm.breaks_on=m"},
			`--set kernels.dgemm.breaks_on=m: kernels.dgemm.breaks_on: the model's mean is a polynomial (terms, coef, intercept); give piece too to make it piecewise`},
		{[]string{`kernels.dgemm.host."n3/cpu0".intercept=1e-6`, "kernels.dgemm.host.n3.intercept=2e-6"},
			`--set kernels.dgemm.host.n3.intercept=2e-6: kernels.dgemm.host.n3: no call would use it: its CPUs' own models (n3/cpu0) come before a host's; set theirs, e.g. kernels.dgemm.host."n3/cpu0"`},
		// n0 and n3 given tables of their own, every host has one: the
		// platform-wide intercept is read by no call (qa51; it ran, noted as
		// laid over the file, its figures those of the run without it).
		{[]string{"kernels.dgemm.host.n0.intercept=1e-6", `kernels.dgemm.host."n3/cpu0".intercept=1e-6`, "kernels.dgemm.intercept=2e-6"},
			`--set kernels.dgemm.intercept=2e-6: kernels.dgemm.intercept: no call would use it: every host of the platform has its own dgemm model (its CPUs' or its own), which comes before the platform-wide one; set a host's, e.g. kernels.dgemm.host."n0"`},
		{[]string{"kernels.dgemm.host.n9.intercept=1e-6"},
			`--set kernels.dgemm.host.n9.intercept=1e-6: kernels.dgemm.host.n9: the platform has no host of that name (n0 … n3)`},
	}
	for _, tc := range tests {
		t.Run(tc.sets[len(tc.sets)-1], func(t *testing.T) {
			s, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			mustSet(t, s, tc.sets)
			_, err = s.Validate()
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v\nwant  %s", err, tc.want)
			}
		})
	}
}

// Without a models file, a --set over the scenario's own host table is key by
// key too (the decoder's map had made it a new table of the --set's keys
// alone, a constant dgemm): n1 = 3e-11·1.28e6 + 1e-10·2e4 + 5e-6 = 4.54e-5 s.
func TestSetOverInlineHostTable(t *testing.T) {
	doc := "[platform]\nhosts = 4\nhost_prefix = \"n\"\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n" +
		"[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [2e-11]\n" +
		"[kernels.dgemm.host.n1]\nterms = [\"m*n*k\", \"m*n\"]\ncoef = [3e-11, 1e-10]\nintercept = 2e-6\n"
	s, err := Parse([]byte(doc), "s.toml")
	if err != nil {
		t.Fatal(err)
	}
	mustSet(t, s, []string{"kernels.dgemm.host.n1.intercept=5e-6"})
	p := mustPlan(t, s, nil)
	v := models.Vars{M: 100, N: 200, K: 64}
	for host, want := range map[string]float64{"n0": 2.56e-5, "n1": 4.54e-5} {
		if got := p.Kernels.Models.For("dgemm", host).Mean(v); !close(got, want) {
			t.Errorf("dgemm(100, 200, 64) on %s = %.10g s, want %.10g", host, got, want)
		}
	}
}

// TestEmptyModelsFileRefused: a models file with no kernel table (empty, or
// comments alone) ran as the default's own dgemm and dtrsm without a word,
// the same Time as no file at all (qa57); it is refused at the file.
func TestEmptyModelsFileRefused(t *testing.T) {
	dir := t.TempDir()
	for _, body := range []string{"", "# models of this node\n"} {
		path := filepath.Join(dir, "m.toml")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		s := Default()
		mustSet(t, s, []string{"kernels.models=" + path})
		_, err := s.Validate()
		if want := path + ": no [kernels.NAME] table"; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("models file %q: error %v, want %s...", body, err, want)
		}
	}
}

// TestModelsFileLackingADefaultKernelIsNoted: the embedded default's dgemm
// and dtrsm give way to a models file kernel by kernel, so a file of dtrsm
// alone keeps the SMPI study's dgemm; that mix was silent (qa57), now noted,
// and a file of both leaves no such note.
func TestModelsFileLackingADefaultKernelIsNoted(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		body string
		want []string
	}{
		{"[kernels.dtrsm]\nterms = [\"w\"]\ncoef = [2e-11]\n", []string{"kernels.dgemm: " + filepath.Join(dir, "m.toml") + " has no dgemm model, so the embedded default's (the SMPI study's) charges it"}},
		{"[kernels.dtrsm]\nterms = [\"w\"]\ncoef = [2e-11]\n[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [2e-11]\n", nil},
	} {
		path := filepath.Join(dir, "m.toml")
		if err := os.WriteFile(path, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		s := Default()
		mustSet(t, s, []string{"kernels.models=" + path})
		p, err := s.Validate()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, n := range p.Notes {
			if strings.Contains(n, "the embedded default's") {
				got = append(got, n)
			}
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("file %q: notes %q, want %q", tc.body, got, tc.want)
		}
	}
}
