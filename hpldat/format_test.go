package hpldat

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestFormatRoundTrips: every HPL.dat we ship or the peers used, parsed,
// written and parsed again, gives the same parameters.
func TestFormatRoundTrips(t *testing.T) {
	files := []string{"testdata/shipped.dat", "../examples/HPL.dat"}
	peers, _ := filepath.Glob(filepath.Join(peersDir, "hpl_dat", "*.dat"))
	files = append(files, peers[:min(8, len(peers))]...)
	for _, file := range files {
		d, err := Parse(readFile(t, file), file, 0)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(Format(d), "written.dat", 0)
		if err != nil {
			t.Fatalf("%s written: %v\n%s", file, err, Format(d))
		}
		if !reflect.DeepEqual(back, d) {
			t.Errorf("%s: round trip\n got %+v\nwant %+v", file, back, d)
		}
	}
}

// FuzzFormat: whatever Parse accepts, Format writes back to the same
// parameters.
func FuzzFormat(f *testing.F) {
	f.Add(readFile(f, "testdata/shipped.dat"))
	f.Add(readFile(f, "../examples/HPL.dat"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data, "f.dat", 0)
		if err != nil {
			return
		}
		back, err := Parse(Format(d), "written.dat", 0)
		if err != nil || !reflect.DeepEqual(back, d) {
			t.Fatalf("round trip: %v\n got %+v\nwant %+v", err, back, d)
		}
	})
}
