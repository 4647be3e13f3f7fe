package loggops

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/traceformat"
)

// TestReplayWrap: a 0-byte message costs g + (0−1)·G on the NIC and
// o + (0−1)·O on the CPU, which LogGOPSim computes in unsigned 64-bit time:
// where that goes below 0 its time wraps near 2⁶⁴ (both runs below were
// made with spcl/LogGOPSim 76451de, its unit taken as ns). Where such a
// time is read again the replay stops with a WrapError naming the send's
// line; where the costs stay at or above 0, or the time below 0 is never
// read, it gives LogGOPSim's times, solved by hand.
func TestReplayWrap(t *testing.T) {
	const (
		// rank 0 sends 0 bytes then 8 bytes to rank 1.
		twoSends = "num_ranks 2\nrank 0 {\nl0: calc %C\nl1: send 0b to 1\nl2: send 8b to 1 tag 1\nl1 requires l0\nl2 requires l1\n}\n" +
			"rank 1 {\nl0: recv 0b from 0\nl1: recv 8b from 0 tag 1\n}\n"
		oneZero = "num_ranks 2\nrank 0 {\nl0: send 0b to 1\n}\nrank 1 {\nl0: recv 0b from 0\n}\n"
	)
	ns := func(v float64) float64 { return v * 1e-9 }
	sendSide := Params{L: 0, O: ns(10), Gap: 0, G: ns(5), OPerByte: ns(5), S: 512}
	for _, tc := range []struct {
		name, src string
		p         Params
		wrapLine  int       // GOAL line of the send where time wraps; 0: none
		receipt   bool      // the wrap happens where rank 1 receives it (else where rank 0 sends it)
		hosts     []float64 // ns, when it does not wrap
	}{
		// At t = 0 the 0-byte send frees the NIC at 0 + 0 − 5: LogGOPSim
		// holds the next send until 2⁶⁴ − 5 and prints 40 for host 0
		// (2⁶⁴ − 5 + 10 + 7·5, wrapped), 60 for host 1.
		{"send wraps", strings.Replace(twoSends, "%C", "0", 1), sendSide, 4, false, nil},
		// A 5 ns calc first: the NIC is free from 5 − 5 = 0. Rank 0: the
		// 8-byte send at max(o's 5 + 10 − 5, 0) = 10 holds the CPU to
		// 10 + 10 + 7·5 = 55. Rank 1: the first message at 5 + 10 + L = 15
		// costs o + max(−O, −G) = 5 (to 20), the second, at 20,
		// 10 + 7·5 (to 65). LogGOPSim prints 55 and 65.
		{"calc first", strings.Replace(twoSends, "%C", "5", 1), sendSide, 0, false, []float64{55, 65}},
		// o = 2 < G = 5 with O = 0: the receipt costs o − G, and the
		// message arrives at 0 + o + L = 2, so rank 1's CPU is free "from"
		// 2 + 2 − 5 = −1: LogGOPSim prints 18446744073709551615.
		{"receipt wraps", oneZero, Params{O: ns(2), Gap: ns(10), G: ns(5), S: 512}, 3, true, nil},
		// L = 1: from 3 + 2 − 5 = 0. LogGOPSim prints 2 and 0.
		{"receipt at 0", oneZero, Params{L: ns(1), O: ns(2), Gap: ns(10), G: ns(5), S: 512}, 0, false, []float64{2, 0}},
		// g = 0 < G = 5: rank 0's NIC is free "from" −5, but nothing reads
		// it again, and LogGOPSim prints CPU times: 10 for rank 0, and
		// 10 + 10 − 5 = 15 for rank 1 (the message arrives at 0 + o + L).
		{"NIC wraps unread", oneZero, Params{O: ns(10), G: ns(5), S: 512}, 0, false, []float64{10, 15}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := traceformat.Parse(strings.NewReader(tc.src), "wrap.goal")
			if err != nil {
				t.Fatal(err)
			}
			res, err := Replay(s, tc.p)
			var wrap *WrapError
			if tc.wrapLine > 0 {
				if !errors.As(err, &wrap) || wrap.Line != tc.wrapLine || wrap.Receipt != tc.receipt || wrap.Rank != map[bool]int{false: 0, true: 1}[tc.receipt] {
					t.Fatalf("err = %v, want a WrapError at line %d (receipt %v)", err, tc.wrapLine, tc.receipt)
				}
				if msg := err.Error(); !strings.HasPrefix(msg, "wrap.goal:") || strings.Contains(msg, "\n") {
					t.Errorf("not one line naming the file: %q", msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for h, want := range tc.hosts {
				if got := res.RankTimes[h] * 1e9; math.Abs(got-want) > exampleTolerance {
					t.Errorf("host %d: %g ns, want %g", h, got, want)
				}
			}
		})
	}
}

// TestWrapErrorParams: the refusal prints its parameters as given, not
// their float residue: emu analyze's o of 5 µs arrives as
// 4.9999999999999996e-06 s (it printed so).
func TestWrapErrorParams(t *testing.T) {
	e := &WrapError{Schedule: "w.goal", Line: 4, Params: Params{O: math.Nextafter(5e-6, 0), Gap: 0, G: 1.8e-11, OPerByte: 0}}
	const want = "(o = 5e-06 s, g = 0 s, G = 1.8e-11 s/B, O = 0 s/B)"
	if msg := e.Error(); !strings.Contains(msg, want) {
		t.Errorf("%q: want %q", msg, want)
	}
}
