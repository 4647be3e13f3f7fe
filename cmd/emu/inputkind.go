package main

// How emu tells one kind of input file from another (a scenario, an HPL.dat,
// a platform, a trace, a models file, a sample CSV, an execution graph) by
// its first bytes, so that an error about a file given to the wrong flag can
// say where it goes.

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/emu-hpc/emu/internal/inputfile"
)

// withFlagHint adds to a load error which flag or command takes the file
// when it is another kind of input than the one given (given is "" for a
// scenario, else the flag: --platform, --hpl-dat, --replay): an HPL.dat, a
// SimGrid platform, a scenario, a replayed trace or an execution graph,
// whose bytes otherwise read as malformed input of the kind wanted.
func withFlagHint(err error, file, given string) error {
	data, rerr := inputfile.ReadFile(file)
	if rerr != nil {
		return err
	}
	head := strings.TrimSpace(string(data[:min(len(data), 512)]))
	var flag, hint string
	switch {
	case strings.HasPrefix(head, "<"):
		flag, hint = "--platform", "a SimGrid platform goes with --platform FILE"
	case strings.HasPrefix(head, "HPLinpack") || strings.EqualFold(filepath.Ext(file), ".dat"):
		flag, hint = "--hpl-dat", "an HPL.dat goes with --hpl-dat FILE"
	case strings.HasPrefix(head, "EMUGRAPH"):
		flag, hint = "analyze", "an execution graph is read by emu analyze FILE"
	case strings.EqualFold(filepath.Ext(file), ".goal") || looksLikeTrace(string(data[:min(len(data), 4096)])):
		flag, hint = "--replay", "a trace goes with --replay FILE"
	case looksLikeModels(head, data):
		flag, hint = "kernels.models", "a models file goes with --set kernels.models=FILE"
	case looksLikeSamples(head):
		flag, hint = "fit", "a sample file is fitted into a models file by emu fit FILE"
	case strings.EqualFold(filepath.Ext(file), ".toml") || looksLikeTOML(head):
		flag, hint = "", "a scenario is given as emu run FILE.toml, without a flag"
	default:
		return err
	}
	if flag == given {
		return err
	}
	return fmt.Errorf("%w (%s)", err, hint)
}

// looksLikeTOML reports whether a file's first statement, past '#'
// comments, is a TOML table header ([hpl]) or key = value, which no HPL.dat,
// platform XML or trace begins with.
func looksLikeTOML(head string) bool { return tomlStart.MatchString(firstStatement(head)) }

// firstStatement is head's first line that is neither blank nor a '#'
// comment, trimmed ("" when there is none).
func firstStatement(head string) string {
	for _, line := range strings.Split(head, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			return line
		}
	}
	return ""
}

// looksLikeModels reports whether a file is a models file as emu fit writes
// it: its first statement a [kernels.NAME] or [[probe]] table and nothing at
// its top level but kernels and probe (a scenario may hold models of its own
// under [kernels.NAME], never without a platform). emu run models.toml read
// one as a scenario missing its platform.
func looksLikeModels(head string, data []byte) bool {
	line := firstStatement(head)
	if !strings.HasPrefix(line, "[kernels.") && !strings.HasPrefix(line, "[[probe]]") {
		return false
	}
	var top map[string]any
	if _, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&top); err != nil {
		return false
	}
	for k := range top {
		if k != "kernels" && k != "probe" {
			return false
		}
	}
	return true
}

// looksLikeSamples reports whether a file's first statement is a sample CSV's
// header (kernel,host,m,n,k,seconds in some order), as calibrate writes it.
func looksLikeSamples(head string) bool {
	cols := map[string]bool{}
	for _, c := range strings.Split(firstStatement(head), ",") {
		cols[strings.ToLower(strings.TrimSpace(c))] = true
	}
	return cols["kernel"] && cols["seconds"]
}

// tomlStart matches a TOML table header or a bare key's assignment.
var tomlStart = regexp.MustCompile(`^(\[\[?[A-Za-z0-9_."-]+\]\]?|[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\s*=)`)

// looksLikeTrace reports whether a file's first statement, past '#' comments,
// is a GOAL schedule's num_ranks or a TI trace's "RANK ACTION" (a rank being N
// or pN), which no scenario's first TOML line is.
func looksLikeTrace(head string) bool {
	f := strings.Fields(firstStatement(head))
	if len(f) == 0 {
		return false
	}
	if f[0] == "num_ranks" {
		return true
	}
	_, err := strconv.Atoi(strings.TrimPrefix(f[0], "p"))
	return err == nil && len(f) >= 2
}
