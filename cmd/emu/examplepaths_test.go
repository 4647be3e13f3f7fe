package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestHelpExamplesNameFilesThatExist checks every command's --help examples
// (also docs/cli.md's): a file they name under examples/ is one the repository
// ships, so a newcomer who copies the line gets a run, not "no such file".
// sensitivity's --delay example named examples/hpl.toml, which never existed
// (qa57).
func TestHelpExamplesNameFilesThatExist(t *testing.T) {
	var walk func(c *cobra.Command)
	checked := 0
	walk = func(c *cobra.Command) {
		for _, line := range strings.Split(c.Example, "\n") {
			for _, tok := range strings.Fields(line) {
				if !strings.HasPrefix(tok, "examples/") {
					continue
				}
				checked++
				if _, err := os.Stat(filepath.Join("..", "..", tok)); err != nil {
					t.Errorf("emu %s --help: example %q names %s, which the repository does not have", c.Name(), strings.TrimSpace(line), tok)
				}
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRoot(io.Discard, io.Discard))
	if checked == 0 {
		t.Fatal("no example names a file under examples/: the test checks nothing")
	}
}
