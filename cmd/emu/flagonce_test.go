package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestFlagGivenTwice: a flag that takes one value, given twice, is refused
// with one line naming it and exit 2 before anything runs (pflag kept the
// last value without a word), on every subcommand, hidden ones included; a
// flag that takes several (--set, --sweep, --product, calibrate's lists)
// stays repeatable.
func TestFlagGivenTwice(t *testing.T) {
	js := filepath.Join(t.TempDir(), "a.json") // nothing may be written; if it were, not here
	tests := []struct {
		args []string
		want string // the whole of stderr; "" for a run that must not be refused
	}{
		{[]string{"run", "--seeds", "3", "--seeds", "5"}, "emu: --seeds given twice (3, then 5): give it once\n"},
		{[]string{"run", "--seeds=3", "--json", js, "--seeds=3"}, "emu: --seeds given twice (3): give it once\n"},
		{[]string{"-q", "run", "-q"}, "emu: --quiet given twice (true): give it once\n"},
		{[]string{"run", "--np", "4", "--np", "8"}, "emu: --np given twice (4, then 8): give it once\n"},
		{[]string{"run", "--max-iterations", "2", "--max-iterations", "4"}, "emu: --max-iterations given twice (2, then 4): give it once\n"},
		{[]string{"run", "--hostfile", "a", "--hostfile", "b"}, "emu: --hostfile given twice (a, then b): give it once\n"},
		{[]string{"run", "--platform", "a.xml", "--platform", "b.xml"}, "emu: --platform given twice (a.xml, then b.xml): give it once\n"},
		{[]string{"tune", "task", "d", "--task", "1", "--task", "2"}, "emu: --task given twice (1, then 2): give it once\n"},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, tt.args...)
		if code != exitInput || out != "" || errOut != tt.want {
			t.Errorf("emu %s: exit %d, stdout %q, stderr %q; want 2, nothing, %q", strings.Join(tt.args, " "), code, out, errOut, tt.want)
		}
	}

	// The lists, named, so that repeatable cannot drift from what users type
	// (a63dd75 dropped --set from it and every guide's second --set failed).
	for _, args := range [][]string{
		{"run", "--set", "hpl.n=100", "--set", "hpl.nb=10", "--help"},
		{"tune", "--sweep", "hpl.nb=8", "--sweep", "hpl.n=64", "--help"},
		{"fit", "--product", "a=m*n", "--product", "b=m*n", "--help"},
		{"calibrate", "--nb", "64", "--nb", "128", "--help"},
	} {
		if code, _, errOut := runCLI(t, args...); code != exitOK || errOut != "" {
			t.Errorf("emu %s: exit %d, %q; want a repeatable flag taken twice", strings.Join(args, " "), code, errOut)
		}
	}

	// Every flag of every command, by its kind.
	value := map[string]string{"bool": "true", "string": "x", "int": "2", "int64": "2", "uint64": "2", "N": "2", "FILE": "x"}
	var walk func(path []string, c *cobra.Command)
	checked := 0
	walk = func(path []string, c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			v, ok := value[f.Value.Type()]
			if !ok {
				v = "1"
			}
			// --help last: the flags are parsed, nothing runs
			args := append(append([]string{}, path...), "--"+f.Name+"="+v, "--"+f.Name+"="+v, "--help")
			code, _, errOut := runCLI(t, args...)
			twice := "--" + f.Name + " given twice"
			switch {
			case repeatable(f):
				if code != exitOK || errOut != "" {
					t.Errorf("emu %s: exit %d, %q; want a repeatable flag taken twice", strings.Join(args, " "), code, errOut)
				}
			case code != exitInput || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "emu: "+twice):
				t.Errorf("emu %s: exit %d, stderr %q; want 2 and one line %q", strings.Join(args, " "), code, errOut, twice)
			}
			checked++
		})
		for _, sub := range c.Commands() {
			walk(append(append([]string{}, path...), sub.Name()), sub)
		}
	}
	walk(nil, newRoot(io.Discard, io.Discard))
	if checked < 100 {
		t.Errorf("%d flags checked; want every command's (over 100)", checked)
	}
}
