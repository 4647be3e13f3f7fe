package scenario

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
)

// TestReplayScenarioErrors: [replay] is validated in one place, each error one
// line naming the scenario's key or the trace's file and line.
func TestReplayScenarioErrors(t *testing.T) {
	for _, tc := range []struct {
		name, scenario string
		files          map[string]string
		want           string
	}{
		{"no file", "app = \"replay\"\n" + scenariotest.ReplayPlatform, nil, "s.toml: replay.file: app = \"replay\" needs a trace file"},
		{"missing file", "app = \"replay\"\n[replay]\nfile = \"nope.txt\"\n" + scenariotest.ReplayPlatform, nil, "s.toml:3: replay.file: cannot read "},
		{"bad format", "app = \"replay\"\n[replay]\nfile = \"t.txt\"\nformat = \"otf2\"\n" + scenariotest.ReplayPlatform,
			map[string]string{"t.txt": "0 compute 1\n"}, "s.toml:4: replay.format: unknown trace format \"otf2\" (goal or ti)"},
		// a file's [replay] under another app is a warning (TestFileTablesOfOtherApps); a --set of it is refused there
		{"bad trace line", "app = \"replay\"\n[replay]\nfile = \"t.txt\"\n" + scenariotest.ReplayPlatform,
			map[string]string{"t.txt": "0 compute 1\n0 jump 3\n"}, "t.txt:2: unknown action \"jump\""},
		{"too many ranks", "app = \"replay\"\n[replay]\nfile = \"t.txt\"\n" + scenariotest.ReplayPlatform,
			map[string]string{"t.txt": "9 compute 1\n"}, "hold 8 ranks, the run needs 10"},
		{"GOAL given as TI", "app = \"replay\"\n[replay]\nfile = \"t.goal\"\nformat = \"ti\"\n" + scenariotest.ReplayPlatform,
			map[string]string{"t.goal": "num_ranks 1\nrank 0 {\ncalc 5\n}\n"}, "t.goal:1: want a rank number first"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantScenarioError(t, tc.scenario, tc.files, tc.want) })
	}
}

// wantScenarioError writes scenario as s.toml beside files, validates it and
// checks that the error is one line containing want.
func wantScenarioError(t *testing.T, scenario string, files map[string]string, want string) {
	t.Helper()
	all := map[string]string{"s.toml": scenario}
	for k, v := range files {
		all[k] = v
	}
	dir := scenariotest.WriteScenario(t, all)
	s, err := Load(filepath.Join(dir, "s.toml"))
	if err == nil {
		_, err = s.Validate()
	}
	switch {
	case err == nil:
		t.Fatalf("no error, want %q", want)
	case !strings.Contains(err.Error(), want):
		t.Errorf("error %q\nwant it to contain %q", err, want)
	case strings.Contains(err.Error(), "\n"):
		t.Errorf("error of several lines: %q", err)
	}
}
