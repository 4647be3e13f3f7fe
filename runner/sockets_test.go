package runner

import (
	"fmt"
	"math"
	"testing"

	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/platform"
)

// TestPerCPUModelsFollowTheSockets runs a 1×2 HPL on one host of 4 cores and
// 2 sockets where only CPU 1's dgemm costs anything: in cyclic order rank 1
// is on CPU 1 and pays; in block order ranks 0 and 1 are both on CPU 0.
func TestPerCPUModelsFollowTheSockets(t *testing.T) {
	doc := func(order string) string {
		return fmt.Sprintf(`[platform]
hosts = 1
cores_per_host = 4
sockets_per_host = 2
socket_order = %q
link_bandwidth = "10Gbps"
link_latency = "1us"
[hpl]
n = 512
nb = 64
grids = [[1, 2]]
[kernels]
mode = "model"
[kernels.dgemm]
intercept = 0.0
[kernels.dgemm.host."host-0/cpu1"]
intercept = 1e-3
`, order)
	}
	dgemm := func(order string) (float64, int) {
		p, err := validate(doc(order))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(p, Options{Kernels: &observe.KernelLog{}})
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range res.Kernels {
			if k.Kernel == "dgemm" {
				return k.Seconds, k.Calls
			}
		}
		t.Fatalf("%s: no dgemm in %+v", order, res.Kernels)
		return 0, 0
	}
	if s, _ := dgemm(platform.SocketsBlock); s != 0 {
		t.Errorf("block: dgemm charged %g s, want 0 (both ranks on CPU 0)", s)
	}
	// Rank 1's calls each cost 1 ms: a whole number of ms, more than 0 and
	// fewer than all the calls (rank 0's are free).
	s, calls := dgemm(platform.SocketsCyclic)
	if ms := s * 1e3; !(ms >= 1 && ms < float64(calls)) || abs(ms-math.Round(ms)) > 1e-6 {
		t.Errorf("cyclic: dgemm charged %g s over %d calls, want a whole number of ms, some calls but not all", s, calls)
	}
}
