//go:build linux

package inputfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestEndlessInputsRefused: a regular file is read whole; /dev/zero, which
// never ends, is refused after MaxStream bytes with ErrEndless in a
// *fs.PathError naming it (it was read until the memory ran out); a pipe
// that ends before the bound is read whole; a missing file is os's error.
func TestEndlessInputsRefused(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.toml")
	if err := os.WriteFile(file, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(file); err != nil || string(b) != "x = 1\n" {
		t.Errorf("regular file: %q, %v", b, err)
	}
	if _, err := ReadFile(filepath.Join(dir, "nope")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	for _, dev := range []string{"/dev/zero"} {
		if _, err := os.Stat(dev); err != nil {
			t.Logf("no %s: %v", dev, err)
			continue
		}
		_, err := ReadFile(dev)
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != dev || !errors.Is(err, ErrEndless) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want a one-line *fs.PathError naming it with ErrEndless", dev, err)
		}
	}
	fifo := filepath.Join(dir, "p")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		io.WriteString(w, strings.Repeat("y", 1<<20))
		w.Close()
	}()
	if b, err := ReadFile(fifo); err != nil || len(b) != 1<<20 {
		t.Errorf("a pipe of 1 MiB: %d bytes, %v", len(b), err)
	}
}
