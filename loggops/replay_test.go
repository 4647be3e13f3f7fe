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

// TestReplayUnmatched: a schedule that cannot complete is one error that
// starts with FILE:LINE of its first rank's oldest op left (as every other
// error of a trace does) and lists, as LogGOPSim reports them, each rank's
// unmatched receives or messages by (source, tag), each with its line.
func TestReplayUnmatched(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"lonely.goal", "num_ranks 2\nrank 0 {\n}\nrank 1 {\nrecv 8b from 0 tag 4\n}\n",
			"lonely.goal:5: the replay did not complete (deadlock or unmatched ops): rank 1 has 1 unmatched receives (src 0, tag 4, line 5)"},
		{"unexpected.goal", "num_ranks 2\nrank 0 {\nc: calc 5\ns: send 8b to 1 tag 2\n}\nrank 1 {\n}\n",
			"unexpected.goal:4: the replay did not complete (deadlock or unmatched ops): rank 1 has 1 unexpected messages never received (src 0, tag 2, line 4)"},
		// each rank waits to receive before it sends: the receives are what is left
		{"crossed.goal", "num_ranks 2\nrank 0 {\nr: recv 8b from 1 tag 0\ns: send 8b to 1 tag 0\ns requires r\n}\n" +
			"rank 1 {\nr: recv 8b from 0 tag 0\ns: send 8b to 0 tag 0\ns requires r\n}\n",
			"crossed.goal:3: the replay did not complete (deadlock or unmatched ops): rank 0 has 1 unmatched receives (src 1, tag 0, line 3); rank 1 has 1 unmatched receives (src 0, tag 0, line 8)"},
		// the oldest op left names the error, whatever order the lists are kept in
		{"two.goal", "num_ranks 2\nrank 0 {\na: recv 8b from 1 tag 1\nb: recv 8b from 1 tag 2\n}\nrank 1 {\n}\n",
			"two.goal:3: the replay did not complete (deadlock or unmatched ops): rank 0 has 2 unmatched receives"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := traceformat.Parse(strings.NewReader(tc.src), tc.name)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Replay(s, loggopsimDefaults)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant  %s", err, tc.want)
			}
		})
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
	if res.Unstarted != 1 || res.UnstartedLine != 4 || math.Abs(res.RankTimes[0]*1e9-1500) > exampleTolerance || math.Abs(res.RankTimes[1]*1e9-651500) > exampleTolerance {
		t.Errorf("unstarted %d (first on line %d), rank times %v s; want 1 (l2, line 4), [1500 651500] ns", res.Unstarted, res.UnstartedLine, res.RankTimes)
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
