package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/emu-hpc/emu/calibration"
	"github.com/emu-hpc/emu/internal/jsonout"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/tune"
)

// oneRankHPL is an HPL of one rank on one host: no message, so no critical
// latency, no breakpoint, no class of link crossed.
const oneRankHPL = `app = "hpl"
seed = 1

[platform]
topology = "flat"
hosts = 1
cores_per_host = 1
link_bandwidth = "10Gbps"
link_latency = "1us"

[network]
model = "smpi"

[kernels]
mode = "model"

[kernels.dgemm]
terms = ["m*n*k"]
coef = [1.029e-11]
intercept = 1.981e-12

[hpl]
n = 200
nb = 64
grids = [[1, 1]]
`

// TestJSONListsAreArrays runs every command that writes JSON on a case
// whose lists are empty and checks that each list (and map) field of the
// document's Go type is an array (an object), never null: qa51 found
// analyze's critical_latencies_s and breakpoints null, --links' highest too.
func TestJSONListsAreArrays(t *testing.T) {
	dir := t.TempDir()
	hpl := writeFile(t, "one.toml", oneRankHPL)
	goal := writeFile(t, "one.goal", "num_ranks 1\n\nrank 0 {\nl1: calc 100\n}\n")
	out := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		name  string
		args  []string
		file  string
		typ   reflect.Type
		empty []string // top-level keys that must be [] here
	}{
		{"analyze a one-rank schedule", []string{"analyze", goal, "--json", out("a.json")}, out("a.json"),
			reflect.TypeFor[analyzeJSON](), []string{"critical_latencies_s", "breakpoints"}},
		{"sensitivity of a one-rank run", []string{"sensitivity", "-q", hpl, "--json", out("s.json")}, out("s.json"),
			reflect.TypeFor[sensitivityJSON](), []string{"critical_latencies_s", "breakpoints"}},
		{"run --links of a one-rank run", []string{"run", "-q", hpl, "--links", out("l.json")}, out("l.json"),
			reflect.TypeFor[observe.Traffic](), []string{"highest"}},
		{"run --json of a one-rank run", []string{"run", "-q", hpl, "--json", out("r.json")}, out("r.json"),
			reflect.TypeFor[runner.Result](), nil},
		{"an ensemble of jobs", []string{"run", "-q", filepath.Join("..", "..", "examples", "jobs-congestor.toml"), "--seeds", "2", "--json", out("j.json")},
			out("j.json"), reflect.TypeFor[runner.Result](), nil},
		{"tune of a one-rank run", []string{"tune", hpl, "--sweep", "nb=32,64", "--out", out("tune"), "--json", out("t.json")}, out("t.json"),
			reflect.TypeFor[[]tune.Result](), nil},
		{"tune --search", []string{"tune", hpl, "--search", "--sweep", "nb=32,64", "--out", out("tune-search"), "--json", out("ts.json")}, out("ts.json"),
			reflect.TypeFor[tune.SearchResult](), nil},
		{"fit --report", []string{"fit", filepath.Join("..", "..", "examples", "sweep-samples.csv"), "--product", "sweep=m*n",
			"-o", out("m.toml"), "--report", out("f.json")}, out("f.json"), reflect.TypeFor[[]calibration.FitReport](), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, _, errOut := runCLI(t, tc.args...); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			data, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			nulls, err := jsonout.NullLists(tc.typ, data)
			if err != nil {
				t.Fatal(err)
			}
			if len(nulls) > 0 {
				t.Errorf("lists written as null: %q", nulls)
			}
			var doc map[string]any
			if len(tc.empty) > 0 {
				if err := json.Unmarshal(data, &doc); err != nil {
					t.Fatal(err)
				}
			}
			for _, key := range tc.empty {
				if arr, ok := doc[key].([]any); !ok || len(arr) != 0 {
					t.Errorf("%q is %#v, want []", key, doc[key])
				}
			}
		})
	}
}
