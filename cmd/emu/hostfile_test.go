package main

import (
	"os"
	"path/filepath"
	"strings"
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

// --hostfile is applied wherever it stands among the --set flags, in every
// command that takes the scenario flags: a --set after it once dropped it
// (pflag's string array replaced the list at its first --set), and the run
// went on with the default placement, exit 0.
func TestHostfileBeforeSet(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-hosts.txt")
	one := filepath.Join(dir, "one.txt")
	if err := os.WriteFile(one, []byte("host-0:4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ args []string }{
		{[]string{"run", "-q", "--hostfile", missing, "--set", "hpl.n=100"}},
		{[]string{"sensitivity", "-q", "--hostfile", missing, "--set", "hpl.n=100"}},
		{[]string{"explain", "-q", "--hostfile", missing, "--set", "hpl.n=100"}},
	} {
		code, _, stderr := runCLI(t, c.args...)
		if want := "emu: --hostfile " + missing + ": platform.hostfile: cannot read"; code != exitInput || !strings.HasPrefix(stderr, want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q...", c.args, code, stderr, want)
		}
	}
	// All four ranks on one host: the same run whichever flag comes first,
	// and not the default placement's.
	_, plain, _ := runCLI(t, "run", "-q", "--set", "hpl.n=300")
	_, before, _ := runCLI(t, "run", "-q", "--hostfile", one, "--set", "hpl.n=300")
	_, after, _ := runCLI(t, "run", "-q", "--set", "hpl.n=300", "--hostfile", one)
	if before != after || before == plain {
		t.Errorf("--hostfile before --set:\n%s\nafter:\n%s\nwithout:\n%s", before, after, plain)
	}
}

// --np is smpirun's -np: a --set of platform.np, bad values refused at the
// flag with exit 2, and a grid beyond it refused as HPL refuses -np too small.
func TestRunNP(t *testing.T) {
	for _, c := range []struct {
		np, want string
	}{
		{"x", "emu: --np x: platform.np: want an integer"},
		{"-1", "emu: --np -1: platform.np: -1: want 1 to 4194304 ranks\n"},
		{"0", "emu: --np 0: platform.np: 0: want 1 to 4194304 ranks\n"},
		{"3", "emu: --np 3: platform.np: a 4-process grid needs more ranks than the 3 the platform offers (np = 3)\n"},
	} {
		code, _, stderr := runCLI(t, "run", "-q", "--set", "hpl.n=100", "--np", c.np)
		if code != exitInput || !strings.HasPrefix(stderr, c.want) {
			t.Errorf("--np %s: exit %d, stderr %q; want exit 2 and %q", c.np, code, stderr, c.want)
		}
	}
	_, set, _ := runCLI(t, "run", "-q", "--set", "hpl.n=300", "--set", "platform.np=6")
	code, flag, stderr := runCLI(t, "run", "-q", "--set", "hpl.n=300", "--np", "6")
	if code != exitOK || flag != set {
		t.Errorf("--np 6: exit %d, stderr %q; output differs from --set platform.np=6:\n%s\n%s", code, stderr, flag, set)
	}
}
