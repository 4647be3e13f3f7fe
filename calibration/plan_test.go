package calibration

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
)

func TestPlanIsPureAndInRange(t *testing.T) {
	p := Plan{Kernels: DefaultKernels, Samples: 300, MaxDim: 500, Seed: 11}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	var chunks, fullWidth, smallK, rightTrsm, transTrsm, nbTrsm, tallSkinny, transB int
	for i := 0; i < p.Total(); i++ {
		c := p.Call(i)
		if again := p.Call(i); again != c {
			t.Fatalf("Call(%d) = %+v then %+v", i, c, again)
		}
		if c.M < 0 || c.N < 1 || c.K < 0 || c.M > p.MaxDim || c.N > p.MaxDim || c.K > p.MaxDim {
			t.Fatalf("call %+v out of range", c)
		}
		if _, empty, err := varsOf(Sample{Kernel: c.Kernel, M: c.M, N: c.N, K: c.K}, nil); err != nil || empty {
			t.Fatalf("call %+v: empty %v, %v", c, empty, err)
		}
		switch c.Kernel {
		case "dgemm":
			isNB := false
			for _, nb := range DefaultNBs {
				isNB = isNB || c.K == nb
			}
			if isNB && c.N <= c.K {
				chunks++
			}
			if isNB && c.N > c.K {
				fullWidth++
			}
			if c.K < 64 {
				smallK++
			}
			if c.M >= 8*c.N {
				tallSkinny++
			}
			if c.TransB == blas.Trans {
				transB++
			}
		case "dtrsm":
			if order := map[blas.Side]int{blas.Left: c.M, blas.Right: c.N}[c.Side]; order != c.K {
				t.Fatalf("dtrsm %+v: k is not the triangle order", c)
			}
			if c.Side == blas.Right {
				rightTrsm++
			}
			if c.TransA == blas.Trans {
				transTrsm++
			}
			if slices.Contains(DefaultNBs, c.K) {
				nbTrsm++
			}
		}
	}
	// 300 dgemm and 300 dtrsm calls, each family drawn with probability ≥ 1/4: each ≳ 40.
	for name, n := range map[string]int{"NB chunks": chunks, "full width K=NB": fullWidth, "small K": smallK, "tall-skinny": tallSkinny, "right dtrsm": rightTrsm, "transposed dtrsm": transTrsm, "dtrsm of order NB": nbTrsm, "dgemm B transposed": transB} {
		if n < 30 {
			t.Errorf("%s: only %d calls of 300", name, n)
		}
	}
	q := p
	q.Seed++
	if q.Fingerprint() == p.Fingerprint() || q.Call(5) == p.Call(5) {
		t.Error("another seed gives the same plan")
	}
}

// TestPlanNBs draws only the given panel width: every dgemm's K and every
// dtrsm's order is at most NB, and the update-shaped calls have exactly NB.
func TestPlanNBs(t *testing.T) {
	p := Plan{Kernels: []string{"dgemm", "dtrsm"}, Samples: 200, MaxDim: 500, NBs: []int{64}, Seed: 3}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	atNB := 0
	for i := 0; i < p.Total(); i++ {
		c := p.Call(i)
		if c.K > 64 {
			t.Fatalf("call %+v: K above the only NB, 64", c)
		}
		if c.K == 64 {
			atNB++
		}
	}
	if atNB < p.Total()/2 {
		t.Errorf("%d of %d calls at K = NB; want most (updates and their triangles)", atNB, p.Total())
	}
	q := p
	q.NBs = nil
	if q.Fingerprint() == p.Fingerprint() {
		t.Error("the panel widths do not change the fingerprint")
	}
	q.NBs = []int{0}
	if q.Validate() == nil {
		t.Error("panel width 0 accepted")
	}
}

func TestPlanValidate(t *testing.T) {
	bad := Plan{Kernels: []string{"dgemm", "zgemm"}, Samples: 0, MaxDim: 1}
	err := bad.Validate()
	for _, want := range []string{`unknown kernel "zgemm"`, "samples 0", "max dimension 1"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: %v, want it to mention %q", err, want)
		}
	}
	huge := Plan{Kernels: []string{"dgemm"}, Samples: MaxSamples + 1, MaxDim: MaxDim + 1}
	err = huge.Validate()
	for _, want := range []string{"samples 1000001: want at most 1000000", "max dimension 1048577: want at most 1048576"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: %v, want it to mention %q", err, want)
		}
	}
}

