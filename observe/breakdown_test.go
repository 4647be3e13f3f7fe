package observe_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/ranks"
)

// timeEps bounds float round-off in sums of simulated times, s.
const timeEps = 1e-12

func TestBreakdownHandSolved(t *testing.T) {
	// Two hosts, 10 GB/s split-duplex private links of 1 us: a route is 2 links, 2 us.
	// Rank 0 computes 1 s, then sends 1 MB (rendezvous, above the 64 KiB eager limit);
	// rank 1 has posted its receive at 0. Under cm02 the transfer takes
	// T = 2 us + (1e6 + 16 envelope bytes)/1e10 B/s = 102.0016 us, so:
	//   rank 0: compute 1 s, communication T (its send moves from post to arrival);
	//   rank 1: waiting 1 s (nobody sends), communication T (matched until the last byte).
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 2, Link: fluid.LinkSpec{Bandwidth: 1e10, Latency: 1e-6, Policy: fluid.SplitDuplex}})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ranks.Preset("cm02")
	if err != nil {
		t.Fatal(err)
	}
	w, err := ranks.NewWorld(cfg, topo, []int{0, 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	b := observe.NewBreakdown(2)
	w.AddHook(b.Hook)
	err = w.Run(func(r *ranks.Rank) {
		if r.ID() == 0 {
			r.Compute(1, "dgemm")
			r.World().Send(1, 0, ranks.Msg{Bytes: 1e6})
		} else {
			r.World().Recv(0, 0)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	b.Finish(w.Now())
	transfer := 2e-6 + (1e6+16)/1e10
	want := [][3]float64{{1, transfer, 0}, {0, transfer, 1}}
	for r, w3 := range want {
		got := [3]float64{b.Compute[r], b.Comm[r], b.Wait[r]}
		for i := range got {
			if math.Abs(got[i]-w3[i]) > timeEps {
				t.Errorf("rank %d: compute/comm/wait = %v, want %v", r, got, w3)
				break
			}
		}
	}
	var csv bytes.Buffer
	if err := b.WriteCSV(&csv); err != nil || !strings.HasPrefix(csv.String(), "rank,compute_s,comm_s,wait_s\n0,1,") {
		t.Errorf("CSV %q: %v", csv.String(), err)
	}
}
