package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/scenario"
)

// relTol is the relative tolerance of unit conversions (dimensionless): products of
// a decimal literal and a power of ten may differ from the literal in the last bit.
const relTol = 1e-12

// varScenario is a 4-host cluster whose hosts are named n0 … n3, one rank
// per host, a 1×4 HPL on the SMPI study's dgemm/dtrsm rates without their
// intercepts: HPL's update splits its dgemm into chunks as the broadcast
// progresses, so the number of calls depends on timing, but without an
// intercept a rank's compute total (its flops × rate) does not.
const varScenario = `
seed = 3
[platform]
hosts = 4
host_prefix = "n"
link_bandwidth = "10Gbps"
link_latency = "1us"
[kernels]
mode = "model"
[kernels.dgemm]
terms = ["m*n*k"]
coef = [1.029e-11]
intercept = 0
[kernels.dtrsm]
terms = ["w"]
coef = [1.029e-11]
intercept = 0
[hpl]
n = 1200
nb = 64
grids = [[1, 4]]
`

func varPlan(t *testing.T, doc string, sets ...string) (*scenario.Plan, error) {
	t.Helper()
	s, err := scenario.Parse([]byte(doc), "var.toml")
	if err != nil {
		return nil, err
	}
	for _, kv := range sets {
		if err := s.Set(kv); err != nil {
			return nil, err
		}
	}
	return s.Validate()
}

// jobsPlatform is a fat tree of 4 leaves of 8 hosts with 2 up-links a leaf
// (4:1), so that jobs on different leaves share no link and jobs spread
// over the leaves share the up-links.
const jobsPlatform = `seed = 1
[platform]
topology = "fat-tree"
fat_tree = "2;8,4;1,2;1,1"
link_bandwidth = "10GBps"
link_latency = "1us"
`

// ringJob and congestorJob are [[jobs]] entries of 16 ranks; extra keys
// (placement, start) go right after the header.
func ringJob(extra string) string {
	return "\n[[jobs]]\nname = \"ring\"\napp = \"ring\"\nranks = 16\n" + extra + "[jobs.ring]\nsizes = [\"1MiB\"]\niterations = 5\n"
}

func congestorJob(extra string) string {
	return "\n[[jobs]]\nname = \"congestor\"\napp = \"congestor\"\nranks = 16\n" + extra +
		"[jobs.congestor]\npattern = \"all-to-all\"\nbytes = \"1MiB\"\niterations = 5\n"
}

// logGOPSPlatform is LogGOPSim's parameters of the study's runs (L = 3 µs,
// o = 5 µs, G = 0.018 ns/byte, g = 0, S = 65535) written as a scenario: a
// flat cluster whose routes cross two links of L/2 at 1/G bytes/s.
const logGOPSPlatform = `
[platform]
topology = "flat"
hosts = 64
cores_per_host = 1
link_latency = "1.5us"
link_bandwidth = "55.5555555556GBps"
speed = "1Gf"
[network]
send_overhead = "5us"
isend_overhead = "5us"
recv_overhead = "5us"
eager_threshold = 65536
`

// approxBase is a 2×2 HPL scenario whose [hpl] table ends the file, so that
// a key appended to it lands on line 9.
const approxBase = "app = \"hpl\"\n[platform]\nhosts = 4\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n[hpl]\nn = 1000\ngrids = [[2, 2]]\n"

// approxPlan validates src (with hplDat replacing its table if given, then
// the sets) and returns the plan; when wantErr is set it checks that the
// error starts with it instead and returns nil.
func approxPlan(t *testing.T, src, hplDat, wantErr string, sets ...string) *scenario.Plan {
	t.Helper()
	s, err := scenario.Parse([]byte(src), "s.toml")
	if err == nil && hplDat != "" {
		err = s.UseHPLDat(hplDat)
	}
	for _, kv := range sets {
		if err == nil {
			err = s.Set(kv)
		}
	}
	var p *scenario.Plan
	if err == nil {
		p, err = s.Validate()
	}
	if wantErr != "" {
		if err == nil || !strings.HasPrefix(err.Error(), wantErr) {
			t.Fatalf("got %v, want %q...", err, wantErr)
		}
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustPlan(t *testing.T, s *scenario.Scenario, err error) *scenario.Plan {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func validate(doc string) (*scenario.Plan, error) {
	s, err := scenario.Parse([]byte(doc), "s.toml")
	if err != nil {
		return nil, err
	}
	return s.Validate()
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// writeScenario writes files into a temporary folder and returns it.
func writeScenario(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const replayPlatform = `
[platform]
topology = "fat-tree"
fat_tree = "2;4,2;1,2;1,1"
link_bandwidth = "10GBps"
link_latency = "1us"
speed = "1Gf"
`
