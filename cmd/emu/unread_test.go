package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestWarnsOfUnreadTables: a scenario file holding another app's table runs
// as without it, with one line on stderr naming the file, the table's line
// and the table (qa50: no word at all); -q leaves it out; emu tune says it
// once for the whole sweep and not for an app it sweeps.
func TestWarnsOfUnreadTables(t *testing.T) {
	base, err := os.ReadFile("testdata/pingpong.toml")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(string(base), "\n")
	dir := t.TempDir()
	plain := filepath.Join(dir, "pp.toml")
	several := filepath.Join(dir, "pp-with-hpl.toml")
	extra := "\n[hpl]\nn = 200\nnb = 32\ngrids = [[1, 2]]\n\n[ring]\nsizes = [8]\n"
	if err := os.WriteFile(plain, base, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(several, append(append([]byte(nil), base...), extra...), 0o644); err != nil {
		t.Fatal(err)
	}
	hplLine, ringLine := lines+2, lines+7
	wantHPL := several + ":" + strconv.Itoa(hplLine) + ": [hpl] is not read: the scenario's app is pingpong (--set app=hpl runs it)"
	wantRing := several + ":" + strconv.Itoa(ringLine) + ": [ring] is not read: the scenario's app is pingpong (--set app=ring runs it)"

	code, want, errOut := runCLI(t, "run", plain)
	if code != exitOK || strings.Contains(errOut, "warning") {
		t.Fatalf("the file alone: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut := runCLI(t, "run", several)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if out != want {
		t.Errorf("the run with the unread tables differs:\n%s\nwithout them:\n%s", out, want)
	}
	if errOut != "emu: warning: "+wantHPL+"\nemu: warning: "+wantRing+"\n" {
		t.Errorf("stderr %q\nwant the two warnings %q, %q", errOut, wantHPL, wantRing)
	}
	if code, _, errOut := runCLI(t, "run", "-q", several); code != exitOK || errOut != "" {
		t.Errorf("-q: exit %d, stderr %q", code, errOut)
	}
	// The sweep reads [hpl] at its hpl point: only [ring] is unread, said once.
	code, _, errOut = runCLI(t, "tune", several, "--sweep", "app=pingpong,hpl", "--out", filepath.Join(dir, "sweep"))
	if code != exitOK {
		t.Fatalf("tune: exit %d: %s", code, errOut)
	}
	if strings.Contains(errOut, "[hpl]") || strings.Count(errOut, "[ring] is not read: no app of the sweep (pingpong, hpl) reads it") != 1 {
		t.Errorf("tune's stderr:\n%s\nwant one warning of [ring], none of [hpl]", errOut)
	}
}
