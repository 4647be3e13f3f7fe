package plantest

import (
	"testing"

	"github.com/emu-hpc/emu/scenario"
)

// TestValidatedAppliesSetsInOrder: the sets reach the plan, a later one
// replacing an earlier one of the same key.
func TestValidatedAppliesSetsInOrder(t *testing.T) {
	p := Validated(t, scenario.Default(), "hpl.n=300", "hpl.n=200", "hpl.nb=32")
	if len(p.HPL) != 1 || p.HPL[0].N != 200 || p.HPL[0].NB != 32 {
		t.Errorf("HPL tests %+v; want one of N = 200, NB = 32", p.HPL)
	}
}
