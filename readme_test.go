package emuproject

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeTour runs every command block of the README's five-minute tour, as a
// newcomer would type them, so the README cannot drift from what emu does. The
// commands are written `go run ./cmd/emu ...`; the test builds emu once and runs the
// blocks in order in a scratch folder holding a copy of examples/, with bash -e, so a
// failing command fails the test with its output.
func TestReadmeTour(t *testing.T) {
	if testing.Short() {
		t.Skip("builds emu and runs the README's tour")
	}
	blocks := tourBlocks(t, "README.md", "## Five-minute tour")
	if len(blocks) < 5 {
		t.Fatalf("README's tour has %d command blocks; want the run, calibrate, fit, sensitivity and tune steps", len(blocks))
	}
	runBlocks(t, blocks)
}

// TestReadmeReplay runs the command block of the README's "Replaying traces".
func TestReadmeReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds emu and runs the README's replay commands")
	}
	blocks := tourBlocks(t, "README.md", "## Replaying traces")
	if len(blocks) != 1 {
		t.Fatalf("README's replay section has %d command blocks, want 1", len(blocks))
	}
	runBlocks(t, blocks)
}

// runBlocks runs command blocks in order, as tourBlocks returns them.
func runBlocks(t *testing.T, blocks []string) {
	t.Helper()
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "emu")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/emu").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := t.TempDir()
	if out, err := exec.Command("cp", "-r", filepath.Join(root, "examples"), work).CombinedOutput(); err != nil {
		t.Fatalf("copying examples: %v\n%s", err, out)
	}
	for i, b := range blocks {
		script := strings.ReplaceAll(b, "go run ./cmd/emu", bin)
		cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", script)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tour block %d failed: %v\n--- block\n%s\n--- output\n%s", i+1, err, b, out)
		}
	}
}

// tourBlocks returns the ```sh blocks between heading and the next heading of its level.
func tourBlocks(t *testing.T, file, heading string) []string {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []string
	var cur []string
	in, fenced := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !fenced && strings.HasPrefix(line, "## "):
			in = line == heading
		case in && !fenced && strings.TrimSpace(line) == "```sh":
			fenced, cur = true, nil
		case fenced && strings.TrimSpace(line) == "```":
			fenced = false
			blocks = append(blocks, strings.Join(cur, "\n"))
		case fenced:
			cur = append(cur, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return blocks
}

// TestReadmeTraffic runs the command blocks of the README's "Several jobs and
// the network's traffic".
func TestReadmeTraffic(t *testing.T) {
	if testing.Short() {
		t.Skip("builds emu and runs the README's traffic commands")
	}
	blocks := tourBlocks(t, "README.md", "## Several jobs and the network's traffic")
	if len(blocks) == 0 {
		t.Fatal("README's traffic section has no command block")
	}
	runBlocks(t, blocks)
}
