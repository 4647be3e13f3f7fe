//go:build linux

package main

import (
	"strings"
	"testing"
)

// An input that never ends (/dev/zero) is refused in one line naming it,
// exit 2: each reader read it until the Go runtime died ("fatal error: out
// of memory", exit 2 with a goroutine dump) or the machine's memory went.
func TestEndlessInputRefused(t *testing.T) {
	const why = "/dev/zero: not a regular file"
	for _, args := range [][]string{
		{"run", "/dev/zero"},
		{"run", "--hpl-dat", "/dev/zero"},
		{"run", "--platform", "/dev/zero"},
		{"run", "--replay", "/dev/zero"},
		{"run", "--hostfile", "/dev/zero"},
		{"fit", "/dev/zero"},
		{"calibrate", "--check", "/dev/zero"},
		{"explain", "--timed=false", "--real", "/dev/zero"},
	} {
		code, stdout, stderr := runCLI(t, append(args, "-q")...)
		if code != exitInput || !strings.Contains(stderr, why) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("emu %s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", strings.Join(args, " "), code, stdout, stderr, why)
		}
	}
}
