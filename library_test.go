package emuproject

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsLibraryGuide does what docs/library.md tells a reader: it saves
// the guide's Go program as main.go in a folder outside the clone, runs the
// guide's commands there (a module of its own pointed at this clone by a
// replace directive), and checks that the program prints the guide's output,
// whose times the guide works out by hand.
func TestDocsLibraryGuide(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the guide's program in a module of its own")
	}
	const guide = "docs/library.md"
	var program, commands, output string
	blocks := fences(t, guide)
	for i, b := range blocks {
		switch {
		case b.lang == "go":
			if program != "" {
				t.Fatalf("%s:%d: a second Go block; the test runs one program", guide, b.line)
			}
			program = b.text
		case b.lang == "sh" && b.section == "## Run it":
			commands = b.text
			if i+1 < len(blocks) && blocks[i+1].lang == "text" {
				output = blocks[i+1].text
			}
		}
	}
	if program == "" || commands == "" || output == "" {
		t.Fatalf("%s: want a Go block, and under ## Run it a command block followed by its output; got %d, %d, %d bytes", guide, len(program), len(commands), len(output))
	}
	const clone = "$HOME/emu"
	if !strings.Contains(commands, clone) {
		t.Fatalf("%s: the commands do not name the clone as %s", guide, clone)
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(program+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", strings.ReplaceAll(commands, clone, root))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the guide's commands failed: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if got := strings.TrimSpace(stdout.String()); got != strings.TrimSpace(output) {
		t.Errorf("the guide's program printed\n%s\nthe guide says\n%s", got, output)
	}
}
