package ranks

import (
	"fmt"
	"os"
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

// TestSimGridLazyArithmetic: under SimGrid's order, the dates of the CPU
// actions are SimGrid's to the bit: each time an execution's host is
// modified (another execution or a sleep starts there, one ends, or a
// rank starts to wait on a communication still pending), Lazy recomputes
// its date from its remaining flops (lazyCPU.rewrite), which can move it
// by its last bit; two actions that end at the same date in exact
// arithmetic then wake in date order, not in the heap's tie order. The
// want values are smpirun's (testdata/lazyarith, whose README says how
// they were made): each rank's time after each compute and sleep, in the
// order SMPI printed them. Messages' times are not compared (the preset's
// network is not SMPI's default).
func TestSimGridLazyArithmetic(t *testing.T) {
	data, err := os.ReadFile("testdata/lazyarith/smpirun.txt")
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		rank int
		act  string
		at   float64
	}
	type tcase struct {
		sameHost bool
		acts     [2]string
		want     []line
	}
	var cases []*tcase
	for i, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(l)
		switch {
		case strings.HasPrefix(l, "#"):
		case len(f) == 4 && f[0] == "case":
			cases = append(cases, &tcase{sameHost: f[1] == "one", acts: [2]string{f[2], f[3]}})
		case len(f) == 3 && len(cases) > 0:
			rank, err1 := strconv.Atoi(f[0])
			at, err2 := strconv.ParseFloat(f[2], 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("smpirun.txt:%d: %q", i+1, l)
			}
			if c := f[1][0]; c == 'c' || c == 's' {
				tc := cases[len(cases)-1]
				tc.want = append(tc.want, line{rank, f[1], at})
			}
		default:
			t.Fatalf("smpirun.txt:%d: %q", i+1, l)
		}
	}
	if len(cases) < 8 {
		t.Fatalf("smpirun.txt: %d cases, want 8", len(cases))
	}
	for _, tc := range cases {
		cfg := preset(t, "cm02")
		cfg.WakeOrder = WakeSimGrid
		cfg.HostSpeed = 1e9
		place := []int{0, 1}
		if tc.sameHost {
			place = []int{0, 0}
		}
		w, err := NewWorld(cfg, newCrossbar(2, 1e9, 1e-6), place, 1)
		if err != nil {
			t.Fatal(err)
		}
		var got []line
		err = w.Run(func(r *Rank) {
			for _, a := range strings.Split(tc.acts[r.ID()], ",") {
				d, _ := strconv.ParseFloat(a[1:], 64)
				switch a[0] {
				case 'c':
					r.Compute(d, "k")
				case 's':
					r.Sleep(d)
				case 't':
					r.World().Send(int(d), 0, Msg{Bytes: 4})
				case 'r':
					r.World().Recv(int(d), 0)
				}
				if a[0] == 'c' || a[0] == 's' {
					got = append(got, line{r.ID(), a, r.Now()})
				}
			}
		})
		show := func(ls []line) string {
			var b strings.Builder
			for _, l := range ls {
				fmt.Fprintf(&b, " %d:%s@%x", l.rank, l.act, l.at)
			}
			return b.String()
		}
		if err != nil || show(got) != show(tc.want) {
			t.Errorf("same host %v, %s | %s:\n got%s (%v)\nwant%s", tc.sameHost, tc.acts[0], tc.acts[1], show(got), err, show(tc.want))
		}
	}
}
