package tune

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// FuzzParseSweep checks what --sweep accepts: a one-line error naming the
// sweep, or an axis of distinct TOML literals, no more than a range may
// expand to per value given, each range value within its start and stop.
func FuzzParseSweep(f *testing.F) {
	for _, s := range []string{"nb=64,128,256", "grid=8x8,4x16", "bcast=long,all", "hpl.grids=[[2,2],[4,1]],[[1,4]]",
		"nb=32..128..32", "kernels.speed_ratio=0.1..0.5..0.1", "latency=1us..4us..1us", "kernels.models=../a.toml",
		"network.send_overhead=0:1e-6:1e-9", `kernels.mode="model"`, "n=1..1e9", "nb=0..9223372036854775807..4611686018427387904",
		"nb=9223372036854775807..9223372036854775806", `nb="x`, "hpl.grids=[", "nb=.5,064,1e400,-0,+7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		ax, err := ParseSweep(spec)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "sweep ") {
				t.Fatalf("error %q: want one line starting with the sweep", msg)
			}
			return
		}
		_, list, _ := strings.Cut(spec, "=")
		given := splitValues(list)
		if len(ax.Values) == 0 || len(ax.Values) > len(given)*maxRangeValues+len(given)*len(aliasesAll()) {
			t.Fatalf("%q: %d values", spec, len(ax.Values))
		}
		seen := map[string]bool{}
		for _, v := range ax.Values {
			if seen[v] {
				t.Fatalf("%q: value %s twice", spec, v)
			}
			seen[v] = true
			if strings.HasPrefix(v, "[") || strings.HasPrefix(v, `"`) {
				continue // as typed: --set reads a bare list or names a bad literal
			}
			var doc map[string]any
			if _, err := toml.Decode("x = "+v, &doc); err != nil {
				t.Fatalf("%q: value %s is not a TOML literal: %v", spec, v, err)
			}
		}
		for _, g := range given {
			vals, isRange, err := expandRange(g)
			if !isRange || err != nil {
				continue
			}
			parts := strings.Split(g, "..")
			lo, _ := splitUnit(parts[0])
			hi, _ := splitUnit(parts[1])
			a, _ := strconv.ParseFloat(lo, 64)
			b, _ := strconv.ParseFloat(hi, 64)
			for _, v := range vals {
				num, _ := splitUnit(v)
				x, _ := strconv.ParseFloat(num, 64)
				if x < a*(1-1e-9)-1e-300 || x > b+abs(b)*1e-9 {
					t.Fatalf("%q: range value %s outside [%g, %g]", spec, v, a, b)
				}
			}
		}
	})
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// aliasesAll is the most values one "all" expands to.
func aliasesAll() []string {
	var most []string
	for _, a := range aliases {
		if len(a.all) > len(most) {
			most = a.all
		}
	}
	return most
}

// FuzzReadResults checks reading a tune journal (a results folder a user may
// have edited, or a kill tore): a one-line error naming the file and line, or
// results that each have an ID, in ID order.
func FuzzReadResults(f *testing.F) {
	f.Add([]byte(`{"id":"hpl.nb=64","label":"nb=64","overrides":[{"key":"hpl.nb","value":"64"}],"gflops":1.5,"time_s":2,"simulated_time_s":2,"wall_time_s":0.1}` + "\n"))
	f.Add([]byte(`{"id":"a","gflops":1}` + "\n" + `{"id":"b","gflops":2,"ensemble":{"runs":3}}` + "\n{\"id\":\"c\""))
	f.Add([]byte("not json\n{\"id\":\"a\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "r.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		rs, err := ReadResults(path)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, path+":") {
				t.Fatalf("error %q: want one line naming %s and the line", msg, path)
			}
			return
		}
		for i, r := range rs {
			if r.ID == "" || i > 0 && rs[i-1].ID >= r.ID {
				t.Fatalf("results %d: ID %q out of order or empty", i, r.ID)
			}
		}
	})
}

// FuzzReadPlan: a --slurm sweep's plan.json (which `emu tune task` and
// `tune collect` read back, perhaps after an edit or a torn copy) reads or
// fails with one line naming the file; a plan read gives each point to one
// task, and writes back to the same plan.
func FuzzReadPlan(f *testing.F) {
	f.Add([]byte(`{"scenario":"/a/b.toml","sets":[{"key":"hpl.n","value":"400"}],"points":[{"Index":0,"Overrides":[{"key":"hpl.nb","value":"64"}]},{"Index":1,"Overrides":[{"key":"hpl.nb","value":"128"}]}],"tasks":2}`))
	f.Add([]byte(`{"scenario":"","points":[],"tasks":1}`))
	f.Add([]byte(`{"points":[{"Index":0}],"tasks":0}`))
	f.Add([]byte(`{"points":null,"tasks":9223372036854775807}`))
	f.Add([]byte("\xef\xbb\xbf{\"tasks\":1}\r\n"))
	f.Add([]byte(`{"tasks":1,"tasks":2}`))
	f.Add([]byte(`{"tasks":1.5}`))
	f.Add([]byte(`{"tasks":`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "plan.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := ReadPlan(dir)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, path+":") {
				t.Fatalf("error %q: want one line naming %s", msg, path)
			}
			return
		}
		if p.Tasks < 1 {
			t.Fatalf("read a plan of %d tasks", p.Tasks)
		}
		n := 0
		for task := range min(p.Tasks, len(p.Points)) {
			n += len(p.TaskPoints(task))
		}
		if n != len(p.Points) {
			t.Fatalf("%d tasks share %d of %d points", p.Tasks, n, len(p.Points))
		}
		again := t.TempDir()
		if err := WritePlan(again, p); err != nil {
			t.Fatal(err)
		}
		// Compared as JSON: "sets": [] reads as an empty list and is
		// written back without the key (omitempty), read as nil.
		q, err := ReadPlan(again)
		pj, _ := json.Marshal(p)
		qj, _ := json.Marshal(q)
		if err != nil || !bytes.Equal(pj, qj) {
			t.Fatalf("written back: %s (%v), read %s", qj, err, pj)
		}
	})
}
