package main

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestIntegerFlagsAreDecimal: every integer flag of every subcommand takes
// decimal only. pflag read Go's forms, so --seeds 0x10 ran 16 seeds and
// --seeds 010 ran 8 (octal); now a hex, octal, binary or underscored value
// is one line naming the flag, exit 2, and a leading zero is a decimal digit.
func TestIntegerFlagsAreDecimal(t *testing.T) {
	// Every single-integer flag of the tree, found by walking it, so that a
	// flag added later is covered without a row of its own.
	var flags [][]string // command path, then the flag's name
	unsigned := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if intTypes[f.Value.Type()] {
				path := strings.Fields(strings.TrimPrefix(c.CommandPath(), "emu"))
				flags = append(flags, append(path, "--"+f.Name))
				unsigned[strings.Join(flags[len(flags)-1], " ")] = strings.HasPrefix(f.Value.Type(), "uint")
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot(io.Discard, io.Discard))
	seen := map[string]bool{}
	for _, f := range flags {
		seen[strings.Join(f, " ")] = true
	}
	for _, must := range []string{"run --seeds", "run --perturb", "run --jobs", "run --max-iterations", "tune --budget", "tune --seed",
		"tune --jobs", "calibrate --samples", "fit --seed", "analyze --S", "analyze --points", "sensitivity --verify", "tune task --task"} {
		if !seen[must] {
			t.Errorf("the walk did not find %q among the integer flags %v", must, flags)
		}
	}
	for _, f := range flags {
		for _, v := range []string{"0x10", "0X10", "0o17", "0b101", "1_000", "-0x1"} {
			args := append(append([]string{}, f...), v)
			code, _, stderr := runCLI(t, args...)
			want := "emu: " + f[len(f)-1] + ` "` + v + `": want a decimal integer` + "\n"
			if strings.HasPrefix(v, "-") && unsigned[strings.Join(f, " ")] {
				want = "emu: " + f[len(f)-1] + ` "` + v + `": want an integer ≥ 0` + "\n" // no sign in any form
			}
			if code != exitInput || stderr != want {
				t.Errorf("emu %s: exit %d, %q; want 2, %q", strings.Join(args, " "), code, stderr, want)
			}
		}
	}
	// Flags of their own type, and what decimal still takes.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--np", "0x4"}, `emu: --np "0x4": want a decimal integer` + "\n"},
		{[]string{"run", "--np", "1_0"}, `emu: --np "1_0": want a decimal integer` + "\n"},
		{[]string{"run", "--max-iterations", "0x2"}, `emu: --max-iterations "0x2": want a decimal integer` + "\n"},
		{[]string{"run", "--seeds", "0x99999999999999999999"}, `emu: --seeds "0x99999999999999999999": want a decimal integer` + "\n"},
		{[]string{"run", "--seeds", "99999999999999999999"}, `emu: --seeds "99999999999999999999": want an integer in range` + "\n"},
		{[]string{"run", "--seeds", "0x"}, `emu: --seeds "0x": want an integer` + "\n"},
		{[]string{"tune", "--seed", "-1"}, `emu: --seed "-1": want an integer ≥ 0` + "\n"},
	} {
		code, _, stderr := runCLI(t, c.args...)
		if code != exitInput || stderr != c.want {
			t.Errorf("emu %s: exit %d, %q; want 2, %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}

// TestParseDecimal: the value handed on is the decimal reading, a leading
// zero a digit (pflag read 010 as octal 8) and a sign allowed.
func TestParseDecimal(t *testing.T) {
	for _, c := range []struct {
		v      string
		signed bool
		want   string
		bad    bool
	}{
		{"010", true, "10", false},
		{"+3", true, "3", false},
		{"-7", true, "-7", false},
		{"007", false, "7", false},
		{"0x10", true, "", true},
		{"0x10", false, "", true},
		{"1_0", false, "", true},
		{"-1", false, "", true},
		{"abc", true, "", true},
	} {
		got, err := parseDecimal("f", c.v, c.signed)
		if got != c.want || (err != nil) != c.bad {
			t.Errorf("parseDecimal(%q, signed %v) = %q, %v; want %q, error %v", c.v, c.signed, got, err, c.want, c.bad)
		}
	}
}
