package ranks

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// SMPI's default size-dependent factors (SimGrid 3.32, network/model:SMPI,
// fitted on TACC's Stampede), in SimGrid's own "size:value;..." syntax.
// ParseTable reads them; reference/smpi-model.md §2.2 lists them row by row.
const (
	SMPILatFactor = "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;732:1.9503;257:1.95341;0:2.01467"
	SMPIBwFactor  = "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;732:0.341987;257:0.338112;0:0.812084"
)

// Table is a piecewise function of a message size, in SimGrid's form. A
// chunk "b:v0[:v1]" applies to sizes strictly greater than b, up to and
// including the next boundary; sizes at or below the smallest boundary get
// the default (a factor table's) or the first chunk (an overhead's, Cost).
// Value(s) is v0 + v1·s (v1 is 0 for factor tables, the per-byte cost for
// overhead tables such as smpi/os).
//
// The zero Table has no chunk and no constant: it returns its caller's
// default (1 for factors, 0 for overheads).
type Table struct {
	chunks []chunk // ascending by bound
	// constant, when set, is returned for every size (a table given as a
	// single number).
	constant    float64
	hasConstant bool
}

type chunk struct {
	bound   int     // bytes: the chunk applies to sizes > bound
	offset  float64 // value (factor, or seconds for overheads)
	perByte float64 // seconds per byte (overheads only)
}

// ConstTable returns a table with the same value for every size.
func ConstTable(v float64) Table { return Table{constant: v, hasConstant: true} }

// Largest is t's largest offset (or its constant) and largest per-byte
// cost over its chunks.
func (t Table) Largest() (offset, perByte float64) {
	if t.hasConstant {
		offset = t.constant
	}
	for _, c := range t.chunks {
		offset, perByte = max(offset, c.offset), max(perByte, c.perByte)
	}
	return offset, perByte
}

// IsZero reports whether t is the zero Table (no chunk, no constant).
func (t Table) IsZero() bool { return len(t.chunks) == 0 && !t.hasConstant }

// alwaysZero reports whether t is 0 for every size (the zero Table as an
// overhead, or one whose every chunk is 0).
func (t Table) alwaysZero() bool {
	if t.hasConstant {
		return t.constant == 0
	}
	for _, c := range t.chunks {
		if c.offset != 0 || c.perByte != 0 {
			return false
		}
	}
	return true
}

// Cost is the table's value for a message of size bytes as SimGrid 3.32
// reads an overhead table (smpi/os, ois, or: smpi_host.cpp's osend, oisend,
// orecv): a size at or below every bound takes the first chunk's value,
// where a factor table takes its default; the zero Table costs 0.
func (t Table) Cost(size int) float64 {
	if !t.hasConstant && len(t.chunks) > 0 && size <= t.chunks[0].bound {
		c := &t.chunks[0]
		return c.offset + c.perByte*float64(size)
	}
	return t.Value(size, 0)
}

// overheadForm is t as Value(size, 0) reads it to give Cost: its first
// chunk from bound −1 (the first chunk covers the sizes up to the second
// bound either way). The World keeps its overhead tables so (newWorld), so
// that their lookups on every message stay Value's.
func (t Table) overheadForm() Table {
	if t.hasConstant || len(t.chunks) == 0 || t.chunks[0].bound < 0 {
		return t
	}
	chunks := append([]chunk(nil), t.chunks...)
	chunks[0].bound = -1
	return Table{chunks: chunks}
}

// Value returns the table's value for a message of size bytes, or def when
// the size falls below every chunk (or the table is empty).
func (t Table) Value(size int, def float64) float64 {
	if t.hasConstant {
		return t.constant
	}
	// The tables have about ten chunks: a linear scan beats a binary search.
	i := -1
	for j := range t.chunks {
		if size <= t.chunks[j].bound {
			break
		}
		i = j
	}
	if i < 0 {
		return def
	}
	c := &t.chunks[i]
	return c.offset + c.perByte*float64(size)
}

// smallest returns the least value a factor table gives a size: its
// constant, or the least of its chunks' first values and the default 1
// that sizes at or below the first bound get.
func (t Table) smallest() float64 {
	if t.hasConstant {
		return t.constant
	}
	least := 1.0
	for _, c := range t.chunks {
		least = min(least, c.offset+c.perByte*float64(c.bound+1))
	}
	return least
}

