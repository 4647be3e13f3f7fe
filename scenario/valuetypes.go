package scenario

import "github.com/emu-hpc/emu/units"

// The schema's value types live in package units, below scenario and the
// observers of package observe, which read the same quantities; these
// names keep the schema's spelling (schema.go).
type (
	Size      = units.Size
	Time      = units.Time
	Bandwidth = units.Bandwidth
	IntList   = units.IntList
	NameList  = units.NameList
	Word      = units.Word
	Toggle    = units.Toggle
	GridList  = units.GridList
	Seed      = units.Seed
)
