package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Typed TOML values. Each remembers whether the file (or a --set) gave it, so that
// defaults can come from elsewhere (a network preset, HPL.dat, an XML platform), and
// each parses its units while the file is decoded, so a bad value is reported with
// the line BurntSushi/toml knows for it.

// Size is a byte count: "64KiB", "1MB" or an integer number of bytes.
type Size struct {
	Bytes float64
	Set   bool
}

// Time is a duration: "1us", "0.5ms" or a number of seconds.
type Time struct {
	Seconds float64
	Set     bool
}

// Bandwidth is a rate: "10Gbps", "1.25GBps"; a bare number is refused.
type Bandwidth struct {
	BytesPerSecond float64
	Set            bool
}

// UnmarshalTOML implements toml.Unmarshaler.
func (s *Size) UnmarshalTOML(v any) error {
	b, err := quantity(v, ParseSize)
	*s = Size{b, err == nil}
	return err
}

// UnmarshalTOML implements toml.Unmarshaler.
func (t *Time) UnmarshalTOML(v any) error {
	s, err := quantity(v, ParseTime)
	*t = Time{s, err == nil}
	return err
}

// UnmarshalTOML implements toml.Unmarshaler.
func (b *Bandwidth) UnmarshalTOML(v any) error {
	if _, isString := v.(string); !isString {
		return fmt.Errorf("bandwidth %v has no unit (write e.g. \"10Gbps\" or \"1.25GBps\")", v)
	}
	r, err := quantity(v, ParseBandwidth)
	*b = Bandwidth{r, err == nil}
	return err
}

// quantity reads a TOML string through parse, or takes a TOML number as it is
// (validated by parse, so negative numbers are refused the same way).
func quantity(v any, parse func(string) (float64, error)) (float64, error) {
	switch x := v.(type) {
	case string:
		return parse(x)
	case int64:
		return parse(strconv.FormatInt(x, 10))
	case float64:
		return parse(strconv.FormatFloat(x, 'g', -1, 64))
	}
	return 0, fmt.Errorf("want a number or a string with a unit, got %s", Kind(v))
}

// IntList is one integer or a list of them (HPL's lists: n = 1000 or n = [1000, 2000]).
type IntList []int

// UnmarshalTOML implements toml.Unmarshaler.
func (l *IntList) UnmarshalTOML(v any) error {
	out, err := listOf(v, "an integer or a list of integers", func(x any) (int, bool) {
		n, ok := x.(int64)
		return int(n), ok
	})
	if err != nil {
		return err
	}
	*l = out
	return nil
}

// NameList is one name or a list of names (bcast = "1ringM" or ["1ring", "long"]);
// an integer is taken as HPL.dat's code for the name (bcast = [1, 4]).
type NameList []string

// UnmarshalTOML implements toml.Unmarshaler.
func (l *NameList) UnmarshalTOML(v any) error {
	out, err := listOf(v, "a name or a list of names", wordOf)
	if err != nil {
		return err
	}
	*l = out
	return nil
}

// Word is one name, or an integer taken as HPL.dat's code for it (swap = 1).
type Word string

// UnmarshalTOML implements toml.Unmarshaler.
func (w *Word) UnmarshalTOML(v any) error {
	s, ok := wordOf(v)
	if _, list := v.([]any); list {
		// hpl.swap, pmap, l1 and u: HPL.dat gives each one line of one value
		return fmt.Errorf("want one name, not a list (HPL.dat has one value for this key; emu tune --sweep tries several), got %s", shown(v))
	}
	if !ok {
		return fmt.Errorf("want a name, got %s", valueWord(v))
	}
	*w = Word(s)
	return nil
}

// wordOf reads a string, or an integer as its decimal text.
func wordOf(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case int64:
		return strconv.FormatInt(x, 10), true
	}
	return "", false
}

// Toggle is true or false, or HPL.dat's 1 or 0 (equilibration = 1), or the
// yes and no of HPL's echo ("EQUIL  : yes") and HPL.dat's comment
// ("Equilibration (0=no,1=yes)"), in any case.
type Toggle struct{ On, Set bool }

// UnmarshalTOML implements toml.Unmarshaler.
func (t *Toggle) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case bool:
		*t = Toggle{On: x, Set: true}
		return nil
	case int64:
		if x == 0 || x == 1 {
			*t = Toggle{On: x == 1, Set: true}
			return nil
		}
	case string:
		if yes, no := strings.EqualFold(x, "yes"), strings.EqualFold(x, "no"); yes || no {
			*t = Toggle{On: yes, Set: true}
			return nil
		}
	}
	return fmt.Errorf("want true or false (or 1, 0, yes, no), got %s", shown(v))
}

