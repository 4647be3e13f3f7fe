package calibration

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s changed; if on purpose, bump Plan.Fingerprint's version (old campaign files must not resume) and run go test -update\ngot:\n%s", path, got)
	}
}

// TestPlanGolden pins the calls of a seeded plan: a campaign file is only
// resumable if the same (seed, index) gives the same call in every build.
func TestPlanGolden(t *testing.T) {
	p := Plan{Kernels: DefaultKernels, Samples: 3, MaxDim: 2048, Seed: 1}
	var b bytes.Buffer
	fmt.Fprintf(&b, "fingerprint %s\n", p.Fingerprint())
	for i := 0; i < p.Total(); i++ {
		c := p.Call(i)
		fmt.Fprintf(&b, "%2d %-8s m=%-5d n=%-5d k=%-4d side=%c transB=%c\n", c.Index, c.Kernel, c.M, c.N, c.K, c.Side, c.TransB)
	}
	golden(t, "plan.golden", b.Bytes())
}
