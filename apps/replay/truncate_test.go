package replay

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/traceformat"
)

// TestTIReceiveSmallerThanItsMessage: a TI receive of fewer bytes than the
// message it matches stops the replay with one line naming the receive's
// FILE:LINE and the sender's rank and size (SimGrid 3.32's replayer aborts
// on it: "recv - returned MPI_ERR_TRUNCATE instead of MPI_SUCCESS",
// evidence/truncate.md), however the receive completes; a receive of as
// many bytes or more takes the message (the count is an upper bound).
func TestTIReceiveSmallerThanItsMessage(t *testing.T) {
	const truncated = "MPI_ERR_TRUNCATE"
	for _, tc := range []struct {
		name  string
		lines []string
		want  string // "" when the replay completes
	}{
		{"recv", []string{"0 send 1 7 1000", "1 recv 0 7 10"},
			"t.txt:2: rank 1's recv of at most 10 bytes from rank 0 tag 7 matched rank 0's message of 1000 bytes (tag 7): " + truncated},
		{"recv rendezvous", []string{"0 send 1 7 1048576", "1 recv 0 7 8"},
			"t.txt:2: rank 1's recv of at most 8 bytes from rank 0 tag 7 matched rank 0's message of 1048576 bytes (tag 7): " + truncated},
		{"recv 0 bytes", []string{"0 send 1 7 8", "1 recv 0 7 0"},
			"t.txt:2: rank 1's recv of at most 0 bytes from rank 0 tag 7 matched rank 0's message of 8 bytes (tag 7): " + truncated},
		{"one byte short", []string{"0 send 1 7 1000", "1 recv 0 7 999"},
			"t.txt:2: rank 1's recv of at most 999 bytes"},
		{"doubles", []string{"0 send 1 7 125 0", "1 compute 1", "1 recv 0 7 124 0"}, // 1,000 B then 992 B
			"t.txt:3: rank 1's recv of at most 992 bytes from rank 0 tag 7 matched rank 0's message of 1000 bytes (tag 7): " + truncated},
		{"wildcards", []string{"0 send 1 7 1000", "1 recv -1 -1 10"},
			"t.txt:2: rank 1's recv of at most 10 bytes from any source any tag matched rank 0's message of 1000 bytes (tag 7): " + truncated},
		{"SMPI's wildcards", []string{"0 send 1 7 1000", "1 recv -555 -444 10"},
			"t.txt:2: rank 1's recv of at most 10 bytes from any source any tag matched rank 0's message of 1000 bytes (tag 7): " + truncated},
		{"irecv wait", []string{"0 send 1 7 1000", "1 irecv 0 7 10", "1 compute 1e3", "1 wait 0 1 7"},
			"t.txt:2: rank 1's irecv of at most 10 bytes from rank 0 tag 7 matched rank 0's message of 1000 bytes (tag 7): " + truncated + ", at the wait of line 4"},
		{"irecv test", []string{"0 isend 1 7 1000", "1 irecv 0 7 10", "1 compute 1e6", "1 test 0 1 7", "0 wait 0 1 7"},
			"t.txt:2: rank 1's irecv of at most 10 bytes from rank 0 tag 7 matched rank 0's message of 1000 bytes (tag 7): " + truncated + ", at the test of line 4"},
		{"irecv waitall", []string{"0 send 1 7 1000", "1 irecv 0 7 1000", "1 irecv 0 7 10", "0 send 1 7 2000", "1 waitall"},
			"t.txt:3: rank 1's irecv of at most 10 bytes from rank 0 tag 7 matched rank 0's message of 2000 bytes (tag 7): " + truncated + ", at the waitall of line 5"},
		{"irecv never waited", []string{"0 send 1 7 1000", "1 irecv 0 7 10"},
			"t.txt:2: rank 1's irecv of at most 10 bytes from rank 0 tag 7 matched rank 0's message of 1000 bytes (tag 7): " + truncated + ", at the trace's end"},
		{"second message", []string{"0 send 1 7 8", "0 send 1 7 1000", "1 recv 0 7 8", "1 recv 0 7 8"},
			"t.txt:4: rank 1's recv of at most 8 bytes from rank 0 tag 7 matched rank 0's message of 1000 bytes (tag 7): " + truncated},
		{"sendrecv", []string{"0 sendrecv 1000 1 8 1", "1 sendrecv 8 0 10 0"},
			"t.txt:2: rank 1's sendrecv's receive of at most 10 bytes from rank 0 tag 0 matched rank 0's message of 1000 bytes (tag 0): " + truncated},
		{"sendrecv in SMPI's datatypes", []string{"0 sendRecv 125 1 1 1 0 0", "1 sendRecv 1 0 124 0 0 0"},
			"t.txt:2: rank 1's sendrecv's receive of at most 992 bytes from rank 0 tag 0 matched rank 0's message of 1000 bytes (tag 0): " + truncated},
		{"exact", []string{"0 send 1 7 1000", "1 recv 0 7 1000"}, ""},
		{"sendrecv exact and larger", []string{"0 sendRecv 1000 1 8 1 6 6", "1 sendRecv 8 0 1000000 0 6 6"}, ""},
		{"larger", []string{"0 send 1 7 1000", "1 recv 0 7 1000000"}, ""},
		{"larger rendezvous", []string{"0 send 1 7 1048576", "1 irecv -1 -1 2000000", "1 wait 0 1 7"}, ""},
		{"larger in doubles", []string{"0 send 1 7 1000", "1 recv 0 7 125 0"}, ""},
		{"empty", []string{"0 send 1 7 0", "1 recv 0 7 0"}, ""},
		// The collectives' own receives take what their messages hold.
		{"collectives", []string{"0 bcast 1048576 0", "1 bcast 1048576 0", "0 gather 1000 1000 1", "1 gather 1000 1000 1",
			"0 allreduce 1048576 0", "1 allreduce 1048576 0", "0 alltoall 1048576 1048576", "1 alltoall 1048576 1048576"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := replayOn(t, cm02(), ti(t, tc.lines...), []int{0, 2})
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var te *TruncateError
			if !errors.As(err, &te) || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %v\nwant a *TruncateError, one line starting %q", err, tc.want)
			}
		})
	}
}

