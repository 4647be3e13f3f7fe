package scenario

import (
	"math"
	"os"
	"testing"
)

// relTol is the relative tolerance of unit conversions (dimensionless): products of
// a decimal literal and a power of ten may differ from the literal in the last bit.
const relTol = 1e-12

func close(a, b float64) bool { return math.Abs(a-b) <= relTol*math.Max(math.Abs(a), math.Abs(b)) }

// peersDir holds the peer tools' input files (SimGrid platforms, HPL.dat files);
// they must all load.
const peersDir = "../validation/testdata" // the peer inputs, vendored from shared/peers/smpi

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mustSet applies each of sets to s, as emu run's --set flags.
func mustSet(t *testing.T, s *Scenario, sets []string) {
	t.Helper()
	for _, kv := range sets {
		if err := s.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
}

// defaultOr is src parsed as s.toml, or the embedded default when src is "".
func defaultOr(t *testing.T, src string) *Scenario {
	t.Helper()
	if src == "" {
		return Default()
	}
	s, err := Parse([]byte(src), "s.toml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
