package scenario

import (
	"fmt"
	"strings"

	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/units"
)

// Overhead is a per-message software overhead: a duration ("1us", a number of
// seconds), or SimGrid's piecewise table of the message size,
// "bound:offset:perbyte;..." (smpi/os, smpi/or, smpi/ois), in which case
// Table holds it and Seconds is 0. It lives here rather than in package
// units because its table is the MPI layer's (ranks.Table).
type Overhead struct {
	Seconds float64
	Table   ranks.Table
	Set     bool
}

// Piecewise reports whether the overhead was given as a table.
func (o Overhead) Piecewise() bool { return !o.Table.IsZero() }

// Value is the overhead as the MPI layer takes it.
func (o Overhead) Value() ranks.Table {
	if o.Piecewise() {
		return o.Table
	}
	return ranks.ConstTable(o.Seconds)
}

// maxOverhead bounds an overhead table's offsets, as units bounds a time
// (1e9 s), and maxMessage is the largest message emu sends (a TI trace's
// bound, 1 TiB): the per-byte cost times it stays within maxOverhead.
const (
	maxOverhead = 1e9
	maxMessage  = 1 << 40
)

// UnmarshalTOML implements toml.Unmarshaler.
func (o *Overhead) UnmarshalTOML(v any) error {
	if str, ok := v.(string); ok && strings.ContainsAny(str, ":;") {
		t, err := ranks.ParseTable(str)
		if err != nil {
			return fmt.Errorf("%v (want a time such as \"1us\" or SimGrid's \"bound:offset:perbyte;...\")", err)
		}
		// The bounds of a time given alone (units.ParseTime): an offset of
		// 1e300 s ran HPL to a Time printed in 300 digits (qa47).
		switch off, pb := t.Largest(); {
		case off > maxOverhead:
			return fmt.Errorf("%q: an offset of %g s, beyond %g s: the simulated clock would lose the microseconds MPI costs are made of", str, off, maxOverhead)
		case pb > maxOverhead/maxMessage:
			return fmt.Errorf("%q: a cost of %g s per byte, beyond %.3g s: a message of 1 TiB (the largest emu sends) would last beyond %g s", str, pb, maxOverhead/maxMessage, maxOverhead)
		}
		*o = Overhead{Table: t, Set: true}
		return nil
	}
	var t units.Time
	err := t.UnmarshalTOML(v)
	*o = Overhead{Seconds: t.Seconds, Set: err == nil}
	return err
}
