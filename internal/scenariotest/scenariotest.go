package scenariotest

import (
	"os"
	"path/filepath"
	"testing"
)

// VarScenario is a 4-host cluster whose hosts are named n0 … n3, one rank
// per host, a 1×4 HPL on the SMPI study's dgemm/dtrsm rates without their
// intercepts: HPL's update splits its dgemm into chunks as the broadcast
// progresses, so the number of calls depends on timing, but without an
// intercept a rank's compute total (its flops × rate) does not.
const VarScenario = `
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

// JobsPlatform is a fat tree of 4 leaves of 8 hosts with 2 up-links a leaf
// (4:1), so that jobs on different leaves share no link and jobs spread
// over the leaves share the up-links.
const JobsPlatform = `seed = 1
[platform]
topology = "fat-tree"
fat_tree = "2;8,4;1,2;1,1"
link_bandwidth = "10GBps"
link_latency = "1us"
`

// RingJob and CongestorJob are [[jobs]] entries of 16 ranks; extra keys
// (placement, start) go right after the header.
func RingJob(extra string) string {
	return "\n[[jobs]]\nname = \"ring\"\napp = \"ring\"\nranks = 16\n" + extra + "[jobs.ring]\nsizes = [\"1MiB\"]\niterations = 5\n"
}

// CongestorJob: see RingJob.
func CongestorJob(extra string) string {
	return "\n[[jobs]]\nname = \"congestor\"\napp = \"congestor\"\nranks = 16\n" + extra +
		"[jobs.congestor]\npattern = \"all-to-all\"\nbytes = \"1MiB\"\niterations = 5\n"
}

// LogGOPSPlatform is LogGOPSim's parameters of the study's runs (L = 3 µs,
// o = 5 µs, G = 0.018 ns/byte, g = 0, S = 65535) written as a scenario: a
// flat cluster whose routes cross two links of L/2 at 1/G bytes/s.
const LogGOPSPlatform = `
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

// ReplayPlatform is the small fat tree (2 leaves of 4 hosts) the replay
// tests run their traces on.
const ReplayPlatform = `
[platform]
topology = "fat-tree"
fat_tree = "2;4,2;1,2;1,1"
link_bandwidth = "10GBps"
link_latency = "1us"
speed = "1Gf"
`

// WriteScenario writes files (name → text) into a fresh temporary folder
// and returns it.
func WriteScenario(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// WriteReplay writes a scenario that replays trace on ReplayPlatform, the
// trace in a subfolder so that its path is resolved against the scenario's
// folder, and returns the scenario file's path.
func WriteReplay(t testing.TB, trace string) string {
	t.Helper()
	dir := WriteScenario(t, map[string]string{
		"s.toml": "app = \"replay\"\n[replay]\nfile = \"sub/t.txt\"\n" + ReplayPlatform,
	})
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "t.txt"), []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "s.toml")
}
