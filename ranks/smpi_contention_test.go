package ranks

import (
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// TestSMPIContention: three flows under the SMPI preset on a split-duplex
// flat cluster like the peers' (10 GB/s, 1 µs per link, route = src UP +
// dst DOWN, L = 2 µs). Hand derivation from SimGrid 3.32's network_cm02.cpp
// and lmm/maxmin.cpp:
//   - A: 0→1, 1 MiB (wire 1048592: f_lat 11.6436, f_bw 0.940694), posted at 0;
//     C: 1→0, 1 MiB, posted at 0; B: 0→2, 40000 B (wire 40016: f_lat 3.48845,
//     f_bw 0.697866), posted at 20 µs. Every flow's penalty is
//     L + 2·8775/1e10 (equal), the gamma and min-bandwidth bounds never bind.
//   - A and C load nothing until 11.6436·L, B until 20 µs + 3.48845·L.
//   - A and C alone: each link carries one flow at 1 and the other's ACK at
//     0.05, so x = C/1.05. Once B joins, u0 carries A + B + 0.05·C and
//     saturates first at x = C/2.05, which freezes all three (C too: it
//     crosses u0 with its ACK stream). B moves 40016 bytes at 0.697866·x;
//     A and C then go back to C/1.05 with throughput 0.940694·x.
func TestSMPIContention(t *testing.T) {
	const bw, L = 1e10, 2e-6
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 3, Link: fluid.LinkSpec{Bandwidth: bw, Latency: L / 2, Policy: fluid.SplitDuplex}})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := NewWorld(preset(t, "smpi"), topo, []int{0, 1, 2}, 1)
	var endA, endB, endC float64
	if err := w.Run(func(r *Rank) {
		c := r.World()
		switch r.ID() {
		case 0:
			rc := c.Irecv(1, 0)
			a := c.Isend(1, 0, Msg{Bytes: 1 << 20})
			r.Compute(20e-6, "x")
			b := c.Isend(2, 0, Msg{Bytes: 40000})
			Waitall(a, b, rc)
		case 1:
			ra := c.Irecv(0, 0)
			sc := c.Isend(0, 0, Msg{Bytes: 1 << 20})
			ra.Wait()
			endA = r.Now()
			sc.Wait()
			endC = r.Now()
		case 2:
			c.Recv(0, 0)
			endB = r.Now()
		}
	}); err != nil {
		t.Fatal(err)
	}
	const sA, sB, fA, fB = 1048592.0, 40016.0, 0.940694, 0.697866
	tA := 11.6436 * L
	tB := 20e-6 + 3.48845*L
	dB := sB / (fB * bw / 2.05)
	movedA := fA*bw/1.05*(tB-tA) + fA*bw/2.05*dB
	wantB := tB + dB
	wantA := wantB + (sA-movedA)/(fA*bw/1.05)
	if !near(endA, wantA) || !near(endB, wantB) || !near(endC, wantA) {
		t.Fatalf("A, B, C end at %.12g, %.12g, %.12g s; want %.12g, %.12g, %.12g s", endA, endB, endC, wantA, wantB, wantA)
	}
}