// String writes the table back in SimGrid's syntax (ascending bounds).
func (t Table) String() string {
	if t.hasConstant {
		return strconv.FormatFloat(t.constant, 'g', -1, 64)
	}
	parts := make([]string, len(t.chunks))
	for i, c := range t.chunks {
		parts[i] = strconv.Itoa(c.bound) + ":" + strconv.FormatFloat(c.offset, 'g', -1, 64)
		if c.perByte != 0 {
			parts[i] += ":" + strconv.FormatFloat(c.perByte, 'g', -1, 64)
		}
	}
	return strings.Join(parts, ";")
}

// ParseTable reads a factor or overhead table: either one number (a
// constant), or chunks "bound:value[:perbyte]" separated by ';' in any
// order. Bounds are non-negative integer byte counts; values are finite,
// non-negative numbers. An empty string gives the zero Table. Errors name the
// offending chunk; the caller adds the file and key.
func ParseTable(s string) (Table, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Table{}, nil
	}
	if !strings.ContainsAny(s, ":;") {
		v, err := parseValue(s)
		if err != nil {
			return Table{}, err
		}
		return ConstTable(v), nil
	}
	var t Table
	seen := map[int]bool{}
	for i, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue // SimGrid tolerates a trailing ';'
		}
		fields := strings.Split(part, ":")
		if len(fields) < 2 || len(fields) > 3 {
			return Table{}, fmt.Errorf("chunk %d %q: want bound:value or bound:offset:perbyte", i+1, part)
		}
		bound, err := strconv.Atoi(strings.TrimSpace(fields[0]))
		if err != nil || bound < 0 {
			return Table{}, fmt.Errorf("chunk %d %q: bound %q is not a non-negative integer", i+1, part, fields[0])
		}
		if seen[bound] {
			return Table{}, fmt.Errorf("chunk %d %q: bound %d given twice", i+1, part, bound)
		}
		seen[bound] = true
		c := chunk{bound: bound}
		if c.offset, err = parseValue(fields[1]); err != nil {
			return Table{}, fmt.Errorf("chunk %d %q: %v", i+1, part, err)
		}
		if len(fields) == 3 {
			if c.perByte, err = parseValue(fields[2]); err != nil {
				return Table{}, fmt.Errorf("chunk %d %q: %v", i+1, part, err)
			}
		}
		t.chunks = append(t.chunks, c)
	}
	if len(t.chunks) == 0 {
		return Table{}, fmt.Errorf("table %q has no chunk", s)
	}
	sort.Slice(t.chunks, func(a, b int) bool { return t.chunks[a].bound < t.chunks[b].bound })
	return t, nil
}

func parseValue(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0, fmt.Errorf("value %q is not a finite non-negative number", s)
	}
	return v, nil
}

// MustParseTable is ParseTable for tables written in the program (the SMPI
// defaults); it panics on error.
func MustParseTable(s string) Table {
	t, err := ParseTable(s)
	if err != nil {
		panic("ranks: " + err.Error())
	}
	return t
}

// tableMemo is one of a World's tables' last two lookups: a message reads
// its send or receive overhead and its latency and bandwidth factors, most
// of them for one of two sizes (HPL's pivot search sends one size over and
// over, its row swaps another between them), where Value scans the chunks.
// A World's tables are fixed for its run, and a World runs on one
// goroutine at a time, so the memo answers what Value would.
type tableMemo struct {
	key   [2]int // the sizes looked up, the latest first, as memoKey: 0 for none
	value [2]float64
}

// lookup is t.Value(size, def) for a t and a def that are the same at
// every call on m.
func (m *tableMemo) lookup(t *Table, size int, def float64) float64 {
	if m.key[0] == size^math.MinInt { // memoKey(size), written out: lookup then inlines
		return m.value[0]
	}
	return m.older(t, size, def)
}

// older is lookup past the latest size: the other size remembered, which
// becomes the latest, or Value, remembered as the latest. Out of line, so
// that lookup inlines.
//
//go:noinline
func (m *tableMemo) older(t *Table, size int, def float64) float64 {
	v := m.value[1]
	if m.key[1] != memoKey(size) {
		v = t.Value(size, def)
	}
	m.key[1], m.value[1] = m.key[0], m.value[0]
	m.key[0], m.value[0] = memoKey(size), v
	return v
}

// memoKey is size's key in a tableMemo: its sign bit flipped, so that the
// zero key, an empty entry's, is no size's (but −2⁶³ bytes').
func memoKey(size int) int { return size ^ math.MinInt }
