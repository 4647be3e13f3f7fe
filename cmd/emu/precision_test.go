package main

import (
	"os"
	"strings"
	"testing"
)

// TestRunPrecision: --precision doubles the panels emulated from 8 until the
// stated error bar is within the request, then runs with that many; a request
// only a whole run meets runs whole.
func TestRunPrecision(t *testing.T) {
	// N = 8000, NB = 64: 125 panels. 20% is met by a sample; 0.01% is not
	// before 64 panels, after which the next try (128) would cover the run.
	code, _, stderr := runCLI(t, "run", "--precision", "20%", "--set", "hpl.n=8000")
	if code != exitOK || !strings.Contains(stderr, "emu: --precision 20%: 8 panels") || !strings.Contains(stderr, "Time extrapolated from") {
		t.Errorf("20%%: exit %d, stderr %q", code, stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if strings.Contains(line, "Time extrapolated") && !strings.HasSuffix(line, "%)") {
			t.Errorf("no error stated: %q", line)
		}
	}
	code, _, stderr = runCLI(t, "run", "--precision", "0.0001", "--set", "hpl.n=8000")
	if code != exitOK || !strings.Contains(stderr, "64 panels") || strings.Contains(stderr, "128 panels") || strings.Contains(stderr, "Time extrapolated") {
		t.Errorf("0.01%%: exit %d, stderr %q", code, stderr)
	}

	// A run that ends whole says so last: it said only the last sample's error
	// bar ("32 panels: expected error ±42%", or ±0% where 8 panels covered
	// every test), which the exact run that followed does not have.
	for _, c := range []struct {
		name, precision, n, last string
	}{
		{"not met before the whole run", "0.0001", "8000", "emu: --precision 0.01%: the next try would cover every test's panels: the run is whole, without an error bar"},
		{"8 panels are the whole run", "5%", "500", "emu: --precision 5%: 8 panels cover every test: the run is whole, without an error bar"},
	} {
		code, _, stderr := runCLI(t, "run", "--precision", c.precision, "--set", "hpl.n="+c.n)
		var last string
		for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
			if strings.HasPrefix(line, "emu: --precision") {
				last = line
			}
		}
		if code != exitOK || last != c.last {
			t.Errorf("%s: exit %d, last --precision line %q, want %q", c.name, code, last, c.last)
		}
	}
}

func TestRunPrecisionBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--precision", "0"}, "between 0 and 1"},
		{[]string{"--precision", "150%"}, "between 0 and 1"},
		{[]string{"--precision", "two"}, "between 0 and 1"},
		{[]string{"--precision", "2%", "--max-iterations", "8"}, "give one of them"},
		{[]string{"--precision", "2%", "--set", "app=pingpong"}, "not hpl"},
	} {
		code, _, stderr := runCLI(t, append([]string{"run"}, c.args...)...)
		if code != exitInput || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want status %d and one line with %q", c.args, code, stderr, exitInput, c.want)
		}
	}
	if p, err := parsePrecision("2%"); err != nil || p != 0.02 {
		t.Errorf("2%%: %v %v", p, err)
	}
}

// TestTwoDigits: error bars to two significant digits, never with an
// exponent: the dragonfly example's --max-iterations 4 said "(±1e+02%)".
func TestTwoDigits(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{101.6, "100"}, {99.6, "100"}, {42.4, "42"}, {1234, "1200"}, {9.96, "10"},
		{5.04, "5"}, {0.61, "0.61"}, {0.0123, "0.012"}, {0, "0"}, {123456789, "120000000"},
	} {
		if got := twoDigits(tc.x); got != tc.want {
			t.Errorf("twoDigits(%v) = %q, want %q", tc.x, got, tc.want)
		}
	}
}

// TestMaxIterationsInOrder: --max-iterations K is a --set of hpl.max_iterations
// where it stands, so the later of it and a --set wins, as between two --sets
// (it was applied after every --set, whatever the order).
func TestMaxIterationsInOrder(t *testing.T) {
	for _, c := range []struct {
		args   []string
		panels string
	}{
		{[]string{"--set", "hpl.max_iterations=8", "--max-iterations", "4"}, `"panels": 4`},
		{[]string{"--max-iterations", "4", "--set", "hpl.max_iterations=8"}, `"panels": 8`},
	} {
		out := t.TempDir() + "/run.json"
		args := append([]string{"run", "-q", "--set", "hpl.n=4000", "--json", out}, c.args...)
		if code, _, stderr := runCLI(t, args...); code != exitOK {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil || !strings.Contains(string(data), c.panels) {
			t.Errorf("%v: want %s in --json, err %v", c.args, c.panels, err)
		}
	}
}
