package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRunJobsGolden: a [[jobs]] scenario prints one line per job: its time
// among the others, alone, and the slowdown (examples/jobs-congestor.toml:
// a ring beside an all-to-all congestor, both placed at random).
func TestRunJobsGolden(t *testing.T) {
	code, stdout, stderr := runCLI(t, "run", "-q", "../../examples/jobs-congestor.toml")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	golden(t, "run_jobs.txt", stdout)
}

// TestRunJobsJSON: --json holds "jobs": [{name, app, ranks, start_s, time_s,
// alone_s, slowdown, hosts, results}], the same bytes run after run but for
// wall_time_s; --no-alone leaves alone_s and slowdown out.
func TestRunJobsJSON(t *testing.T) {
	dir := t.TempDir()
	var runs []string
	for _, args := range [][]string{{}, {}, {"--no-alone"}} {
		out := filepath.Join(dir, "r.json")
		if code, _, stderr := runCLI(t, append([]string{"run", "-q", "../../examples/jobs-congestor.toml", "--json", out}, args...)...); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		runs = append(runs, regexp.MustCompile(`"wall_time_s": [^,]*,`).ReplaceAllString(string(mustRead(t, out)), ""))
	}
	if runs[0] != runs[1] {
		t.Errorf("two runs gave different JSON")
	}
	var res struct {
		App  string `json:"app"`
		Jobs []map[string]any
	}
	if err := json.Unmarshal([]byte(runs[0]), &res); err != nil {
		t.Fatal(err)
	}
	if res.App != "jobs" || len(res.Jobs) != 2 {
		t.Fatalf("JSON %s", runs[0])
	}
	for _, k := range []string{"name", "app", "ranks", "start_s", "time_s", "alone_s", "slowdown", "hosts", "results"} {
		if _, ok := res.Jobs[0][k]; !ok {
			t.Errorf("job without %q: %v", k, res.Jobs[0])
		}
	}
	if s := res.Jobs[0]["slowdown"].(float64); !(s > 1.5) {
		t.Errorf("ring slowdown %g, want > 1.5", s)
	}
	if strings.Contains(runs[2], "alone_s") || strings.Contains(runs[2], "slowdown") {
		t.Errorf("--no-alone still reports alone times")
	}
}

// TestRunJobsBadInput: bad [[jobs]] exit 2 with one line naming the key.
func TestRunJobsBadInput(t *testing.T) {
	dir := t.TempDir()
	base := string(mustRead(t, "../../examples/jobs-congestor.toml"))
	for _, tc := range []struct {
		name, edit, args, want string
	}{
		{"app", `app = "ring"`, "", `jobs[0].app: unknown application "rings"`},
		{"ranks", `ranks = 16`, "", `jobs[0].ranks: 0: a ring job needs ranks ≥ 2`},
		{"graph", "", "--graph", "--graph, --plot and --record-pivots record one application's run, not a scenario's [[jobs]] (--trace records them all)"},
		{"sensitivity", "", "", "sensitivity analyses one application's run, not a scenario's [[jobs]]"},
	} {
		doc := base
		switch tc.name {
		case "app":
			doc = strings.Replace(base, tc.edit, `app = "rings"`, 1)
		case "ranks":
			doc = strings.Replace(base, tc.edit, "", 1)
		}
		file := filepath.Join(dir, tc.name+".toml")
		if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"run", "-q", file}
		if tc.name == "sensitivity" {
			args[0] = "sensitivity"
		}
		if tc.args != "" {
			args = append(args, tc.args, filepath.Join(dir, "g.bin"))
		}
		code, _, stderr := runCLI(t, args...)
		if code != exitInput || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%s: exit %d, stderr %q, want %q", tc.name, code, stderr, tc.want)
		}
	}
}

// TestRunJobsTrace: --trace on a [[jobs]] scenario writes one trace of the
// machine: a process per rank of every job, named after its job, and each
// message's arrow between two ranks of one job (each job numbers its own
// messages; the trace keeps them apart). Tracing changes no job's time.
func TestRunJobsTrace(t *testing.T) {
	dir := t.TempDir()
	trace, with, without := filepath.Join(dir, "t.json"), filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	file := "../../examples/jobs-congestor.toml"
	if code, _, stderr := runCLI(t, "run", "-q", file, "--no-alone", "--trace", trace, "--json", with); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "run", "-q", file, "--no-alone", "--json", without); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		TraceEvents []struct {
			Ph   string         `json:"ph"`
			Pid  int            `json:"pid"`
			ID   any            `json:"id"`
			Name string         `json:"name"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(mustRead(t, trace), &doc); err != nil {
		t.Fatal(err)
	}
	names := map[int]string{}
	ends := map[string][2]int{} // flow id → sender and receiver pid (+1, 0 if unseen)
	for _, ev := range doc.TraceEvents {
		switch {
		case ev.Ph == "M" && ev.Name == "process_name":
			names[ev.Pid] = ev.Args["name"].(string)
		case ev.Ph == "s" || ev.Ph == "f":
			id := fmt.Sprint(ev.ID)
			e := ends[id]
			if ev.Ph == "s" {
				if e[0] != 0 {
					t.Fatalf("flow %s starts twice", id)
				}
				e[0] = ev.Pid + 1
			} else {
				if e[1] != 0 {
					t.Fatalf("flow %s ends twice", id)
				}
				e[1] = ev.Pid + 1
			}
			ends[id] = e
		}
	}
	if len(names) != 32 || names[0] != "job ring, rank 0" || names[31] != "job congestor, rank 15" {
		t.Fatalf("%d processes; 0 %q, 31 %q", len(names), names[0], names[31])
	}
	if len(ends) == 0 {
		t.Fatal("no message arrows")
	}
	for id, e := range ends {
		if e[0] == 0 || e[1] == 0 || (e[0]-1)/16 != (e[1]-1)/16 {
			t.Fatalf("arrow %s from pid %d to %d: want both ends in one job", id, e[0]-1, e[1]-1)
		}
	}
	var a, b struct{ Jobs []map[string]any }
	if json.Unmarshal(mustRead(t, with), &a) != nil || json.Unmarshal(mustRead(t, without), &b) != nil {
		t.Fatal("bad JSON results")
	}
	if fmt.Sprint(a.Jobs) != fmt.Sprint(b.Jobs) || len(a.Jobs) != 2 {
		t.Errorf("tracing changed the jobs' results:\n%v\n%v", a.Jobs, b.Jobs)
	}
}
