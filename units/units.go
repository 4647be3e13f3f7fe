package units

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Units as SimGrid reads them in platform files (shared/reference/smpi-model.md §4.1)
// and as scenario files write them. Every parser returns the core's unit: bytes,
// seconds, bytes per second.

// unitTable maps a unit suffix to its factor into the core's unit. A factor is kept
// as mul/div so that "50us" is 50/1e6, the float nearest 5e-5, and not 50·1e-6.
type unitTable map[string]factor

type factor struct{ mul, div float64 }

// decimal and binary prefixes; SimGrid writes kilo as "k", we also take "K".
var (
	decimalPrefixes = []struct {
		p string
		m float64
	}{{"", 1}, {"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18}}
	binaryPrefixes = []struct {
		p string
		m float64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40}, {"Pi", 1 << 50}, {"Ei", 1 << 60}}
)

// prefixed builds the table of every prefix in front of base, divided by scale.
func prefixed(base string, scale float64) unitTable {
	t := unitTable{}
	for _, d := range decimalPrefixes {
		t[d.p+base] = factor{d.m, scale}
	}
	for _, b := range binaryPrefixes {
		t[b.p+base] = factor{b.m, scale}
	}
	return t
}

func merge(tables ...unitTable) unitTable {
	out := unitTable{}
	for _, t := range tables {
		for k, v := range t {
			out[k] = v
		}
	}
	return out
}

var (
	// sizeUnits: B with decimal (KB = 1000 B) or binary (KiB = 1024 B) prefixes.
	sizeUnits = prefixed("B", 1)
	// timeUnits: SimGrid's list, plus "µs" (micro sign, as emu prints it, or Greek mu)
	// and "sec".
	timeUnits = unitTable{"s": {1, 1}, "sec": {1, 1}, "ms": {1, 1e3}, "us": {1, 1e6}, "µs": {1, 1e6}, "\u03bcs": {1, 1e6},
		"ns": {1, 1e9}, "ps": {1, 1e12}, "m": {60, 1}, "min": {60, 1}, "h": {3600, 1}, "d": {86400, 1}, "w": {7 * 86400, 1}}
	// bandwidthUnits: bytes per second ("Bps", "B/s") or bits per second ("bps", "b/s", 8 bits a byte).
	bandwidthUnits = merge(prefixed("Bps", 1), prefixed("B/s", 1), prefixed("bps", 8), prefixed("b/s", 8))
	// speedUnits: flop/s, SimGrid's "f" or "flops", and its long forms
	// ("kiloflops" ... "exaflops", xbt_parse_units.cpp).
	speedUnits = merge(prefixed("f", 1), prefixed("flops", 1), unitTable{
		"kiloflops": {1e3, 1}, "megaflops": {1e6, 1}, "gigaflops": {1e9, 1},
		"teraflops": {1e12, 1}, "petaflops": {1e15, 1}, "exaflops": {1e18, 1},
	})
)

// sortedSuffixes lists a table's units longest first, so "ms" is tried before "s"
// and "Mbps" before "bps" (sorted again by name so the order is fixed).
func (t unitTable) sortedSuffixes() []string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	return keys
}

var (
	sizeSuffixes      = sizeUnits.sortedSuffixes()
	timeSuffixes      = timeUnits.sortedSuffixes()
	bandwidthSuffixes = bandwidthUnits.sortedSuffixes()
	speedSuffixes     = speedUnits.sortedSuffixes()
)

// parseQuantity reads "<number><unit>" against the table. A value without a unit is
// taken in the base unit when bareOK, and refused otherwise. The number must be finite.
func parseQuantity(s string, t unitTable, suffixes []string, what string, bareOK bool) (float64, error) {
	return parseScaled(s, t, suffixes, what, bareOK, false)
}

// parseScaled is parseQuantity; with simgrid, the number is scaled as SimGrid's
// xbt_parse_units.cpp scales it: times the unit's factor as one float (1e-6 for
// "us"), not times mul and over div.
func parseScaled(s string, t unitTable, suffixes []string, what string, bareOK, simgrid bool) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("empty %s", what)
	}
	for _, suf := range suffixes {
		if suf == "" || !strings.HasSuffix(s, suf) {
			continue
		}
		num := strings.TrimSpace(strings.TrimSuffix(s, suf))
		v, err := parseNumber(num)
		if err != nil {
			continue // the suffix is the tail of another word, as "s" in "1xs"
		}
		if f := t[suf]; simgrid {
			v *= f.mul / f.div
		} else {
			v = v * f.mul / f.div
		}
		if math.IsInf(v, 0) {
			return 0, fmt.Errorf("%s %q is out of range", what, s)
		}
		return v, nil
	}
	v, err := parseNumber(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a %s (a number and a unit, e.g. %s)", s, what, example(what))
	}
	if !bareOK {
		return 0, fmt.Errorf("%s %q has no unit (e.g. %s)", what, s, example(what))
	}
	return v, nil
}

