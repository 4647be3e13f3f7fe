package loggops

import (
	"math"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/traceformat"
)

// loggopsimDefaults are LogGOPSim's default parameters (L=2500, o=1500,
// g=1000, G=6, S=65535, in ns).
var loggopsimDefaults = Params{L: 2500e-9, O: 1500e-9, Gap: 1000e-9, G: 6e-9, S: 65535}

// exampleTolerance is the absolute agreement required on hand-derived
// times, in ns: the replay is exact in ps, so this only absorbs the
// conversion to float64 seconds.
const exampleTolerance = 1e-6

// TestReplayUnmatched checks that a receive nobody sends to is an error
// naming the rank and the (source, tag), as LogGOPSim reports it.
func TestReplayUnmatched(t *testing.T) {
	s, err := traceformat.Parse(strings.NewReader("num_ranks 2\nrank 0 {\n}\nrank 1 {\nrecv 8b from 0 tag 4\n}\n"), "lonely.goal")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Replay(s, loggopsimDefaults)
	if err == nil || !strings.Contains(err.Error(), "rank 1 has 1 unmatched receives (src 0, tag 4)") {
		t.Fatalf("err = %v", err)
	}
}

// TestReplayParams rejects negative and absurd parameters.
func TestReplayParams(t *testing.T) {
	s, _ := traceformat.Parse(strings.NewReader("num_ranks 1\nrank 0 {\ncalc 1\n}\n"), "p.goal")
	for _, p := range []Params{{L: -1}, {O: math.NaN()}, {G: math.Inf(1)}, {S: -1}, {Gap: 1e9}} {
		if _, err := Replay(s, p); err == nil {
			t.Errorf("Replay accepted %+v", p)
		}
	}
}

// TestRendezvousSizeMismatch reproduces LogGOPSim's quirk of deciding
// rendezvous by the recv's own size on an unexpected-queue hit (§1.4):
// a 100001-byte message (rendezvous) taken by a recv that says 8 bytes
// (eager) never completes its send, so the send's successor never runs;
// LogGOPSim still reports times. The message reaches rank 1 at 4000 but
// waits for its calc until 50000, then costs o + 100000·G = 601500.
func TestRendezvousSizeMismatch(t *testing.T) {
	const src = "num_ranks 2\nrank 0 {\nl1: send 100001b to 1\nl2: calc 10\nl2 requires l1\n}\n" +
		"rank 1 {\nl1: calc 50000\nl2: recv 8b from 0\nl2 requires l1\n}\n"
	s, err := traceformat.Parse(strings.NewReader(src), "mismatch.goal")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Replay(s, loggopsimDefaults)
	if err != nil {
		t.Fatal(err)
	}
	if res.Unstarted != 1 || math.Abs(res.RankTimes[0]*1e9-1500) > exampleTolerance || math.Abs(res.RankTimes[1]*1e9-651500) > exampleTolerance {
		t.Errorf("unstarted %d, rank times %v s; want 1, [1500 651500] ns", res.Unstarted, res.RankTimes)
	}
}

// TestReplayScale refuses a per-byte cost that would make the schedule's
// largest message overflow the replay's integer time.
func TestReplayScale(t *testing.T) {
	s, _ := traceformat.Parse(strings.NewReader("num_ranks 2\nrank 0 {\nsend 4000000000b to 1\n}\nrank 1 {\nrecv 4000000000b from 0\n}\n"), "big.goal")
	if _, err := Replay(s, Params{G: 1e-6}); err == nil || !strings.Contains(err.Error(), "4000000000-byte message") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Replay(s, Params{G: 1e-9}); err != nil { // 4 s: fine
		t.Fatal(err)
	}
}
