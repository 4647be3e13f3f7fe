package main

import (
	"bytes"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"

	goldenfile "github.com/emu-hpc/emu/internal/golden"
)

// cliReference is the generated command-line reference, relative to this package.
const cliReference = "../../docs/cli.md"

// TestCLIReference regenerates docs/cli.md from the command tree with cobra's doc
// package and compares it with the file, so a new command or flag cannot go
// undocumented: `go test ./cmd/emu -run TestCLIReference -update` rewrites it.
func TestCLIReference(t *testing.T) {
	goldenfile.Check(t, cliReference, cliMarkdown(t, newRoot(io.Discard, io.Discard)))
}

// cliMarkdown writes every command of the tree, depth first in name order, as
// one Markdown page whose "see also" links are anchors within it.
func cliMarkdown(t *testing.T, root *cobra.Command) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("# Command-line reference\n\n")
	b.WriteString("<!-- Generated from the command tree by TestCLIReference (cmd/emu/clidoc_test.go);\n")
	b.WriteString("     do not edit: `go test ./cmd/emu -run TestCLIReference -update` rewrites it. -->\n\n")
	b.WriteString("Every command and flag of `emu`, as `emu help COMMAND` prints it. The guides in\n")
	b.WriteString("[docs/](../README.md#guides) say which to use for what; the scenario keys that\n")
	b.WriteString("`--set` takes are in [scenario.md](scenario.md).\n\n")
	anchor := func(file string) string { // emu_calibrate_merge.md → #emu-calibrate-merge
		return "#" + strings.ReplaceAll(strings.TrimSuffix(file, ".md"), "_", "-")
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c != root || c.IsAdditionalHelpTopicCommand() {
			return
		}
		c.DisableAutoGenTag = true // no generation date: the file must not change by itself
		machineIndependent(c.NonInheritedFlags())
		var page bytes.Buffer
		if err := doc.GenMarkdownCustom(c, &page, anchor); err != nil {
			t.Fatal(err)
		}
		// One page of several commands: each command's heading one level
		// below the page's title, and its sections below that.
		text := strings.ReplaceAll(page.String(), "\n### ", "\n#### ")
		b.WriteString(text)
		b.WriteString("\n")
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	return append(bytes.TrimRight(b.Bytes(), "\n"), '\n')
}

// machineIndependent writes the defaults that depend on the machine the
// reference is generated on (a worker count defaulting to the number of CPUs)
// as what they mean.
func machineIndependent(flags *pflag.FlagSet) {
	cpus := strconv.Itoa(runtime.NumCPU())
	flags.VisitAll(func(f *pflag.Flag) {
		if f.Name == "jobs" && f.DefValue == cpus {
			f.DefValue = "NumCPU"
		}
	})
}
