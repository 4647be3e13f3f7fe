package sensitivity

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/emu-hpc/emu/internal/golden"
)

// pingPongReport analyses the hand-solved ping-pong (builder_test.go) in µs
// magnitudes: T = c + 4o + 2(L + r) = 2 + 4 + 2(3 + 0.5) = 13 µs at L = 3 µs,
// λ_L = 2, ρ_L = 6/13, 1% tolerance 3 + 0.13/2 = 3.065 µs.
func pingPongReport(t *testing.T) *Report {
	g := mustBuild(t, pingPong(2e-6, 1e-6, 0.5e-6))
	r, err := Analyze(g, Params{L0: 3e-6, Lmin: 3e-6, Lmax: 13e-6, Points: 6,
		Tolerances: []float64{1, 2, 5}, Pairwise: true, MPITime: true})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestReportGolden(t *testing.T) {
	r := pingPongReport(t)
	if !close(r.Runtime, 13e-6) || r.LambdaL != 2 || !close(*r.Tolerance["1"], 3.065e-6) {
		t.Fatalf("T %v λ %d tol %v, want 13 µs, 2, 3.065 µs", r.Runtime, r.LambdaL, *r.Tolerance["1"])
	}
	var txt bytes.Buffer
	if err := r.WriteTable(&txt); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "pingpong.txt"), txt.Bytes())
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "pingpong.json"), append(js, '\n'))
	// The keys the issue asks for.
	var m map[string]any
	json.Unmarshal(js, &m)
	for _, k := range []string{"L_s", "runtime_s", "lambda_L", "lambda_L_left", "lambda_G", "rho_L", "critical_latencies_s", "tolerance_s", "curve"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
}

// TestMPITimeByHand: in the ping-pong rank 1's recv waits from 0 until the
// message arrives at c + o + L + r = 6.5 µs; the sender finished its send at
// c + o = 3 µs, so 3 µs are synchronisation (the sender was late) and 3.5 µs
// network. Rank 0's recv is ready at 3 µs (its send done); the reply leaves
// rank 1 at 6.5 + o + o = 8.5 µs and arrives at 8.5 + L + r = 12 µs: of the
// 9 µs wait, 8.5 − 3 = 5.5 µs are sync and 3.5 µs network.
func TestMPITimeByHand(t *testing.T) {
	r := pingPongReport(t)
	want := []RankTime{
		{Rank: 0, End: 13e-6, Compute: 2e-6, Stack: 2e-6, Network: 3.5e-6, Sync: 5.5e-6},
		{Rank: 1, End: 8.5e-6, Compute: 0, Stack: 2e-6, Network: 3.5e-6, Sync: 3e-6},
	}
	for i, w := range want {
		g := r.MPITime[i]
		if g.Rank != w.Rank || !close(g.End, w.End) || !close(g.Compute, w.Compute) || !close(g.Stack, w.Stack) ||
			!close(g.Network, w.Network) || !close(g.Sync, w.Sync) {
			t.Errorf("rank %d: %+v, want %+v", i, g, w)
		}
	}
	if len(r.Pairs) != 2 || r.Pairs[0].Src != 0 || r.Pairs[0].Dst != 1 || r.Pairs[0].Lambda != 1 ||
		r.Pairs[1].Src != 1 || r.Pairs[1].Dst != 0 || r.Pairs[1].Lambda != 1 {
		t.Errorf("pairs %+v, want 0→1 and 1→0 once each", r.Pairs)
	}
	if len(r.Pairs) == 2 && r.Pairs[0].LambdaG+r.Pairs[1].LambdaG != r.LambdaG {
		t.Errorf("pairs' bytes %g + %g, λ_G %g", r.Pairs[0].LambdaG, r.Pairs[1].LambdaG, r.LambdaG)
	}
}

// TestMPITimePostingEdge: an emulator-style receive completion with edges
// from the send (rank 0) and from its own rank's posting point, both with
// one latency term (observe/record.go). Rank 1 posts at 1 µs, rank 0 sends
// at 4 µs (calc 3 + o 1), L = 2 µs, rest 0.5 µs: the message arrives at
// 6.5 µs; 3 µs of the 5.5 µs wait are sync (the sender's lateness), 2.5 µs
// network.
func TestMPITimePostingEdge(t *testing.T) {
	b := NewBuilder(2)
	c0 := b.Vertex(0, Calc, 3e-6)
	s0 := b.Vertex(0, Send, 1e-6)
	p1 := b.Vertex(1, Calc, 1e-6)
	r1 := b.Vertex(1, Recv, 0)
	b.Edge(c0, s0, 0)
	b.EdgeBytes(s0, r1, 0.5e-6, 8, LatTerm{0, 1})
	b.EdgeBytes(p1, r1, 0.5e-6, 8, LatTerm{0, 1})
	r, err := Analyze(b.Graph(), Params{L0: 2e-6, MPITime: true})
	if err != nil {
		t.Fatal(err)
	}
	got := r.MPITime[1]
	if !close(got.Sync, 3e-6) || !close(got.Network, 2.5e-6) || !close(got.End, 6.5e-6) {
		t.Errorf("rank 1: %+v, want sync 3 µs, network 2.5 µs, end 6.5 µs", got)
	}
}