// listOf reads TOML's one value or list of values (n = 1000 or n = [1000,
// 2000]) as a non-empty list, converting each element with one; want says
// what the key accepts, for the error on an element one refuses.
func listOf[T any](v any, want string, one func(any) (T, bool)) ([]T, error) {
	items, isList := v.([]any)
	if !isList {
		items = []any{v}
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("empty list")
	}
	out := make([]T, len(items))
	for i, it := range items {
		x, ok := one(it)
		if !ok {
			return nil, fmt.Errorf("want %s, got %s", want, valueWord(it))
		}
		out[i] = x
	}
	return out, nil
}

// shown writes a decoded TOML value for an error: a string quoted, so that
// n = "1000" reads got "1000", not got 1000, which looks like what was wanted.
func shown(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

// Kind writes a decoded TOML value of the wrong kind for an error in the
// scenario's words: Go's type names (bool, []interface {}, time.Time) mean
// nothing to whoever wrote the file; a string or number is shown as written.
func Kind(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date"
	}
	return shown(v)
}

// valueWord is Kind, with a float named as one: "want an integer, got 300"
// (hpl.n = 3e2, hpl.nb = 64.0) read as if 300 were what was wanted, and a
// table printed Go's map[x:5] (--set hpl.n.x=5).
func valueWord(v any) string {
	switch x := v.(type) {
	case float64:
		return "the float " + strconv.FormatFloat(x, 'g', -1, 64)
	case map[string]any, time.Time:
		return Kind(v)
	}
	return shown(v)
}

// GridList is a list of P×Q process grids: [[2, 2], [1, 4]], or "2x2", or ["2x2", "1x4"].
type GridList [][2]int

// UnmarshalTOML implements toml.Unmarshaler.
func (g *GridList) UnmarshalTOML(v any) error {
	items, isList := v.([]any)
	if !isList {
		items = []any{v}
	}
	// [p, q] alone is one grid.
	if len(items) == 2 {
		if p, ok := items[0].(int64); ok {
			if q, ok := items[1].(int64); ok {
				*g = GridList{{int(p), int(q)}}
				return nil
			}
		}
	}
	if len(items) == 0 {
		return fmt.Errorf("empty list of grids")
	}
	out := make(GridList, len(items))
	for i, it := range items {
		switch x := it.(type) {
		case string:
			ps, qs, ok := strings.Cut(strings.ReplaceAll(strings.ToLower(x), "×", "x"), "x")
			p, err1 := strconv.Atoi(strings.TrimSpace(ps))
			q, err2 := strconv.Atoi(strings.TrimSpace(qs))
			if !ok || err1 != nil || err2 != nil {
				return fmt.Errorf("grid %q: want \"PxQ\", e.g. \"2x4\"", x)
			}
			out[i] = [2]int{p, q}
		case []any:
			if len(x) != 2 {
				return fmt.Errorf("grid %v: want [P, Q]", x)
			}
			p, ok1 := x[0].(int64)
			q, ok2 := x[1].(int64)
			if !ok1 || !ok2 {
				return fmt.Errorf("grid %v: want two integers [P, Q]", x)
			}
			out[i] = [2]int{int(p), int(q)}
		case int64:
			// --set hpl.grids=0x2 is TOML's hexadecimal 2, and said "grid 2".
			return fmt.Errorf("grid %d: a number, want [P, Q] or \"PxQ\" (TOML reads 0x… as a hexadecimal number: quote the grid, and P must be ≥ 1)", x)
		default:
			return fmt.Errorf("want each grid as [P, Q] or \"PxQ\", got %s", valueWord(it))
		}
	}
	*g = out
	return nil
}

// Seed is the run's seed: a non-negative integer (TOML integers are signed, and a
// negative seed silently wrapping to a huge one would hide a typo).
type Seed uint64

// UnmarshalTOML implements toml.Unmarshaler.
func (s *Seed) UnmarshalTOML(v any) error {
	n, ok := v.(int64)
	if !ok {
		if x, isFloat := v.(float64); isFloat { // seed = 1e3 or 1000.0: TOML's float
			return fmt.Errorf("want an integer from 0 to %d, got the float %s", int64(math.MaxInt64), strconv.FormatFloat(x, 'g', -1, 64))
		}
		return fmt.Errorf("want an integer from 0 to %d, got %s", int64(math.MaxInt64), Kind(v))
	}
	if n < 0 {
		return fmt.Errorf("seed %d: want an integer from 0 to %d", n, int64(math.MaxInt64))
	}
	*s = Seed(n)
	return nil
}
