package units

import (
	"math"
	"strings"
	"testing"
)

// relTol is the relative tolerance of unit conversions (dimensionless): products of
// a decimal literal and a power of ten may differ from the literal in the last bit.
const relTol = 1e-12

func close(a, b float64) bool { return math.Abs(a-b) <= relTol*math.Max(math.Abs(a), math.Abs(b)) }

func TestParseUnits(t *testing.T) {
	tests := []struct {
		parse func(string) (float64, error)
		in    string
		want  float64
	}{
		// sizes: decimal prefixes are powers of 1000, binary ones of 1024.
		{ParseSize, "64KiB", 65536},
		{ParseSize, "1KB", 1000},
		{ParseSize, "1kB", 1000},
		{ParseSize, "1MiB", 1 << 20},
		{ParseSize, "2GB", 2e9},
		{ParseSize, "1GiB", 1 << 30},
		{ParseSize, "8B", 8},
		{ParseSize, "8", 8},
		{ParseSize, " 1.5 MiB ", 1.5 * (1 << 20)},
		// times: SimGrid's units (smpi-model.md §4.1).
		{ParseTime, "1us", 1e-6},
		{ParseTime, "1µs", 1e-6},
		{ParseTime, "2\u03bcs", 2e-6}, // Greek mu, which keyboards type for the micro sign
		{ParseTime, "0.5ms", 5e-4},
		{ParseTime, "3ns", 3e-9},
		{ParseTime, "7ps", 7e-12},
		{ParseTime, "2s", 2},
		{ParseTime, "2m", 120},
		{ParseTime, "1h", 3600},
		{ParseTime, "1e-4", 1e-4},
		{ParseTime, "0s", 0},
		// bandwidths: Bps bytes/s, bps bits/s = 1/8 byte/s.
		{ParseBandwidth, "10GBps", 1e10},
		{ParseBandwidth, "10Gbps", 1.25e9},
		{ParseBandwidth, "100Gbps", 12.5e9},
		{ParseBandwidth, "125MBps", 125e6},
		{ParseBandwidth, "1KBps", 1e3},
		{ParseBandwidth, "1kBps", 1e3},
		{ParseBandwidth, "1Kbps", 125},
		{ParseBandwidth, "1Mbps", 125e3},
		{ParseBandwidth, "1GiBps", 1 << 30},
		{ParseBandwidth, "1.25GB/s", 1.25e9},
		{ParseBandwidth, "1Bps", 1},
		{ParseBandwidth, "1EBps", 1e18},
		// the default smpirun link: 26 MiB/s (smpi-model.md §4.8).
		{ParseBandwidth, "26MiBps", 27262976},
		{ParseSpeed, "1Gf", 1e9},
		{ParseSpeed, "20kf", 2e4},
		{ParseSpeed, "1.5Gflops", 1.5e9},
		{ParseSpeed, "2gigaflops", 2e9}, // SimGrid's long forms
		{ParseSpeed, "3megaflops", 3e6},
		{ParseSpeed, "1teraflops", 1e12},
		{ParseSpeed, "1f", 1},       // SimGrid users' speed for compute amounts in seconds
		{ParseSpeed, "1e-9f", 1e-9}, // a flop in the clock's 1e9 s: the floor
	}
	for _, tt := range tests {
		got, err := tt.parse(tt.in)
		if err != nil || !close(got, tt.want) {
			t.Errorf("%q: got %g, %v; want %g", tt.in, got, err, tt.want)
		}
	}
}

func TestParseUnitsRejects(t *testing.T) {
	tests := []struct {
		parse func(string) (float64, error)
		in    string
	}{
		{ParseBandwidth, "10"},      // unit-less bandwidth
		{ParseBandwidth, "-1GBps"},  // negative
		{ParseBandwidth, "0Gbps"},   // zero
		{ParseBandwidth, "10GB"},    // a size, not a bandwidth
		{ParseBandwidth, "fastBps"}, // not a number
		{ParseBandwidth, "infBps"},
		{ParseBandwidth, "NaNGBps"},
		{ParseBandwidth, "0x10Bps"},
		{ParseBandwidth, ""},
		{ParseSize, "-1KiB"},
		{ParseSize, "1XB"},
		{ParseSize, "1Kib"},
		{ParseTime, "-1us"},
		{ParseTime, "1 fortnight"},
		{ParseTime, "1e999s"},
		{ParseTime, "1e300s"}, // finite, but the clock could no longer count microseconds
		{ParseTime, "2e9"},
		{ParseSpeed, "0f"},
		{ParseBandwidth, "1e308EBps"}, // overflows to +Inf
		{ParseBandwidth, "1e-320Bps"}, // positive, but weight-S over it is +Inf: a run panicked
		{ParseBandwidth, "5e-10Bps"},  // a byte in 2e9 s, past the clock's bound
		{ParseSpeed, "1e-300f"},       // a TI compute of 5 flops ran to a Time of 5e+300 s
		{ParseSpeed, "5e-10f"},        // a flop in 2e9 s, past the clock's bound
	}
	for _, tt := range tests {
		if got, err := tt.parse(tt.in); err == nil {
			t.Errorf("%q accepted as %g", tt.in, got)
		}
	}
}

// FuzzUnits checks that the unit parsers never panic and never return a value that
// the core cannot use (NaN, infinite, negative; a bandwidth at or near 0, whose
// weight-S penalty, 1e4 over it, overflows).
func FuzzUnits(f *testing.F) {
	for _, s := range []string{"64KiB", "1us", "10Gbps", "1.25GB/s", "-1", "1e308GBps", "", "µs", "1Eibps", "5.5e-3ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, parse := range map[string]func(string) (float64, error){"size": ParseSize, "time": ParseTime, "bandwidth": ParseBandwidth, "speed": ParseSpeed} {
			v, err := parse(s)
			if err != nil {
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("%s %q: error on several lines: %q", name, s, err)
				}
				continue
			}
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || (name == "bandwidth" && (v < minBandwidth || math.IsInf(1e4/v, 0))) || (name == "speed" && v < minSpeed) {
				t.Errorf("%s %q parsed to unusable %g", name, s, v)
			}
		}
	})
}

// TestPlatformTimeIsSimGrids checks that a platform file's latency is
// SimGrid 3.32's float to the bit, not the float nearest the decimal: the
// wants are what SimGrid printed (%.17g) for these latencies of
// validation's smpifuzz platforms and platform/testdata/sgroutes, where
// 115ns is 115 × 1e-9. A scenario's times keep the nearest float.
func TestPlatformTimeIsSimGrids(t *testing.T) {
	tests := []struct {
		in         string
		sg, nearer float64
	}{
		{"115ns", 1.1500000000000001e-07, 1.15e-07},
		{"50us", 4.9999999999999996e-05, 5e-05},
		{"6.25e+06ps", 6.2499999999999995e-06, 6.25e-06},
		{"0.0516us", 5.1599999999999999e-08, 5.16e-08},
		{"10000ps", 1e-08, 1e-08},
		{"2.8e-05s", 2.8e-05, 2.8e-05},
		{"1m", 60, 60},
	}
	for _, tc := range tests {
		got, err := ParseUnitTime(tc.in)
		if err != nil || got != tc.sg {
			t.Errorf("ParseUnitTime(%q) = %.17g, %v; want SimGrid's %.17g", tc.in, got, err, tc.sg)
		}
		if got, err := ParseTime(tc.in); err != nil || got != tc.nearer {
			t.Errorf("ParseTime(%q) = %.17g, %v; want %.17g", tc.in, got, err, tc.nearer)
		}
	}
}
