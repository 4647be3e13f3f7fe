package scenario

import (
	"reflect"
	"testing"

	"github.com/emu-hpc/emu/apps/hpl"
)

// --set key=[a,b] with bare words is a list of strings, as a bare word is a
// string: --set hpl.bcast=[1ring,long] needs no shell-quoted TOML.
func TestSetBareWordLists(t *testing.T) {
	for _, c := range []struct {
		set   string
		check func(d *hpl.Dat) bool
	}{
		{"hpl.bcast=[1ring,long]", func(d *hpl.Dat) bool { return reflect.DeepEqual(d.BCasts, []hpl.BCast{hpl.OneRing, hpl.Long}) }},
		{"hpl.pfact=[left, crout]", func(d *hpl.Dat) bool { return reflect.DeepEqual(d.PFacts, []hpl.Fact{hpl.Left, hpl.Crout}) }},
		{`hpl.rfact=["right",left]`, func(d *hpl.Dat) bool { return reflect.DeepEqual(d.RFacts, []hpl.Fact{hpl.Right, hpl.Left}) }},
		{"hpl.nb=[32,64]", func(d *hpl.Dat) bool { return reflect.DeepEqual(d.NBs, []int{32, 64}) }},
		{"hpl.grids=[2x2,1x4]", func(d *hpl.Dat) bool { return reflect.DeepEqual(d.Grids, []hpl.Grid{{P: 2, Q: 2}, {P: 1, Q: 4}}) }},
	} {
		s := Default()
		if err := s.Set(c.set); err != nil {
			t.Errorf("--set %s: %v", c.set, err)
			continue
		}
		p, err := s.Validate()
		if err != nil {
			t.Errorf("--set %s: %v", c.set, err)
			continue
		}
		if !c.check(p.HPLDat) {
			t.Errorf("--set %s: got %+v", c.set, *p.HPLDat)
		}
	}
}
