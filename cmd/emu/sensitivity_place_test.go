package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// placeScenario is HPL on a 2×2 grid over two hosts of two cores, hosts 20 µs
// apart and a core's neighbour 0.2 µs: placed in order, each row of the grid
// shares a host and every pivot exchange of a panel column crosses the slow
// link. The placement that keeps each column on one host is the better one.
const placeScenario = `app = "hpl"
seed = 1
[platform]
topology = "flat"
hosts = 2
cores_per_host = 2
link_bandwidth = "10Gbps"
link_latency = "20us"
loopback_bandwidth = "20GBps"
loopback_latency = "0.2us"
[network]
model = "cm02"
[kernels]
mode = "model"
[hpl]
n = 2000
nb = 64
grids = [[2, 2]]
bcast = "1ringM"
depth = 1
`

// TestSensitivityPlace: --place finds the column-wise placement on the graph,
// writes it as an smpirun hostfile (two ranks per host, as the run had), and
// the re-emulation with that hostfile — a run of its own, the graph's answer
// being first order — is faster than the run; emu run --hostfile with the
// written file gives the same time the report prints.
func TestSensitivityPlace(t *testing.T) {
	dir := t.TempDir()
	toml, hf := filepath.Join(dir, "place.toml"), filepath.Join(dir, "best.txt")
	if err := os.WriteFile(toml, []byte(placeScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "sensitivity", "-q", toml, "--place", hf)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(hf)
	if err != nil {
		t.Fatal(err)
	}
	hosts := strings.Fields(string(data))
	if len(hosts) != 4 || hosts[0] != hosts[2] || hosts[1] != hosts[3] || hosts[0] == hosts[1] {
		t.Fatalf("hostfile %q: want ranks 0 and 2 on one host, 1 and 3 on the other (a grid column per host)", hosts)
	}
	m := regexp.MustCompile(`re-emulated with it: ([0-9.]+) ms \(([-+0-9.]+)% against the run's ([0-9.]+) ms\)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no placement line in:\n%s", out)
	}
	placed, _ := strconv.ParseFloat(m[1], 64)
	run, _ := strconv.ParseFloat(m[3], 64)
	if !(placed < 0.9*run) {
		t.Errorf("re-emulated with the placement %g ms, the run %g ms: want at least 10%% faster", placed, run)
	}
	// The README's figures for this case: the graph says −57%, the re-emulation −80%.
	g := regexp.MustCompile(`ms \(([-+0-9.]+)%\); re-emulated`).FindStringSubmatch(out)
	if g == nil || !strings.HasPrefix(g[1], "-57.") || !strings.HasPrefix(m[2], "-80.") {
		t.Errorf("graph %v, re-emulation %s%%: the README says −57%% and −80%%\n%s", g, m[2], out)
	}
	code, out2, errOut := runCLI(t, "run", "-q", toml, "--hostfile", hf, "--json", filepath.Join(dir, "r.json"))
	if code != 0 {
		t.Fatalf("emu run --hostfile: exit %d: %s", code, errOut)
	}
	r := readReport(t, filepath.Join(dir, "r.json"))
	if got := r["simulated_time_s"].(float64) * 1e3; strconv.FormatFloat(got, 'f', 6, 64) != m[1] {
		t.Errorf("emu run --hostfile %s: %.6f ms, the report said %s ms\n%s", hf, got, m[1], out2)
	}
}

// A cluster's prefix may hold '#' (SimGrid takes any), which a hostfile's
// reader otherwise cuts as a comment: --place writes the names as they are,
// and its re-emulation and emu run --hostfile read them back whole. Before,
// the re-emulation failed on its own hostfile ("host \"n\" is not in the
// platform").
func TestPlaceHostNamesWithCommentSign(t *testing.T) {
	dir := t.TempDir()
	toml, xml := filepath.Join(dir, "p.toml"), filepath.Join(dir, "c.xml")
	for path, text := range map[string]string{
		toml: "app = \"hpl\"\n[kernels]\nmode = \"model\"\n[hpl]\nn = 300\nnb = 64\ngrids = [[2, 2]]\n",
		xml: `<?xml version='1.0'?>
<platform version="4.1">
  <cluster id="c" prefix="n#" suffix="" radical="0-1" speed="1Gf" core="2" bw="10Gbps" lat="20us"/>
</platform>
`,
	} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hf, js := filepath.Join(dir, "best.txt"), filepath.Join(dir, "s.json")
	code, stdout, stderr := runCLI(t, "sensitivity", "-q", toml, "--platform", xml, "--latency", "wire", "--place", hf, "--json", js)
	if code != exitOK || !strings.Contains(stdout, "re-emulated with it") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	data, err := os.ReadFile(hf)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range strings.Fields(string(data)) {
		if h != "n#0" && h != "n#1" {
			t.Errorf("hostfile line %q: want n#0 or n#1", h)
		}
	}
	if code, _, stderr := runCLI(t, "run", "-q", toml, "--platform", xml, "--hostfile", hf); code != exitOK {
		t.Errorf("emu run --hostfile %s: exit %d: %s", hf, code, stderr)
	}
}

// --place's hostfile goes with the other outputs: when one of them fails to
// be written, neither the hostfile nor the others are left behind.
func TestFailedPlaceLeavesNoOutputs(t *testing.T) {
	const full = "/dev/full"
	if fi, err := os.Stat(full); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Skip("no /dev/full here")
	}
	dir := t.TempDir()
	toml := filepath.Join(dir, "place.toml")
	if err := os.WriteFile(toml, []byte(placeScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	hf, js := filepath.Join(dir, "best.txt"), filepath.Join(dir, "s.json")
	code, _, stderr := runCLI(t, "sensitivity", "-q", toml, "--place", hf, "--json", js, "--lp", full)
	if code != exitFailure || !strings.Contains(stderr, "no space left on device") {
		t.Fatalf("exit %d, stderr %q: want exit %d and ENOSPC", code, stderr, exitFailure)
	}
	checkNothingLeft(t, "sensitivity --lp "+full, dir, []string{hf, js})
}