func TestMergeDropsDuplicates(t *testing.T) {
	dir := t.TempDir()
	a := []Sample{
		{Index: 0, Plan: "p", Host: "n1", Core: 0, Kernel: "dgemm", M: 1, N: 2, K: 3, Seconds: 1e-6},
		{Index: 1, Plan: "p", Host: "n1", Core: 1, Kernel: "dscal", N: 9, Seconds: 2e-7},
	}
	b := []Sample{
		{Index: 0, Plan: "p", Host: "n2", Core: 0, Kernel: "dgemm", M: 1, N: 2, K: 3, Seconds: 1.1e-6},
		{Index: -1, Core: -1, Host: "n3", Kernel: "daxpy", N: 4, Seconds: 3e-7},
	}
	write := func(name string, s []Sample) string {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := WriteSamples(f, s); err != nil {
			t.Fatal(err)
		}
		return f.Name()
	}
	pa, pb := write("a.csv", a), write("b.csv", b)
	got, _, dups, err := Merge([]string{pa, pb, pa})
	if err != nil || dups != 2 || len(got) != 4 {
		t.Fatalf("merge: %d rows, %d duplicates, %v; want 4 and 2", len(got), dups, err)
	}
	for i, want := range append(a, b...) {
		if got[i] != want {
			t.Errorf("row %d: %+v, want %+v", i, got[i], want)
		}
	}
	if _, _, _, err := Merge([]string{filepath.Join(dir, "missing.csv")}); err == nil {
		t.Error("merge of a missing file succeeded")
	}
}

// TestMergeRefusesTwoCampaignsUnderOneHost: rows of one identity (host, plan,
// index) but another measurement are two campaigns under one host name, not
// a copy; dropping the second as duplicates lost its samples unseen.
func TestMergeRefusesTwoCampaignsUnderOneHost(t *testing.T) {
	dir := t.TempDir()
	row := Sample{Index: 0, Plan: "p", Host: "n1", Core: 0, Kernel: "dgemm", M: 1, N: 2, K: 3, Seconds: 1e-6}
	other := func(f func(*Sample)) Sample { s := row; f(&s); return s }
	cases := []struct {
		name  string
		b     Sample
		ok    bool // a copy: dropped as a duplicate
		wants string
	}{
		{"a copy", row, true, ""},
		{"another duration", other(func(s *Sample) { s.Seconds = 2e-6 }), false, "b.csv: host n1's sample 0 (plan p) is also in"},
		{"another call", other(func(s *Sample) { s.M = 7 }), false, "measured otherwise"},
		{"another time", other(func(s *Sample) { s.Time = row.Time.Add(1) }), false, "give each node its own --host"},
	}
	for _, c := range cases {
		pa, pb := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
		for path, s := range map[string]Sample{pa: row, pb: c.b} {
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := WriteSamples(f, []Sample{s}); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
		got, _, dups, err := Merge([]string{pa, pb})
		switch {
		case c.ok && (err != nil || dups != 1 || len(got) != 1):
			t.Errorf("%s: %d rows, %d duplicates, %v; want 1 row, 1 duplicate", c.name, len(got), dups, err)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), c.wants)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.wants)
		}
	}
}

// TestMergeTakesOnesOwnKernels: calibrate merge refused a file of a kernel of
// one's own (examples/sweep-samples.csv: unknown kernel "sweep"), so several
// nodes' samples of it could not be merged before emu fit --product (qa57).
// Its rows merge as they are; an empty or odd name stays refused at its line.
func TestMergeTakesOnesOwnKernels(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.csv", "# node 1\nkernel,host,m,n,k,seconds\nsweep,n1,100,200,,2e-5\ndgemm,n1,1,2,3,1e-6\n")
	b := write("b.csv", "kernel,host,m,n,k,seconds\nsweep,n2,100,200,,2.1e-5\nstencil_2d,n2,8,8,,1e-7\n")
	got, _, _, err := Merge([]string{a, b})
	if err != nil || len(got) != 4 {
		t.Fatalf("merge: %d rows, %v; want 4", len(got), err)
	}
	if got[0].Kernel != "sweep" || got[0].Host != "n1" || got[3].Kernel != "stencil_2d" || got[3].Seconds != 1e-7 {
		t.Errorf("rows %+v", got)
	}
	for _, c := range []struct{ name, row, want string }{
		{"empty name", ",h,1,2,3,1e-6", `e.csv:2: unknown kernel ""`},
		{"a name with a blank", "my kernel,h,1,2,3,1e-6", `e.csv:2: unknown kernel "my kernel"`},
	} {
		p := write("e.csv", "kernel,host,m,n,k,seconds\n"+c.row+"\n")
		if _, _, _, err := Merge([]string{p}); err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, c.want)) {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
}

// TestMergeTakesAFileOnce: a file given twice (under another spelling of
// its path too) is merged once, its second copy counted as duplicates; its
// rows without an index (other tools' files, examples/sweep-samples.csv)
// were kept twice, 96 samples of 48 with "0 duplicates dropped".
func TestMergeTakesAFileOnce(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.csv")
	if err := os.WriteFile(p, []byte("kernel,host,m,n,k,seconds\nsweep,n1,100,200,,2e-5\ndgemm,n1,1,2,3,1e-6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, paths := range [][]string{{p, p}, {p, filepath.Join(dir, ".", "..", filepath.Base(dir), "a.csv")}} {
		got, _, dups, err := Merge(paths)
		if err != nil || len(got) != 2 || dups != 2 {
			t.Errorf("merge %q: %d rows, %d duplicates, %v; want 2 rows, 2 duplicates", paths, len(got), dups, err)
		}
	}
}
