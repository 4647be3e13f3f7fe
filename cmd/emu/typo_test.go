package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSubcommandTypo: one argument that is no file and is near the name of
// one of the command's own commands is taken for a typo of it; calibrate
// answered "emu calibrate merge2" with "--out is required" (qa57). A missing
// file far from every name is still reported as missing, where it is read.
func TestSubcommandTypo(t *testing.T) {
	dir := t.TempDir()
	merge2 := filepath.Join(dir, "merge2") // a file of that name is a scenario to read
	if err := os.WriteFile(merge2, []byte("x = \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string // stderr's first line
	}{
		{[]string{"calibrate", "merge2"}, "emu: merge2: no such file, nor a command of emu calibrate (did you mean emu calibrate merge?)"},
		{[]string{"calibrate", "mrege", "-o", filepath.Join(dir, "t.csv")}, "emu: mrege: no such file, nor a command of emu calibrate (did you mean emu calibrate merge?)"},
		{[]string{"tune", "colect"}, "emu: colect: no such file, nor a command of emu tune (did you mean emu tune collect?)"},
		{[]string{"calibrate", "scenario.toml", "-o", filepath.Join(dir, "u.csv")}, "emu: scenario.toml: no such file or directory"},
		{[]string{"calibrate", merge2, "-o", filepath.Join(dir, "v.csv")}, "emu: " + merge2 + ":1"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != exitInput || !strings.HasPrefix(errOut, c.want) {
			t.Errorf("emu %s: exit %d, stderr %q; want 2 and %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
	}
}