// TestGOALReceiveSmallerThanItsMessage: GOAL keeps LogGOPSim's reading:
// LogGOPSim matches a receive to a message by source and tag alone and
// never compares their sizes (spcl/LogGOPSim, LogGOPSim.cpp's match), so a
// receive of fewer bytes than its message, or more, takes it, under
// either semantics. Under the MPI semantics the message moves whole: the
// time is the exact receive's, k·L + s/B (the test torus, 2 links,
// cm02: 16 bytes of envelope).
func TestGOALReceiveSmallerThanItsMessage(t *testing.T) {
	const sent = 1000
	for _, recv := range []int{1, 10, 999, sent, 1000000} {
		t.Run(fmt.Sprint(recv), func(t *testing.T) {
			src := fmt.Sprintf("num_ranks 2\nrank 0 {\nsend %db to 1 tag 7\n}\nrank 1 {\nrecv %db from 0 tag 7\n}\n", sent, recv)
			s, err := traceformat.Parse(strings.NewReader(src), "r.goal")
			if err != nil {
				t.Fatal(err)
			}
			tr := &traceformat.Trace{Name: "r.goal", Format: traceformat.FormatGOAL, GOAL: s}
			res, err := replayOn(t, cm02(), tr, []int{0, 2})
			if err != nil {
				t.Fatal(err)
			}
			if want := 2*testLatency + float64(sent+16)/testBandwidth; math.Abs(res.Time-want) > timeTol {
				t.Errorf("mpi: T = %.15g s, want 2·L + (s+16)/B = %.15g s", res.Time, want)
			}
			// LogGOPS (eager: s ≤ S): o + L + (s−1)·G + o, whatever the
			// receive's size.
			p := loggops.Params{L: 3e-6, O: 1e-6, G: 1e-10, S: 65535}
			lg, err := RunLogGOPS(tr, p)
			if err != nil {
				t.Fatal(err)
			}
			if want := 2*p.O + p.L + float64(sent-1)*p.G; math.Abs(lg.Time-want) > 1e-12 {
				t.Errorf("loggops: T = %.15g s, want o + L + (s−1)·G + o = %.15g s", lg.Time, want)
			}
		})
	}
}
