package scenario

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestFormatHPLDatRoundTrips: every HPL.dat we ship or the peers used, parsed,
// written and parsed again, gives the same parameters.
func TestFormatHPLDatRoundTrips(t *testing.T) {
	files := []string{"testdata/hpldat/shipped.dat", "../examples/HPL.dat"}
	peers, _ := filepath.Glob(filepath.Join(peersDir, "hpl_dat", "*.dat"))
	files = append(files, peers[:min(8, len(peers))]...)
	for _, file := range files {
		d, err := ParseHPLDat(readFile(t, file), file, 0)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseHPLDat(FormatHPLDat(d), "written.dat", 0)
		if err != nil {
			t.Fatalf("%s written: %v\n%s", file, err, FormatHPLDat(d))
		}
		if !reflect.DeepEqual(back, d) {
			t.Errorf("%s: round trip\n got %+v\nwant %+v", file, back, d)
		}
	}
	// The [hpl] table's parameters (the embedded default) round-trip too.
	plan, err := Default().Validate()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseHPLDat(FormatHPLDat(*plan.HPLDat), "written.dat", plan.Ranks)
	if err != nil || !reflect.DeepEqual(back.Tests(), plan.HPL) {
		t.Errorf("default scenario: %v\n got %+v\nwant %+v", err, back.Tests(), plan.HPL)
	}
}

// FuzzFormatHPLDat: whatever ParseHPLDat accepts, FormatHPLDat writes back to the same
// parameters.
func FuzzFormatHPLDat(f *testing.F) {
	f.Add(readFile(f, "testdata/hpldat/shipped.dat"))
	f.Add(readFile(f, "../examples/HPL.dat"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ParseHPLDat(data, "f.dat", 0)
		if err != nil {
			return
		}
		back, err := ParseHPLDat(FormatHPLDat(d), "written.dat", 0)
		if err != nil || !reflect.DeepEqual(back, d) {
			t.Fatalf("round trip: %v\n got %+v\nwant %+v", err, back, d)
		}
	})
}
