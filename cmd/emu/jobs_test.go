package main

import (
	"encoding/json"
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
		{"graph", "", "--graph", "--graph, --trace, --plot and --record-pivots record one application's run, not a scenario's [[jobs]]"},
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