// parseNumber accepts decimal floats only: no hex, no Inf or NaN, no underscores.
func parseNumber(s string) (float64, error) {
	if s == "" || strings.ContainsAny(s, "xXpP_") {
		return 0, fmt.Errorf("not a number")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("not a number")
	}
	return v, nil
}

func example(what string) string {
	switch what {
	case "size":
		return `"64KiB"`
	case "time":
		return `"1us"`
	case "bandwidth":
		return `"10Gbps" or "1.25GBps"`
	}
	return `"1Gf"`
}

// ParseSize reads a size in bytes: "64KiB", "1MB", "8B" or a bare number of bytes.
// Negative sizes are refused.
func ParseSize(s string) (float64, error) {
	v, err := parseQuantity(s, sizeUnits, sizeSuffixes, "size", true)
	if err == nil && v < 0 {
		err = fmt.Errorf("size %q is negative", s)
	}
	return v, err
}

// ParseTime reads a duration in seconds: "1us", "0.5ms", "2s" or a bare number of
// seconds (as SimGrid does). Negative durations are refused.
func ParseTime(s string) (float64, error) { return parseTime(s, false) }

func parseTime(s string, simgrid bool) (float64, error) {
	v, err := parseScaled(s, timeUnits, timeSuffixes, "time", true, simgrid)
	if err == nil && v < 0 {
		err = fmt.Errorf("time %q is negative", s)
	}
	if err == nil && v > maxTime {
		err = fmt.Errorf("time %q is beyond %gs: the simulated clock would lose the microseconds MPI costs are made of", s, maxTime)
	}
	return v, err
}

// ParseUnitTime is ParseTime for a SimGrid platform file's latencies: a value
// other than 0 must carry its unit. SimGrid reads a bare number as seconds and
// warns that it is deprecated; a bare "1" meant as a microsecond ran a
// million times slower without a word, so emu refuses it, as it refuses a
// bandwidth without its unit.
//
// The number is scaled as SimGrid 3.32 scales it (xbt_parse_get_time: the
// number times 1e-9 for "ns"), so that a latency is SimGrid's to the last
// bit: "115ns" is 115 × 1e-9 = 1.1500000000000001e-07 here, where ParseTime
// gives 1.15e-07. A route's latency is a flow's sharing penalty, and one bit
// of it decided whether a flow's bound or its share of a link came first in
// SimGrid's solve (docs/evidence/replay46.md).
func ParseUnitTime(s string) (float64, error) {
	if v, err := parseNumber(strings.TrimSpace(s)); err == nil && v != 0 {
		return 0, fmt.Errorf("time %q has no unit (e.g. %s; SimGrid would read seconds)", s, example("time"))
	}
	return parseTime(s, true)
}

// maxTime bounds every duration a scenario gives (31 years). The clock is a
// float64: past about 1e10 s an Iprobe's microsecond no longer moves it, and a
// polling rank would spin forever at one instant.
const maxTime = 1e9

// ParseBandwidth reads a bandwidth in bytes per second: "10GBps", "100Gbps",
// "1.25GB/s", "1GiBps". A bandwidth must carry its unit (bytes or bits are too easily
// confused) and be positive.
func ParseBandwidth(s string) (float64, error) {
	v, err := parseQuantity(s, bandwidthUnits, bandwidthSuffixes, "bandwidth", false)
	if err == nil && v <= 0 {
		err = fmt.Errorf("bandwidth %q must be positive", s)
	}
	if err == nil && v < minBandwidth {
		err = fmt.Errorf("bandwidth %q is below %g B/s: a byte would take longer than the clock's %gs", s, minBandwidth, maxTime)
	}
	return v, err
}

// minBandwidth bounds a bandwidth from below as maxTime bounds a time: a
// byte in at most maxTime. Below it a message's time and its sharing
// penalty (SMPI's weight-S over the bandwidth) overflow to +Inf, which a
// flow cannot take.
const minBandwidth = 1 / maxTime

// ParseSpeed reads a host speed in flop/s: "1Gf", "20kf", "1.5Gflops".
func ParseSpeed(s string) (float64, error) {
	v, err := parseQuantity(s, speedUnits, speedSuffixes, "speed", true)
	if err == nil && v <= 0 {
		err = fmt.Errorf("speed %q must be positive", s)
	}
	if err == nil && v < minSpeed {
		err = fmt.Errorf("speed %q is below %g flop/s: a flop would take longer than the clock's %gs", s, minSpeed, maxTime)
	}
	return v, err
}

// minSpeed bounds a speed from below as minBandwidth bounds a bandwidth: a
// flop in at most maxTime. 1f stays (SimGrid's users give it so that a TI
// trace's compute amounts read as seconds); 1e-300f made a compute of 5
// flops last 5e+300 s.
const minSpeed = 1 / maxTime
