//go:build linux

package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// An output that is not a regular file (a pipe, a device such as /dev/null) is
// written in place: renaming a temporary file over it replaced the pipe or the
// device by a regular file (as root, `emu run --json /dev/null` replaced the
// machine's /dev/null). Two flags may name one such path. The test uses its own
// pipe and, as root, its own copy of the null device, never /dev/null itself.
func TestOutputsToDevicesAndPipesAreWrittenInPlace(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	code, _, stderr := runCLI(t, "run", "-q", "--set", "hpl.n=100", "--json", fifo)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if s := <-got; !strings.Contains(s, `"app": "hpl"`) {
		t.Errorf("the pipe's reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v %v", fi.Mode(), err)
	}
	null := filepath.Join(dir, "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil { // char 1:3, as /dev/null
		t.Log("no device test (mknod needs root):", err)
		return
	}
	if code, _, stderr := runCLI(t, "run", "-q", "--set", "hpl.n=100", "--json", null, "--graph", null, "--trace", null); code != exitOK {
		t.Errorf("three outputs to a null device: exit %d: %s", code, stderr)
	}
	if fi, err := os.Lstat(null); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("the device was replaced: %v %v", fi.Mode(), err)
	}
}
