package replay

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/traceformat"
)

// TestClosedForm: rank 0 sends s bytes to rank 1, k links away, both at
// t = 0. Under cm02 with factors 1, no overheads and no TCP bound, the
// message is its latency phase then one flow alone on its route:
//
//	T = k·L + (s + 16)/B    (16: SMPI's envelope, on the wire)
//
// whether it is detached (s < 65536: the receive, posted at 0, starts it)
// or rendezvous (both sides posted at 0). s is the send's size: a receive
// of more bytes takes the message as sent, as SimGrid 3.32's replayer does
// (one of fewer is MPI_ERR_TRUNCATE, as there: docs/evidence/truncate.md).
func TestClosedForm(t *testing.T) {
	for _, tc := range []struct {
		k     int // links on the route: rank 1 sits on host k
		bytes int
		recv  int // the receive's size, ≥ the send's; 0: the send's
	}{
		{1, 0, 0}, {1, 8, 0}, {2, 1000, 0}, {3, 65535, 0}, {4, 65536, 0}, {4, 1 << 20, 0},
		{2, 1000, 1000000}, {4, 1 << 20, 1 << 30},
	} {
		recv := tc.bytes
		if tc.recv > 0 {
			recv = tc.recv
		}
		t.Run(fmt.Sprintf("k%d_s%d_r%d", tc.k, tc.bytes, recv), func(t *testing.T) {
			tr := ti(t,
				fmt.Sprintf("0 send 1 7 %d", tc.bytes),
				fmt.Sprintf("1 recv 0 7 %d", recv))
			res, err := replayOn(t, cm02(), tr, []int{0, tc.k})
			if err != nil {
				t.Fatal(err)
			}
			if r := testTorus(t).Route(0, tc.k); len(r.Links) != tc.k {
				t.Fatalf("route 0→%d crosses %d links, the test assumes %d", tc.k, len(r.Links), tc.k)
			}
			want := float64(tc.k)*testLatency + float64(tc.bytes+16)/testBandwidth
			if math.Abs(res.Time-want) > timeTol {
				t.Errorf("T = %.15g s, want k·L + (s+16)/B = %.15g s", res.Time, want)
			}
			if res.Events != 2 || res.Ranks != 2 || res.Format != "ti" {
				t.Errorf("result %+v", res)
			}
		})
	}
}

// TestPendingAtEnd: a rank whose trace ends with requests no wait took
// (SMPI's tracer writes nothing for MPI_Waitsome or MPI_Request_free) waits
// for them before it ends, as SimGrid's replayer does: the isend and irecv
// below, never waited, still take the closed form of TestClosedForm
// (k·L + (s + 16)/B), detached or rendezvous, not 0.
func TestPendingAtEnd(t *testing.T) {
	for _, bytes := range []int{1000, 1 << 20} {
		t.Run(fmt.Sprint(bytes), func(t *testing.T) {
			tr := ti(t, fmt.Sprintf("0 isend 1 7 %d", bytes), fmt.Sprintf("1 irecv 0 7 %d", bytes))
			res, err := replayOn(t, cm02(), tr, []int{0, 2})
			if err != nil {
				t.Fatal(err)
			}
			want := 2*testLatency + float64(bytes+16)/testBandwidth
			if math.Abs(res.Time-want) > timeTol {
				t.Errorf("T = %.15g s, want 2·L + (s+16)/B = %.15g s", res.Time, want)
			}
		})
	}
}

// TestTestPlaceholder: a test that succeeds leaves, as in SimGrid's
// replayer, a done placeholder at the back of its key's list, which the
// key's next wait pops at no cost even though a newer request of the key
// is pending (a loop posting the same key again; SMPI 3.32's replay of the
// traced calls.c depends on it). Rank 0's test at 10 µs finds the 8 bytes
// in; its wait then returns at once, so its 8 bytes to rank 2 (on a route
// of its own) leave at 10 µs and rank 2 ends 2 ms of compute later:
//
//	T = 10 µs + L + (8 + 16)/B + 2 ms
//
// (waiting for the megabyte first would add its transfer, about 1 ms).
func TestTestPlaceholder(t *testing.T) {
	cfg := cm02()
	cfg.TestCost = 0
	tr := ti(t,
		"1 send 0 4 8", "1 isend 0 4 1000000",
		"0 irecv 1 4 8", "0 compute 1e4", "0 test 1 0 4", "0 irecv 1 4 1000000", "0 wait 1 0 4", "0 send 2 5 8",
		"2 recv 0 5 8", "2 compute 2e6")
	res, err := replayOn(t, cfg, tr, []int{0, 1, testHosts - 1})
	if err != nil {
		t.Fatal(err)
	}
	want := 1e4/testSpeed + testLatency + 24/testBandwidth + 2e6/testSpeed
	if math.Abs(res.Time-want) > timeTol {
		t.Errorf("T = %.15g s, want 10 µs + L + 24/B + 2 ms = %.15g s", res.Time, want)
	}
}

