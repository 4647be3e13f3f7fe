package goal

import (
	"bytes"
	"fmt"
	"math"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/emu-hpc/emu/internal/loggopspeers"
	"github.com/emu-hpc/emu/sensitivity"
	"github.com/emu-hpc/emu/traceformat"
)

// binomialTreeBcast writes Schedgen's binomialtreebcast pattern (schedgen
// -p binomialtreebcast -s n -d size): rank r > 0 receives from r with its
// highest bit cleared, then every rank sends to r + 2^k for each 2^k above
// r's highest bit, each send waiting for the receive.
func binomialTreeBcast(n, size int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "num_ranks %d\n", n)
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "\nrank %d {\n", r)
		lab, step := 1, 1
		if r > 0 {
			high := 1 << (bits.Len(uint(r)) - 1)
			fmt.Fprintf(&b, "l1: recv %db from %d tag 0\n", size, r-high)
			lab, step = 2, high<<1
		}
		for ; r+step < n; step <<= 1 {
			fmt.Fprintf(&b, "l%d: send %db to %d tag 0\n", lab, size, r+step)
			if r > 0 {
				fmt.Fprintf(&b, "l%d requires l1\n", lab)
			}
			lab++
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}

// checkCurve replays s once at the first row's L, records the graph, and
// compares the replay and the graph's T(L) at every row with LogGOPSim.
func checkCurve(t *testing.T, s *traceformat.Schedule, runs []peerRow) {
	b := sensitivity.NewBuilder(s.NumRanks())
	res, err := ReplayGraph(s, peerParams(runs[0]), b)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Runtime*1e9, runs[0].Runtime; math.Abs(got-want) > peerTolerance*want || res.Events != runs[0].Events {
		t.Fatalf("replay %.3f ns with %d events, LogGOPSim %.3f ns with %d", got, res.Events, want, runs[0].Events)
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range runs {
		if T := g.Runtime([]float64{row.L * 1e-9}) * 1e9; math.Abs(T-row.Runtime) > graphTolerance*row.Runtime {
			t.Errorf("L = %g ns: graph %.3f ns, LogGOPSim %.3f ns", row.L, T, row.Runtime)
		}
	}
}

// TestBinomialTreeBcast checks the generator byte for byte against the
// 1024-rank peer file, then replays 65536 ranks against results.csv.
func TestBinomialTreeBcast(t *testing.T) {
	peer, err := os.ReadFile(filepath.Join(peerDir, "goal", "binomialtreebcast_1024.goal"))
	if err != nil {
		t.Fatalf("vendored peer file missing: %v", err)
	}
	if !bytes.Equal(binomialTreeBcast(1024, 8), peer) {
		t.Fatal("generated binomialtreebcast_1024 differs from Schedgen's")
	}
	runs, ok := loggopspeers.MustResults(t, peerDir)["binomialtreebcast_65536"]
	if !ok {
		t.Skip("no LogGOPSim run of binomialtreebcast_65536")
	}
	s, err := traceformat.Parse(bytes.NewReader(binomialTreeBcast(65536, 8)), "binomialtreebcast_65536.goal")
	if err != nil {
		t.Fatal(err)
	}
	checkCurve(t, s, runs)
}

// TestStencil32 generates the 32×32-rank, 100-iteration stencil with
// shared/tools/gen_stencil.py (1.4 M events) and compares it with
// LogGOPSim at the 11 L of results.csv.
func TestStencil32(t *testing.T) {
	runs, ok := loggopspeers.MustResults(t, peerDir)["stencil2d_32x32_it100"]
	if !ok {
		t.Skip("no LogGOPSim run of stencil2d_32x32_it100")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	path := filepath.Join(t.TempDir(), "stencil2d_32x32_it100.goal")
	gen := exec.Command(py, filepath.Join("..", "..", "..", "shared", "tools", "gen_stencil.py"), "32", "32", "100", "10000", "8192", path)
	if out, err := gen.CombinedOutput(); err != nil {
		t.Skipf("gen_stencil.py: %v %s", err, out)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := traceformat.Parse(f, filepath.Base(path))
	if err != nil {
		t.Fatal(err)
	}
	checkCurve(t, s, runs)
}
