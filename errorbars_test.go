package emuproject

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorBarsGuide runs every command block of docs/error-bars.md's
// "Commands", as written from the repository's root (the guide's chaotic
// scenario is cmd/emu/testdata/hpl88_probe.toml), in a scratch folder holding
// that file, with bash -e: the guide cannot drift from what emu does. It also
// checks that the outputs the guide shows are there.
func TestErrorBarsGuide(t *testing.T) {
	if testing.Short() {
		t.Skip("builds emu and runs the guide's commands")
	}
	blocks := tourBlocks(t, "docs/error-bars.md", "## Commands")
	if len(blocks) != 4 {
		t.Fatalf("the guide's Commands have %d blocks; want --seeds, --perturb, tune and sensitivity", len(blocks))
	}
	bin := filepath.Join(t.TempDir(), "emu")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/emu").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := t.TempDir()
	const chaotic = "cmd/emu/testdata/hpl88_probe.toml"
	if err := os.MkdirAll(filepath.Join(work, filepath.Dir(chaotic)), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(chaotic)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, chaotic), data, 0o644); err != nil {
		t.Fatal(err)
	}
	want := []string{"ensemble of 8 runs (seeds 1 to 8)", "in 7 copies with every link moved by parts in 10⁹", "band (p05–p95)", "noise floor at L0"}
	for i, b := range blocks {
		cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", strings.ReplaceAll(b, "go run ./cmd/emu", bin))
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("block %d failed: %v\n--- block\n%s\n--- output\n%s", i+1, err, b, out)
		}
		if !strings.Contains(string(out), want[i]) {
			t.Errorf("block %d's output lacks %q:\n%s", i+1, want[i], out)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "out.json")); err != nil {
		t.Errorf("the --seeds block wrote no out.json: %v", err)
	}
}
