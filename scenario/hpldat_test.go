package scenario

import (
	"reflect"
	"testing"

	"github.com/emu-hpc/emu/hpldat"
)

// TestDefaultHPLDatRoundTrips: the [hpl] table's parameters (the embedded
// default scenario) written as an HPL.dat read back to the same tests.
func TestDefaultHPLDatRoundTrips(t *testing.T) {
	plan, err := Default().Validate()
	if err != nil {
		t.Fatal(err)
	}
	back, err := hpldat.Parse(hpldat.Format(*plan.HPLDat), "written.dat", plan.Ranks)
	if err != nil || !reflect.DeepEqual(back.Tests(), plan.HPL) {
		t.Errorf("default scenario: %v\n got %+v\nwant %+v", err, back.Tests(), plan.HPL)
	}
}
