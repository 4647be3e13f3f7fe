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

// UnmarshalTOML implements toml.Unmarshaler.
func (o *Overhead) UnmarshalTOML(v any) error {
	if str, ok := v.(string); ok && strings.ContainsAny(str, ":;") {
		t, err := ranks.ParseTable(str)
		if err != nil {
			return fmt.Errorf("%v (want a time such as \"1us\" or SimGrid's \"bound:offset:perbyte;...\")", err)
		}
		*o = Overhead{Table: t, Set: true}
		return nil
	}
	var t units.Time
	err := t.UnmarshalTOML(v)
	*o = Overhead{Seconds: t.Seconds, Set: err == nil}
	return err
}
