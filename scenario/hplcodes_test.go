package scenario

import (
	"reflect"
	"testing"

	"github.com/emu-hpc/emu/apps/hpl"
)

// [hpl] takes HPL.dat's numeric codes and HPL's own spellings beside emu's names,
// in the file and with --set: what a user copies from an HPL.dat or an HPL output.
func TestHPLTableTakesHPLDatCodes(t *testing.T) {
	const base = "[platform]\nhosts = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n"
	for _, c := range []struct {
		name, doc string
		sets      []string
		check     func(d *hpl.Dat) bool
	}{
		{"bcast codes", base + "[hpl]\nbcast = [0, 5]\n", nil, func(d *hpl.Dat) bool {
			return reflect.DeepEqual(d.BCasts, []hpl.BCast{hpl.OneRing, hpl.LongM})
		}},
		{"bcast banner word", base, []string{"hpl.bcast=Blong"}, func(d *hpl.Dat) bool { return reflect.DeepEqual(d.BCasts, []hpl.BCast{hpl.Long}) }},
		{"bcast code by --set", base, []string{"hpl.bcast=3"}, func(d *hpl.Dat) bool { return reflect.DeepEqual(d.BCasts, []hpl.BCast{hpl.TwoRingM}) }},
		{"pfact codes", base + "[hpl]\npfact = [0, 1]\nrfact = 2\n", nil, func(d *hpl.Dat) bool {
			return reflect.DeepEqual(d.PFacts, []hpl.Fact{hpl.Left, hpl.Crout}) && reflect.DeepEqual(d.RFacts, []hpl.Fact{hpl.Right})
		}},
		{"swap code", base + "[hpl]\nswap = 0\n", nil, func(d *hpl.Dat) bool { return d.Swap == hpl.BinaryExchange }},
		{"swap long", base, []string{"hpl.swap=long"}, func(d *hpl.Dat) bool { return d.Swap == hpl.SpreadRoll }},
		{"pmap code", base, []string{"hpl.pmap=1"}, func(d *hpl.Dat) bool { return d.PMap == hpl.ColumnMajor }},
		// HPL.dat lines 28–29: 0 = transposed, 1 = no-transposed
		{"l1 and u codes", base + "[hpl]\nl1 = 1\nu = 0\n", nil, func(d *hpl.Dat) bool { return !d.L1Transposed && d.UTransposed }},
		{"equilibration code", base, []string{"hpl.equilibration=0"}, func(d *hpl.Dat) bool { return !d.Equilibration }},
		// the words of HPL's echo and HPL.dat's comments, as docs/reference/scenario-apps.md
		// promises: equilibration = "yes" was refused, want true or false
		{"equilibration echo word", base, []string{"hpl.equilibration=no"}, func(d *hpl.Dat) bool { return !d.Equilibration }},
		{"equilibration comment word", base + "[hpl]\nequilibration = \"YES\"\n", []string{"hpl.threshold=1"}, func(d *hpl.Dat) bool { return d.Equilibration }},
		{"l1 and u echo words", base + "[hpl]\nl1 = \"no-transposed form\"\nu = \"transposed form\"\n", nil, func(d *hpl.Dat) bool { return !d.L1Transposed && d.UTransposed }},
		{"pmap echo words", base, []string{"hpl.pmap=Column-major process mapping"}, func(d *hpl.Dat) bool { return d.PMap == hpl.ColumnMajor }},
		{"pmap comment word", base, []string{"hpl.pmap=Column-"}, func(d *hpl.Dat) bool { return d.PMap == hpl.ColumnMajor }},
	} {
		s, err := Parse([]byte(c.doc), "s.toml")
		for _, kv := range c.sets {
			if err == nil {
				err = s.Set(kv)
			}
		}
		var p *Plan
		if err == nil {
			p, err = s.Validate()
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !c.check(p.HPLDat) {
			t.Errorf("%s: got %+v", c.name, *p.HPLDat)
		}
	}
	for _, c := range []struct{ set, want string }{
		{"hpl.bcast=6", "--set hpl.bcast=6: hpl.bcast: hpl: bcast code 6: want 0…5"},
		{"hpl.l1=2", "--set hpl.l1=2: hpl.l1: 2: want \"transposed\" (0) or \"no-transposed\" (1)"},
		{"hpl.equilibration=2", "--set hpl.equilibration=2: hpl.equilibration: want true or false (or 1, 0, yes, no), got 2"},
	} {
		s := Default()
		err := s.Set(c.set)
		if err == nil {
			_, err = s.Validate()
		}
		if err == nil || len(err.Error()) < len(c.want) || err.Error()[:len(c.want)] != c.want {
			t.Errorf("%s: got %v, want %q...", c.set, err, c.want)
		}
	}
}
