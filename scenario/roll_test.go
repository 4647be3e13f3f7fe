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
	const base = approxBase
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
		{"kept under an HPL.dat", base + "roll = \"merged\"\n", "../hpldat/testdata/shipped.dat", nil, hpl.RollMerged, ""},
		{"bad word", base + "roll = \"rolled\"\n", "", nil, 0, `s.toml:9: hpl.roll: "rolled": want "steps" or "merged"`},
		{"bad type", base + "roll = 2\n", "", nil, 0, "s.toml:9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := approxPlan(t, tc.src, tc.hplDat, tc.err, tc.sets...)
			if p == nil {
				return
			}
			if p.Roll != tc.want {
				t.Errorf("roll %v, want %v", p.Roll, tc.want)
			}
		})
	}
}

// approxBase is a 2×2 HPL scenario whose [hpl] table ends the file, so that
// a key appended to it lands on line 9.
const approxBase = "app = \"hpl\"\n[platform]\nhosts = 4\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n[hpl]\nn = 1000\ngrids = [[2, 2]]\n"

// approxPlan validates src (with hplDat replacing its table if given, then
// the sets) and returns the plan; when wantErr is set it checks that the
// error starts with it instead and returns nil.
func approxPlan(t *testing.T, src, hplDat, wantErr string, sets ...string) *Plan {
	t.Helper()
	s, err := Parse([]byte(src), "s.toml")
	if err == nil && hplDat != "" {
		err = s.UseHPLDat(hplDat)
	}
	for _, kv := range sets {
		if err == nil {
			err = s.Set(kv)
		}
	}
	var p *Plan
	if err == nil {
		p, err = s.Validate()
	}
	if wantErr != "" {
		if err == nil || !strings.HasPrefix(err.Error(), wantErr) {
			t.Fatalf("got %v, want %q...", err, wantErr)
		}
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}
