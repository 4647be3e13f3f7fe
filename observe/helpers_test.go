package observe_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/emu-hpc/emu/scenario"
)

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

func replayPlan(t *testing.T, trace string, sets ...string) *scenario.Plan {
	t.Helper()
	dir := writeScenario(t, map[string]string{
		"s.toml": "app = \"replay\"\n[replay]\nfile = \"sub/t.txt\"\n" + replayPlatform,
	})
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "t.txt"), []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	return loadPlan(t, filepath.Join(dir, "s.toml"), sets...)
}

// loadPlan loads the scenario file, applies the sets and validates it.
func loadPlan(t *testing.T, file string, sets ...string) *scenario.Plan {
	t.Helper()
	s, err := scenario.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range sets {
		if err := s.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// relTol is the relative tolerance of unit conversions (dimensionless).
const relTol = 1e-12

func close(a, b float64) bool { return math.Abs(a-b) <= relTol*math.Max(math.Abs(a), math.Abs(b)) }
