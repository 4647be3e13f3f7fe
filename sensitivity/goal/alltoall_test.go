package goal

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/traceformat"
)

// linearAlltoall writes Schedgen's linear_alltoall pattern (schedgen -p
// linear_alltoall -s n -d size): rank r sends to r+i and receives from
// r−i, i = 1..n−1, all ops independent, tag 0.
func linearAlltoall(n, size int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "num_ranks %d\n", n)
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "\nrank %d {\n", r)
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "l%d: send %db to %d tag 0\n", 2*i-1, size, (r+i)%n)
			fmt.Fprintf(&b, "l%d: recv %db from %d tag 0\n", 2*i, size, (r-i+n)%n)
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}

// TestLinearAlltoall checks the generator against the peer file for 32
// ranks byte for byte, then replays 256 ranks, whose LogGOPSim runtime
// at L = 3 µs, o = 5 µs, g = 0, G = 0.018 ns/B is 2 554 695.570 ns
// (shared/reference/goal-and-llamp.md §8.2; LogGOPSim took 4.9 s on it,
// its linear queues holding up to 255 entries per rank).
func TestLinearAlltoall(t *testing.T) {
	peer, err := os.ReadFile(filepath.Join(peerDir, "goal", "linear_alltoall_32.goal"))
	if err != nil {
		t.Fatalf("vendored peer file missing: %v", err)
	}
	if !bytes.Equal(linearAlltoall(32, 1024), peer) {
		t.Fatal("generated linear_alltoall_32 differs from Schedgen's")
	}
	s, err := traceformat.Parse(bytes.NewReader(linearAlltoall(256, 1024)), "linear_alltoall_256.goal")
	if err != nil {
		t.Fatal(err)
	}
	res, err := loggops.Replay(s, loggops.Params{L: 3e-6, O: 5e-6, G: 0.018e-9, S: 65535})
	if err != nil {
		t.Fatal(err)
	}
	const want = 2554695.570 // ns
	if got := res.Runtime * 1e9; math.Abs(got-want) > peerTolerance*want {
		t.Errorf("replay %.3f ns, LogGOPSim %.3f ns", got, want)
	}
}
