package platform

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// peersDir holds the peer tools' input files (SimGrid platforms, HPL.dat files);
// they must all load.
const peersDir = "../validation/testdata" // the peer inputs, vendored from shared/peers/smpi

// peerFile reads a file of the peer inputs (vendored in the repository).
func peerFile(t testing.TB, name string) []byte {
	t.Helper()
	return readFile(t, filepath.Join(peersDir, name))
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// relTol is the relative tolerance of unit conversions (dimensionless): products of
// a decimal literal and a power of ten may differ from the literal in the last bit.
const relTol = 1e-12

func close(a, b float64) bool { return math.Abs(a-b) <= relTol*math.Max(math.Abs(a), math.Abs(b)) }
