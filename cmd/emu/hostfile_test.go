package main

import (
	"os"
	"path/filepath"
	"testing"
)

// --hostfile places ranks as smpirun -hostfile does. The peers' hostfile lists
// node-0 … node-255 in order, which is emu's own placement: same output. A host
// the platform does not have is an input error naming the hostfile's line.
func TestRunHostfile(t *testing.T) {
	xml, hosts := filepath.Join(peers, "cluster_flat_256.xml"), filepath.Join(peers, "hostfile_256.txt")
	if _, err := os.Stat(hosts); err != nil {
		t.Fatal("peer inputs (vendored in validation/testdata):", err)
	}
	args := []string{"run", "-q", "--platform", xml, "--set", "hpl.n=500"}
	code, plain, stderr := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, placed, stderr := runCLI(t, append(args, "--hostfile", hosts)...)
	if code != exitOK || placed != plain {
		t.Errorf("exit %d, stderr %q; output with the in-order hostfile differs:\n%s\nwithout:\n%s", code, stderr, placed, plain)
	}
	bad := filepath.Join(t.TempDir(), "hosts.txt")
	if err := os.WriteFile(bad, []byte("node-0\nnode-256\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, append(args, "--hostfile", bad)...)
	if want := "emu: " + bad + ":2: host \"node-256\" is not in the platform (node-0 … node-255)\n"; code != exitInput || stderr != want {
		t.Errorf("exit %d, stderr %q, want %q", code, stderr, want)
	}
}