// TestComputeUnits: TI's compute is flops at the host's speed, GOAL's calc
// is nanoseconds; sleep is seconds.
func TestComputeUnits(t *testing.T) {
	res, err := replayOn(t, cm02(), ti(t, "0 compute 2e9", "0 sleep 0.5"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2e9/testSpeed + 0.5; res.Time != want {
		t.Errorf("TI: T = %g s, want 2e9 flops / 1 Gf/s + 0.5 s = %g", res.Time, want)
	}
	g := loadGOAL(t, "num_ranks 1\nrank 0 {\nl1: calc 1500\nl2: calc 500\nl2 requires l1\n}\n")
	if res, err = replayOn(t, cm02(), g, nil); err != nil {
		t.Fatal(err)
	}
	if want := 2000e-9; math.Abs(res.Time-want) > timeTol {
		t.Errorf("GOAL: T = %g s, want 1500 + 500 ns = %g", res.Time, want)
	}
}

func loadGOAL(t testing.TB, text string) *traceformat.Trace {
	t.Helper()
	dir := scenariotest.WriteScenario(t, map[string]string{"s.goal": text})
	tr, err := Load(filepath.Join(dir, "s.goal"), traceformat.FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestGOALDependencies: a calc, then a send that requires it; the
// receiver's calc requires its receive. With L per link, one link
// between the hosts:
//
//	T = 1 µs (calc) + L + (8+16)/B + 2 µs (calc)
func TestGOALDependencies(t *testing.T) {
	g := loadGOAL(t, `num_ranks 2
rank 0 {
l1: calc 1000
l2: send 8b to 1 tag 5
l2 requires l1
}
rank 1 {
l1: recv 8b from 0 tag 5
l2: calc 2000
l2 requires l1
}
`)
	res, err := replayOn(t, cm02(), g, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := 1e-6 + testLatency + 24/testBandwidth + 2e-6
	if math.Abs(res.Time-want) > timeTol {
		t.Errorf("T = %.15g, want %.15g", res.Time, want)
	}
	if res.Format != "goal" || res.Events != 4 {
		t.Errorf("result %+v", res)
	}
}

// TestIrequires: an irequires lets the send start with the calc, so the
// message overlaps it: T = max(calc, message).
func TestIrequires(t *testing.T) {
	g := loadGOAL(t, `num_ranks 2
rank 0 {
l1: calc 10000
l2: send 8b to 1
l2 irequires l1
}
rank 1 {
l1: recv 8b from 0
}
`)
	res, err := replayOn(t, cm02(), g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := 10e-6; math.Abs(res.Time-want) > timeTol {
		t.Errorf("T = %g, want the calc's 10 µs (the message, 1 µs, overlaps it)", res.Time)
	}
}

// TestCollectives replays every collective and p2p form on 4 ranks and
// checks that the replay completes, counts its events and is repeatable.
func TestCollectives(t *testing.T) {
	var lines []string
	for r := 0; r < 4; r++ {
		next, prev := (r+1)%4, (r+3)%4
		for _, l := range []string{
			"init 1", "barrier", "bcast 100 1", "reduce 100 1e6 2", "allreduce 10 1e3",
			// rank r receives r+1 doubles from each rank in alltoallv, r+1 in scatterv
			"alltoall 10 10", fmt.Sprintf("alltoallv 40 1 2 3 4 40 %[1]d %[1]d %[1]d %[1]d", r+1), "gather 10 10 3", "gatherv 10 10 10 10 10 0",
			"scatter 5 5 1", fmt.Sprintf("scatterv 1 2 3 4 %d 0", r+1), "allgather 10 10 0 0", "allgatherv 3 3 3 3 3",
			"reducescatter 1 2 3 4 100", "scan 8 10", "exscan 8 10 0", "compute 1e6",
			fmt.Sprintf("isend %d 1 100", next), fmt.Sprintf("irecv %d 1 100", prev),
			fmt.Sprintf("wait %d %d 1", r, next), "waitall",
			fmt.Sprintf("sendrecv 10 %d 10 %d", next, prev),
			fmt.Sprintf("isend %d 2 10", next), fmt.Sprintf("irecv %d 2 10", prev),
			fmt.Sprintf("test %d %d 2", prev, r), "waitall", "finalize",
		} {
			lines = append(lines, fmt.Sprintf("%d %s", r, l))
		}
	}
	tr := ti(t, lines...)
	if got, want := tr.Events(), 4*25; got != want {
		t.Errorf("Events() = %d, want %d (init and finalize are not events)", got, want)
	}
	a, err := replayOn(t, cm02(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := replayOn(t, cm02(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Time != b.Time || !(a.Time > 1e-3) {
		t.Errorf("times %g and %g: want the same, above the 1 ms of compute", a.Time, b.Time)
	}
}

// TestRunErrors: schedules that cannot complete are reported, naming the
// ranks, the file and the line.
func TestRunErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string // substrings of the one-line error
		dead  bool     // a *DeadlockError, else an *UnmatchedError
	}{
		{"recv with no send", []string{"0 compute 1", "1 recv 0 3 8"},
			[]string{"deadlock", "rank 1 at t.txt:2: recv from 0 tag 3"}, true},
		{"detached send never received", []string{"0 send 1 3 8", "1 compute 1"},
			[]string{"t.txt:1: rank 0's send of 8 bytes to rank 1 tag 3 has no matching receive"}, false},
		{"rendezvous send never received", []string{"0 send 1 3 1000000", "1 compute 1"},
			[]string{"deadlock", "rank 0 at t.txt:1: send of 1000000 bytes to 1 tag 3"}, true},
		{"tags differ", []string{"0 send 1 3 8", "1 recv 0 4 8"},
			[]string{"deadlock", "rank 1 at t.txt:2: recv from 0 tag 4"}, true},
		{"irecv never matched", []string{"0 compute 1", "1 irecv 0 4 8", "1 compute 1"},
			[]string{"deadlock", "rank 1 at t.txt:2: irecv from 0 tag 4, never waited: the trace's end waits for it"}, true},
		{"wildcard irecv never matched", []string{"0 compute 1", "1 irecv -555 -1 8", "1 irecv 0 4 8"},
			[]string{"deadlock", "rank 1 at t.txt:3: irecv from 0 tag 4, never waited"}, true},
		{"bcast rank 1 skips", []string{"0 compute 1", "0 bcast 8", "1 compute 1"},
			[]string{"t.txt:2: rank 0's bcast (root 0): its message of 8 bytes to rank 1 has no matching receive (rank 1 does not call it?)"}, false},
		{"second bcast rank 1 skips", []string{"0 bcast 8", "0 bcast 16", "1 bcast 8"},
			[]string{"t.txt:2: rank 0's bcast (root 0): its message of 16 bytes to rank 1 has no matching receive"}, false},
		{"sendrecv's send never received", []string{"0 sendrecv 8 1 8 1", "1 send 0 0 8"},
			[]string{"t.txt:1: rank 0's send of 8 bytes to rank 1 tag 0 has no matching receive"}, false},
		{"head to head", []string{"0 recv 1 0 8", "0 send 1 0 8", "1 recv 0 0 8", "1 send 0 0 8"},
			[]string{"2 rank(s) blocked", "rank 0 at t.txt:1", "rank 1 at t.txt:3"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := replayOn(t, cm02(), ti(t, tc.lines...), nil)
			var dl *DeadlockError
			var un *UnmatchedError
			switch {
			case err == nil:
				t.Fatal("no error")
			case tc.dead && !errors.As(err, &dl), !tc.dead && !errors.As(err, &un):
				t.Fatalf("error %T: %v", err, err)
			case strings.Contains(err.Error(), "\n"):
				t.Errorf("error of several lines: %q", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

// TestGOALDeadlock: a GOAL receive nobody sends names the op's line.
func TestGOALDeadlock(t *testing.T) {
	g := loadGOAL(t, "num_ranks 2\nrank 0 {\nl1: recv 8b from 1 tag 2\n}\nrank 1 {\n}\n")
	_, err := replayOn(t, cm02(), g, nil)
	var dl *DeadlockError
	if !errors.As(err, &dl) || !strings.Contains(err.Error(), "rank 0 at ") || !strings.Contains(err.Error(), "s.goal:3: waiting for recv 8b from 1 tag 2") {
		t.Errorf("err = %v", err)
	}
}

// TestWildcards: a TI receive from any source (-1, or SMPI's -555) and any
// tag takes the first message to arrive, and its wait names it as traced.
func TestWildcards(t *testing.T) {
	tr := ti(t,
		"0 compute 2e6", "0 send 2 5 8",
		"1 send 2 6 8",
		"2 irecv -555 -1 8", "2 wait -555 2 -1", "2 recv -1 -1 8")
	if _, err := replayOn(t, cm02(), tr, nil); err != nil {
		t.Fatal(err)
	}
}

// TestCompletionsBeforeCalcs: rank 1's receive completes while it runs calc
// B; when B ends, the send that waits for the receive is posted before calc
// A, which became ready at the same time — as LogGOPSim serves a message
// before the CPU's next calc. Rank 2 then gets its message at
// 5 µs + L + 24 B / B and computes 20 µs:
//
//	T = 5 µs + 1 µs + 24 ns + 20 µs = 26.024 µs   (A first would give 36.024 µs)
func TestCompletionsBeforeCalcs(t *testing.T) {
	g := loadGOAL(t, `num_ranks 3
rank 0 {
l1: send 8b to 1
}
rank 1 {
l1: calc 5000
l2: recv 8b from 0
l3: calc 10000
l3 requires l1
l4: send 8b to 2
l4 requires l2
l4 requires l1
}
rank 2 {
l1: recv 8b from 1
l2: calc 20000
l2 requires l1
}
`)
	res, err := replayOn(t, cm02(), g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := 5e-6 + testLatency + 24/testBandwidth + 20e-6; math.Abs(res.Time-want) > timeTol {
		t.Errorf("T = %.15g s, want %.15g s", res.Time, want)
	}
}
