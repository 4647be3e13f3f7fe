package tune

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// Axis is one swept scenario key and the values it takes, in the order given.
type Axis struct {
	Key    string   // dotted scenario key, e.g. "hpl.nb"
	Values []string // TOML literals, e.g. "128", "\"2ring\"", "[[8, 8]]"
}

// Point is one combination of axis values, as `--set` overrides in axis order.
type Point struct {
	Index     int        // position in the full cross product
	Overrides []Override // one per axis
}

// Override is one `key=value` assignment; Value is a TOML literal.
type Override struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ID names a point by its overrides alone, so results survive a reordering of axes or
// a change of budget between runs.
func (p Point) ID() string {
	parts := make([]string, len(p.Overrides))
	for i, o := range p.Overrides {
		parts[i] = o.Key + "=" + o.Value
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// Label is the short human form used in tables: the swept values in axis order,
// each key cut to its last part, or to as many last parts as tell it from the
// point's other keys (jobs.0.start and jobs.1.start, kernels.dgemm.intercept and
// kernels.dtrsm.intercept, platform.link_latency and network.link_latency), a
// list index kept with the part before it.
func (p Point) Label() string {
	keys := make([][]string, len(p.Overrides))
	for i, o := range p.Overrides {
		keys[i] = keyParts(o.Key)
	}
	parts := make([]string, len(p.Overrides))
	for i, o := range p.Overrides {
		parts[i] = shortKey(keys, i) + "=" + strings.Trim(o.Value, `"`)
	}
	return strings.Join(parts, " ")
}

// Settings is the point as its --set overrides, full keys and TOML values in
// axis order: what error messages name, since Label's short keys would not
// say which of two keys ending alike (or a key that does not exist) is meant.
func (p Point) Settings() string {
	parts := make([]string, len(p.Overrides))
	for i, o := range p.Overrides {
		parts[i] = o.Key + "=" + o.Value
	}
	return strings.Join(parts, " ")
}

// shortKey is keys[i]'s fewest last parts that no other key of keys ends with,
// extended past a list index (jobs.0.start, not 0.start).
func shortKey(keys [][]string, i int) string {
	k := keys[i]
	n := 1
	for ; n < len(k); n++ {
		if isIndex(k[len(k)-n]) {
			continue
		}
		clash := false
		for j, o := range keys {
			if j != i && len(o) >= n && strings.Join(o[len(o)-n:], ".") == strings.Join(k[len(k)-n:], ".") {
				clash = true
				break
			}
		}
		if !clash {
			break
		}
	}
	return strings.Join(k[len(k)-n:], ".")
}

func isIndex(part string) bool {
	if part == "" {
		return false
	}
	for _, c := range part {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// keyParts splits a dotted key at the dots outside quotes: a quoted part
// (kernels.host_speed."dahu-13..16", or 'dahu-5/cpu0') is kept whole, quotes
// and dots.
func keyParts(k string) []string {
	var parts []string
	start := 0
	var quote rune
	for i, c := range k {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '.':
			parts = append(parts, k[start:i])
			start = i + 1
		}
	}
	return append(parts, k[start:])
}

// aliases map the short names users type to scenario keys, with the value sets that
// "all" expands to. Keys not listed here are taken as dotted scenario keys.
var aliases = map[string]struct {
	key string
	all []string
}{
	"n":        {key: "hpl.n"},
	"nb":       {key: "hpl.nb"},
	"grid":     {key: "hpl.grids"},
	"grids":    {key: "hpl.grids"},
	"depth":    {key: "hpl.depth", all: []string{"0", "1"}},
	"bcast":    {key: "hpl.bcast", all: []string{"1ring", "1ringM", "2ring", "2ringM", "long", "longM"}},
	"pfact":    {key: "hpl.pfact", all: []string{"left", "crout", "right"}},
	"rfact":    {key: "hpl.rfact", all: []string{"left", "crout", "right"}},
	"swap":     {key: "hpl.swap", all: []string{"binary-exchange", "spread-roll", "mix"}},
	"pmap":     {key: "hpl.pmap", all: []string{"row", "column"}},
	"nbmin":    {key: "hpl.nbmin"},
	"ndiv":     {key: "hpl.ndiv"},
	"l1":       {key: "hpl.l1", all: []string{"transposed", "no-transposed"}},
	"u":        {key: "hpl.u", all: []string{"transposed", "no-transposed"}},
	"topology": {key: "platform.topology"},
	// network.link_* rather than platform.link_*: the [network] key wins over
	// the [platform] one wherever both are given (and over a <cluster>
	// file's), so a sweep of the platform key on a scenario that sets the
	// network one would run one configuration under every label.
	"latency":   {key: "network.link_latency"},
	"bandwidth": {key: "network.link_bandwidth"},
}

// ParseSweep reads one `--sweep key=v1,v2,...` specification. Values that are not
// numbers, booleans or already-quoted strings become TOML strings, so "nb=64,128" and
// "bcast=1ring,long" both do what a user means; "grid=8x8,4x16" becomes [[8, 8]] and
// [[4, 16]]; "all", alone or among other values, expands where the key has a
// known finite set of values; start..stop[..step] expands to its values
// (expandRange).
func ParseSweep(spec string) (Axis, error) {
	key, list, ok := strings.Cut(spec, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" || strings.TrimSpace(list) == "" {
		return Axis{}, fmt.Errorf("sweep %q: want key=value[,value...]", spec)
	}
	var all []string
	if a, found := aliases[strings.ToLower(key)]; found {
		key, all = a.key, a.all
	}
	if strings.ContainsAny(key, " \t=") {
		return Axis{}, fmt.Errorf("sweep %q: malformed key %q", spec, key)
	}
	// "all" is the key's whole set wherever it stands in the list ("long,all"
	// is every broadcast, duplicates dropped below), not a value of its own.
	var raw []string
	for _, v := range splitValues(list) {
		if vs, isRange, err := expandRange(v); isRange {
			if err != nil {
				return Axis{}, fmt.Errorf("sweep %q: %v", spec, err)
			}
			raw = append(raw, vs...)
			continue
		}
		if v != "all" {
			raw = append(raw, v)
			continue
		}
		if all == nil {
			return Axis{}, fmt.Errorf("sweep %q: key %s has no known set of values for \"all\"", spec, key)
		}
		raw = append(raw, all...)
	}
	ax := Axis{Key: key}
	seen := map[string]bool{}
	for _, v := range raw {
		if v == "" {
			return Axis{}, fmt.Errorf("sweep %q: empty value", spec)
		}
		lit, err := literal(key, v)
		if err != nil {
			return Axis{}, fmt.Errorf("sweep %q: %v", spec, err)
		}
		if seen[lit] {
			continue
		}
		seen[lit] = true
		ax.Values = append(ax.Values, lit)
	}
	return ax, nil
}

// splitValues splits on commas outside brackets and quotes, so list literals such as
// [[2,2],[4,1]] stay whole.
func splitValues(s string) []string {
	var out []string
	depth, start, quoted := 0, 0, false
	for i, c := range s {
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// maxRangeValues bounds the values one range expands to: a typo's range
// (1..1e9) is refused before a billion-value axis is built.
const maxRangeValues = 10000

// expandRange reads a value written start..stop or start..stop..step (step 1
// when left out), as a shell's brace expansion writes it: every start + i·step
// up to stop, stop included where a step lands on it. Each part is a number with
// an optional unit (1us..4us..1us); the step may leave the unit out. A value
// whose parts are not all numbers is no range (a path "../a.toml"): isRange is
// false and the value stands as written.
func expandRange(v string) (vals []string, isRange bool, err error) {
	parts := strings.Split(v, "..")
	if len(parts) < 2 {
		return nil, false, nil
	}
	nums := make([]string, len(parts))
	units := make([]string, len(parts))
	for i, p := range parts {
		nums[i], units[i] = splitUnit(p)
		if _, err := strconv.ParseFloat(nums[i], 64); err != nil {
			return nil, false, nil
		}
	}
	if len(parts) > 3 {
		return nil, true, fmt.Errorf("range %q: want start..stop or start..stop..step", v)
	}
	unit, step := units[0], "1"
	if len(parts) == 3 {
		step = nums[2]
	}
	if units[1] != unit || len(parts) == 3 && units[2] != "" && units[2] != unit {
		return nil, true, fmt.Errorf("range %q: start, stop and step take one unit", v)
	}
	ints := true
	for _, n := range []string{nums[0], nums[1], step} {
		if _, err := strconv.ParseInt(n, 10, 64); err != nil {
			ints = false
		}
	}
	start, _ := strconv.ParseFloat(nums[0], 64)
	stop, _ := strconv.ParseFloat(nums[1], 64)
	inc, _ := strconv.ParseFloat(step, 64)
	if !(inc > 0) || math.IsInf(inc, 0) {
		return nil, true, fmt.Errorf("range %q: want a positive step", v)
	}
	// The count, with 10⁻⁹ of a step of slack so that 0.1..0.3..0.1 keeps 0.3
	// ((0.3 − 0.1)/0.1 = 1.9999999999999998).
	count := math.Floor((stop-start)/inc+1e-9) + 1
	switch {
	case !(count >= 1):
		return nil, true, fmt.Errorf("range %q is empty: its stop is below its start", v)
	case count > maxRangeValues:
		return nil, true, fmt.Errorf("range %q has %.0f values, more than %d", v, count, maxRangeValues)
	}
	if ints {
		// Whole numbers step in int64, each value checked against stop by
		// their difference (exact as a uint64): the float count may round up
		// one step past stop, and that step past the largest int64 would wrap
		// to a negative value.
		a, _ := strconv.ParseInt(nums[0], 10, 64)
		z, _ := strconv.ParseInt(nums[1], 10, 64)
		b, _ := strconv.ParseInt(step, 10, 64)
		if z < a { // within a float's rounding of each other
			return nil, true, fmt.Errorf("range %q is empty: its stop is below its start", v)
		}
		for x := a; ; x += b {
			vals = append(vals, strconv.FormatInt(x, 10)+unit)
			if uint64(z)-uint64(x) < uint64(b) {
				return vals, true, nil
			}
		}
	}
	for i := range int(count) {
		// Twelve significant digits: the value as typed, not its float sum
		// (0.1 + 2·0.1 = 0.30000000000000004).
		r, _ := strconv.ParseFloat(strconv.FormatFloat(start+float64(i)*inc, 'g', 12, 64), 64)
		vals = append(vals, strconv.FormatFloat(r, 'g', -1, 64)+unit)
	}
	return vals, true, nil
}

// ColonRange reads a swept value written start:stop:step or start:stop, a
// range in the colon form some tools use, and returns it as this package's
// range start..stop[..step]. value is the override's TOML literal (quoted or
// not); ok is false unless it is two or three numbers (each with an optional
// unit) parted by colons. A SimGrid table such as the overheads'
// 0:1e-6:1e-9 has the same form: only the scenario knows whether a key takes
// a number or such a string, so callers offer the hint when it takes the
// start but refuses the whole.
func ColonRange(value string) (rng string, ok bool) {
	if u, err := strconv.Unquote(value); err == nil {
		value = u
	}
	parts := strings.Split(value, ":")
	if len(parts) != 2 && len(parts) != 3 {
		return "", false
	}
	for i, p := range parts {
		num, _ := splitUnit(p)
		if _, err := strconv.ParseFloat(num, 64); err != nil {
			return "", false
		}
		parts[i] = strings.TrimSpace(p)
	}
	return strings.Join(parts, ".."), true
}

// splitUnit parts a range bound such as "10GBps" into its number and its unit:
// the trailing letters (and a /), when what precedes them is a number.
func splitUnit(p string) (num, unit string) {
	p = strings.TrimSpace(p)
	i := len(p)
	for i > 0 && (p[i-1] >= 'a' && p[i-1] <= 'z' || p[i-1] >= 'A' && p[i-1] <= 'Z' || p[i-1] == '/') {
		i--
	}
	if _, err := strconv.ParseFloat(p[:i], 64); err != nil {
		return p, ""
	}
	return p[:i], p[i:]
}

func literal(key, v string) (string, error) {
	if key == "hpl.grids" {
		if strings.HasPrefix(v, "[") {
			return v, nil
		}
		ps, qs, ok := strings.Cut(strings.ReplaceAll(strings.ToLower(v), "×", "x"), "x")
		p, err1 := strconv.Atoi(ps)
		q, err2 := strconv.Atoi(qs)
		if !ok || err1 != nil || err2 != nil || p <= 0 || q <= 0 {
			return "", fmt.Errorf("grid %q: want PxQ with positive integers, e.g. 8x8", v)
		}
		return fmt.Sprintf("[[%d, %d]]", p, q), nil
	}
	if x, err := strconv.ParseFloat(v, 64); err == nil {
		return tomlNumber(v, x), nil
	}
	if v == "true" || v == "false" || strings.HasPrefix(v, "[") || strings.HasPrefix(v, `"`) {
		return v, nil
	}
	return strconv.Quote(v), nil
}

// Size is the number of points in the full cross product.
func Size(axes []Axis) int {
	n := 1
	for _, a := range axes {
		n *= len(a.Values)
	}
	return n
}

// PointAt decodes index i of the cross product in mixed radix, last axis fastest.
func PointAt(axes []Axis, i int) Point {
	p := Point{Index: i, Overrides: make([]Override, len(axes))}
	for j := len(axes) - 1; j >= 0; j-- {
		n := len(axes[j].Values)
		p.Overrides[j] = Override{Key: axes[j].Key, Value: axes[j].Values[i%n]}
		i /= n
	}
	return p
}

// Points lists the sweep: every point of the cross product when budget ≤ 0 or covers
// it, otherwise budget points drawn without replacement with the given seed (Floyd's
// algorithm, so a huge product is never materialised), in cross-product order.
func Points(axes []Axis, budget int, seed uint64) []Point {
	total := Size(axes)
	var idx []int
	if budget <= 0 || budget >= total {
		idx = make([]int, total)
		for i := range idx {
			idx[i] = i
		}
	} else {
		rng := rand.New(rand.NewPCG(seed, 0x7475_6e65)) // "tune"
		chosen := make(map[int]bool, budget)
		for j := total - budget; j < total; j++ {
			t := rng.IntN(j + 1)
			if chosen[t] {
				t = j
			}
			chosen[t] = true
		}
		for i := range chosen {
			idx = append(idx, i)
		}
		sort.Ints(idx)
	}
	pts := make([]Point, len(idx))
	for k, i := range idx {
		pts[k] = PointAt(axes, i)
	}
	return pts
}

// tomlNumber is v, a number Go reads as x, as a TOML literal: v itself when
// TOML reads it too, else x written out (".5" is 0.5, "064" 64, an integer
// beyond int64 a float), so that a value a user means as a number is not
// taken for a string.
func tomlNumber(v string, x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case tomlNumberForm(v) && (strings.ContainsAny(v, ".eE") || fitsInt64(v)):
		return v // an integer beyond int64 is written as the float it is
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// fitsInt64 reports whether the integer v fits in an int64, as TOML's must.
func fitsInt64(v string) bool {
	_, err := strconv.ParseInt(v, 10, 64)
	return err == nil
}

// tomlNumberForm reports whether v is written as TOML writes a decimal
// number: a sign, digits without a leading zero, then a fraction and an
// exponent, each optional.
func tomlNumberForm(v string) bool {
	if v != "" && (v[0] == '+' || v[0] == '-') {
		v = v[1:]
	}
	n := 0
	digits := func() int {
		start := n
		for n < len(v) && v[n] >= '0' && v[n] <= '9' {
			n++
		}
		return n - start
	}
	if d := digits(); d == 0 || d > 1 && v[0] == '0' {
		return false
	}
	if n < len(v) && v[n] == '.' {
		n++
		if digits() == 0 {
			return false
		}
	}
	if n < len(v) && (v[n] == 'e' || v[n] == 'E') {
		n++
		if n < len(v) && (v[n] == '+' || v[n] == '-') {
			n++
		}
		if digits() == 0 {
			return false
		}
	}
	return n == len(v)
}
