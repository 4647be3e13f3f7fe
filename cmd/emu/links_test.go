package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunLinksGolden: --links FILE.csv on the replay example (8 ranks on a
// fat tree of 2 leaves) pins the traffic report's CSV form: a row per link,
// per class and per highest class crossed. The same run gives the same bytes.
func TestRunLinksGolden(t *testing.T) {
	dir := t.TempDir()
	var runs []string
	for i := range 2 {
		out := filepath.Join(dir, []string{"a.csv", "b.csv"}[i])
		if code, _, stderr := runCLI(t, "run", "-q", "../../examples/replay.toml", "--links", out); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		runs = append(runs, string(mustRead(t, out)))
	}
	if runs[0] != runs[1] {
		t.Errorf("two runs of one scenario gave different traffic reports")
	}
	golden(t, "run_links.csv", runs[0])
}

// TestRunLinksJSONAndPlot: --links FILE.json writes the report as JSON (time,
// links, classes, highest), and beside --plot DIR the two traffic plots; a
// --links that names a folder is refused before the run (exit 2).
func TestRunLinksJSONAndPlot(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "links.json")
	code, _, stderr := runCLI(t, "run", "-q", "../../examples/alltoall-tapered.toml", "--links", out, "--plot", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Time    float64 `json:"time_s"`
		Links   []struct{ Name, Class string }
		Classes []struct {
			Class    string  `json:"class"`
			BusyUtil float64 `json:"busy_utilisation"`
		}
		Highest []struct {
			Class    string `json:"class"`
			Messages int    `json:"messages"`
		}
	}
	if err := json.Unmarshal(mustRead(t, out), &rep); err != nil {
		t.Fatal(err)
	}
	if !(rep.Time > 0) || len(rep.Links) != 32+64+16 || len(rep.Classes) != 3 || rep.Classes[2].Class != "level1" ||
		!(rep.Classes[2].BusyUtil > 0.95) || len(rep.Highest) != 2 || rep.Highest[1].Messages != 768 {
		t.Errorf("report: %+v", rep)
	}
	for _, f := range []string{"link_classes.svg", "link_hottest.svg", "rank_time.svg"} {
		if b, err := os.ReadFile(filepath.Join(dir, f)); err != nil || !strings.Contains(string(b), "<svg") {
			t.Errorf("%s: %v", f, err)
		}
	}
	code, _, stderr = runCLI(t, "run", "-q", "../../examples/replay.toml", "--links", dir)
	if code != exitInput || !strings.Contains(stderr, "--links "+dir+": is a folder, want a file name") {
		t.Errorf("--links DIR: exit %d, %q", code, stderr)
	}
}
