package calibration

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/emu-hpc/emu/internal/golden"
)

// TestPlanGolden pins the calls of a seeded plan: a campaign file is only
// resumable if the same (seed, index) gives the same call in every build.
func TestPlanGolden(t *testing.T) {
	p := Plan{Kernels: DefaultKernels, Samples: 3, MaxDim: 2048, Seed: 1}
	var b bytes.Buffer
	fmt.Fprintf(&b, "fingerprint %s\n", p.Fingerprint())
	for i := 0; i < p.Total(); i++ {
		c := p.Call(i)
		fmt.Fprintf(&b, "%2d %-8s m=%-5d n=%-5d k=%-4d side=%c transA=%c transB=%c\n", c.Index, c.Kernel, c.M, c.N, c.K, c.Side, c.TransA, c.TransB)
	}
	if !golden.Check(t, filepath.Join("testdata", "plan.golden"), b.Bytes()) {
		t.Log("if the change is on purpose, bump Plan.Fingerprint's version (old campaign files must not resume) before go test -update")
	}
}
