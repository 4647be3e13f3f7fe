package ranks

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestSimGridLazyCPUTies: two ranks whose CPU actions end at the same date
// wake in the order of SimGrid's lazy CPU heap (lazyCPU), not in the order
// their timers were set. Each rank runs a list of actions: cD computes D s
// (an execution in SMPI), sD sleeps D s. The want column is the wake order
// that SimGrid 3.32 (smpirun, cpu/optim:Lazy, simulate-computation:no) gave
// for a two-rank program making the same calls (smpi_execute_flops at
// 1 Gf, usleep), with both ranks on one 2-core host or on one host each
// (docs/evidence/sgnext.md). fifo is the order the timers were set, FIFO's:
// SimGrid's under cpu/optim:Full where it was run (rows 1, 5 and 10).
func TestSimGridLazyCPUTies(t *testing.T) {
	for _, tc := range []struct {
		sameHost bool
		a, b     string // ranks 0 and 1
		want     string
		fifo     string
	}{
		{true, "c1", "c1", "[1 0]", "[0 1]"},        // same host: the newest execution first
		{false, "c1", "c1", "[0 1]", "[0 1]"},       // two hosts: the host modified first
		{true, "c2", "c1,s1", "[1 0]", "[0 1]"},     // the sleep's entry, then the host's executions rewritten
		{false, "c2", "c1,s1", "[0 1]", "[0 1]"},    // the other host's execution keeps its older entry
		{true, "c2", "c1,c1", "[1 0]", "[0 1]"},     // both rewritten at 1 s, newest first
		{false, "c2", "c1,c1", "[0 1]", "[0 1]"},    // only host 1's rewritten
		{false, "s2", "c1,c1", "[0 1]", "[0 1]"},    // a sleep's entry is written once
		{true, "s2", "c1,c1", "[0 1]", "[0 1]"},     // even where its host is modified later
		{true, "c2", "s1,s1", "[1 0]", "[0 1]"},     // a sleep started on the host rewrites its executions
		{true, "c0.5,c1.5", "c2", "[0 1]", "[1 0]"}, // rank 0's second execution is the newest
	} {
		for _, order := range []WakeOrder{WakeRank, WakeFIFO, WakeSimGrid} {
			cfg := preset(t, "cm02")
			cfg.WakeOrder = order
			place := []int{0, 1}
			if tc.sameHost {
				place = []int{0, 0}
			}
			w, err := NewWorld(cfg, newCrossbar(2, 1e9, 1e-6), place, 1)
			if err != nil {
				t.Fatal(err)
			}
			var woke []int
			err = w.Run(func(r *Rank) {
				acts := tc.a
				if r.ID() == 1 {
					acts = tc.b
				}
				for _, a := range strings.Split(acts, ",") {
					d, _ := strconv.ParseFloat(a[1:], 64)
					if a[0] == 'c' {
						r.Compute(d, "k")
					} else {
						r.Sleep(d)
					}
				}
				woke = append(woke, r.ID())
			})
			want := map[WakeOrder]string{WakeRank: "[0 1]", WakeFIFO: tc.fifo, WakeSimGrid: tc.want}[order]
			if got := fmt.Sprint(woke); err != nil || got != want {
				t.Errorf("same host %v, %s | %s, order %v: woke %s (%v), want %s", tc.sameHost, tc.a, tc.b, order, got, err, want)
			}
		}
	}
}
