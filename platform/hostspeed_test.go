package platform

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestHostMatcher(t *testing.T) {
	cases := []struct {
		pattern string
		yes, no []string
	}{
		{"dahu-13", []string{"dahu-13"}, []string{"dahu-130", "dahu-1", "xdahu-13"}},
		{"dahu-13..16", []string{"dahu-13", "dahu-14", "dahu-16"}, []string{"dahu-12", "dahu-17", "dahu-1", "dahu-", "dahu-1x", "dahu-160"}},
		{"n1..3.site", []string{"n1.site", "n3.site"}, []string{"n4.site", "n2", "n2.other"}},
		{"dahu-1*", []string{"dahu-1", "dahu-10", "dahu-19"}, []string{"dahu-2", "dahu-21"}},
		{"h?", []string{"h1", "h9"}, []string{"h10", "h"}},
		{"h[13]", []string{"h1", "h3"}, []string{"h2"}},
	}
	for _, c := range cases {
		match, _, err := hostMatcher(c.pattern)
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		for _, h := range c.yes {
			if !match(h) {
				t.Errorf("%s does not match %s", c.pattern, h)
			}
		}
		for _, h := range c.no {
			if match(h) {
				t.Errorf("%s matches %s", c.pattern, h)
			}
		}
	}
	for _, bad := range []string{"h16..13", "h[", "h99999999999999999999..1"} {
		if _, _, err := hostMatcher(bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// spreadTol is how far the sample mean and standard deviation of SpreadFactor
// over spreadHosts hosts may be from the distribution's: four standard errors
// (the SD of a sample mean is sd/√n; of a sample SD about sd/√(2n), a bit more
// for the log-normal's heavier tail, so 4·sd/√n bounds both).
const spreadHosts = 20000

// TestSpreadFactor: the draw is reproducible from (seed, host), depends on
// nothing else, and over many hosts has mean 1 and the asked relative SD.
func TestSpreadFactor(t *testing.T) {
	if a, b := SpreadFactor(7, "dahu-3", 0.05), SpreadFactor(7, "dahu-3", 0.05); a != b {
		t.Fatalf("same seed and host: %g then %g", a, b)
	}
	if a, b := SpreadFactor(7, "dahu-3", 0.05), SpreadFactor(8, "dahu-3", 0.05); a == b {
		t.Errorf("seeds 7 and 8 drew the same factor %g", a)
	}
	if f := SpreadFactor(7, "dahu-3", 0); f != 1 {
		t.Errorf("no spread: factor %g, want 1", f)
	}
	for _, sd := range []float64{0.02, 0.05, 0.2} {
		var sum, sum2 float64
		for i := range spreadHosts {
			f := SpreadFactor(1, "node-"+strconv.Itoa(i), sd)
			if !(f > 0) {
				t.Fatalf("sd %g: factor %g of node-%d is not positive", sd, f, i)
			}
			sum += f
			sum2 += f * f
		}
		mean := sum / spreadHosts
		got := math.Sqrt(sum2/spreadHosts - mean*mean)
		tol := 4 * sd / math.Sqrt(spreadHosts)
		if math.Abs(mean-1) > tol || math.Abs(got-sd) > tol {
			t.Errorf("sd %g over %d hosts: mean %.5f, SD %.5f; want 1 and %g within %.2g", sd, spreadHosts, mean, got, sd, tol)
		}
	}
}

// FuzzHostMatcher: a pattern either is refused or matches without panicking,
// and always matches itself when it is a plain name.
func FuzzHostMatcher(f *testing.F) {
	for _, s := range []string{"dahu-13", "dahu-13..16", "h[13]", "n1..3.site", "*", "a..b", "9..1"} {
		f.Add(s, "dahu-14")
	}
	f.Fuzz(func(t *testing.T, pattern, host string) {
		match, _, err := hostMatcher(pattern)
		if err != nil {
			return
		}
		match(host)
		if !strings.ContainsAny(pattern, "*?[\\") && !hostRange.MatchString(pattern) && !match(pattern) {
			t.Fatalf("plain name %q does not match itself", pattern)
		}
	})
}
