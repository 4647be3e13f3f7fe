package emuproject

import (
	"errors"
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/emu-hpc/emu"

// allowed lists, for each package of ours, the packages of ours it may import
// (shared/DESIGN.md, "Packages and who may import whom"). A package missing from
// this table may import anything of ours but cmd/; subpackages inherit their parent's row.
var allowed = map[string][]string{
	"fluid":   {"internal/heap"},
	"models":  {},
	"emu":     {"fluid"},
	"kernels": {"models"},
	"ranks":   {"emu", "fluid", "internal/heap"},
	// sensitivity/goal records the graph of a loggops replay.
	"sensitivity": {"sensitivity", "traceformat", "loggops"},
	"loggops":     {"traceformat", "internal/heap"},
	"traceformat": {},
	// observe watches a run through ranks' events; the typed values and
	// user units it shares with scenario are package units'.
	"observe": {"ranks", "fluid", "kernels", "sensitivity", "units"},
	"units":   {},
	// the input formats stop at the edge: HPL.dat fills apps/hpl's Dat.
	"hpldat": {"apps/hpl"},
	// the machine and its formats (SimGrid XML, hostfiles) build a fluid topology.
	"platform": {"fluid", "units"},
	// scenario says what to run; running it and watching it are runner's and
	// observe's, never imported here.
	"scenario": {"apps", "fluid", "hpldat", "kernels", "loggops", "models", "platform", "ranks", "traceformat", "units"},
	// runner runs a scenario's Plan and wires the observers a run asks for.
	"runner":      {"scenario", "platform", "apps", "ranks", "kernels", "fluid", "observe", "sensitivity"},
	"calibration": {"kernels", "models", "internal"},
	"tune":        {"internal"},
	// apps/replay reads its traces with traceformat and runs its loggops
	// semantics with package loggops; no application imports sensitivity.
	"apps": {"apps", "ranks", "kernels", "models", "emu", "fluid", "traceformat", "loggops"},
}

func TestImportRules(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != "." && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			return nil // a folder of data or C sources, no package
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		rel := filepath.ToSlash(path)
		top := strings.Split(rel, "/")[0]
		rule, ok := allowed[top]
		for _, imp := range pkg.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			target := strings.TrimPrefix(imp, module+"/")
			ttop := strings.Split(target, "/")[0]
			if ttop == "cmd" {
				t.Errorf("%s imports %s: nothing may import the CLI", rel, target)
			}
			if !ok || ttop == top && top != "sensitivity" && top != "apps" {
				continue
			}
			if !contains(rule, ttop) && !contains(rule, target) {
				sort.Strings(rule)
				t.Errorf("%s imports %s; %s may import only %v", rel, target, top, rule)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
