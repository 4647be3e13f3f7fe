package scenario

import (
	"strings"
	"testing"

	"github.com/emu-hpc/emu/apps/hpl"
)

// hpl.roll picks how long broadcasts' rolls are emulated: HPL's steps by
// default, merged on request (an approximation), from the [hpl] table or
// --set, kept when an HPL.dat replaces the table (HPL.dat has no line for
// it); anything else is refused naming the key and its line.
func TestHPLRoll(t *testing.T) {
	plan := func(t *testing.T, src string, hplDat string, sets ...string) (*Plan, error) {
		t.Helper()
		s, err := Parse([]byte(src), "s.toml")
		if err != nil {
			return nil, err
		}
		if hplDat != "" {
			if err := s.UseHPLDat(hplDat); err != nil {
				t.Fatal(err)
			}
		}
		for _, kv := range sets {
			if err := s.Set(kv); err != nil {
				return nil, err
			}
		}
		return s.Validate()
	}
	const base = "app = \"hpl\"\n[platform]\nhosts = 4\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n[hpl]\nn = 1000\ngrids = [[2, 2]]\n"
	for _, tc := range []struct {
		name, src, hplDat string
		sets              []string
		want              hpl.RollModel
		err               string
	}{
		{"default", base, "", nil, hpl.RollSteps, ""},
		{"table", base + "roll = \"merged\"\n", "", nil, hpl.RollMerged, ""},
		{"set", base, "", []string{"hpl.roll=merged"}, hpl.RollMerged, ""},
		{"set over table", base + "roll = \"merged\"\n", "", []string{"hpl.roll=steps"}, hpl.RollSteps, ""},
		{"kept under an HPL.dat", base + "roll = \"merged\"\n", "testdata/hpldat/shipped.dat", nil, hpl.RollMerged, ""},
		{"bad word", base + "roll = \"rolled\"\n", "", nil, 0, `s.toml:9: hpl.roll: "rolled": want "steps" or "merged"`},
		{"bad type", base + "roll = 2\n", "", nil, 0, "s.toml:9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := plan(t, tc.src, tc.hplDat, tc.sets...)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("got %v, want %q...", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Roll != tc.want {
				t.Errorf("roll %v, want %v", p.Roll, tc.want)
			}
		})
	}
}
