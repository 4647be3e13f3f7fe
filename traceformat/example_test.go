package traceformat_test

import (
	"fmt"
	"strings"

	"github.com/emu-hpc/emu/traceformat"
)

// A GOAL schedule of two ranks: rank 0 computes for 100 ns, then sends
// 8 bytes with tag 3 to rank 1, which receives from any source. Counted by
// hand from the text: 3 ops, 1 message, and the send (op 1) waits for the
// calc (op 0) to complete.
func ExampleParse() {
	const goal = `num_ranks 2
rank 0 {
l1: calc 100
l2: send 8b to 1 tag 3
l2 requires l1
}
rank 1 {
recv 8b from -1 tag 5
}
`
	s, err := traceformat.Parse(strings.NewReader(goal), "two.goal")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.NumRanks(), "ranks,", s.NumOps(), "ops,", s.NumMessages(), "message")
	for i := 0; i < s.NumOps(); i++ {
		op := s.Op(i)
		fmt.Printf("op %d (line %d): rank %d %v peer %d tag %d size %d\n", i, op.Line, op.Rank, op.Kind, op.Peer, op.Tag, op.Size)
	}
	fmt.Println("op 0 is required by", s.Requires(0))
	// Output:
	// 2 ranks, 3 ops, 1 message
	// op 0 (line 3): rank 0 calc peer 0 tag 0 size 100
	// op 1 (line 4): rank 0 send peer 1 tag 3 size 8
	// op 2 (line 8): rank 1 recv peer -1 tag 5 size 8
	// op 0 is required by [1]
}

// A bad GOAL line is one error naming the file and the line: here a send
// to rank 2 of a two-rank schedule.
func ExampleParse_error() {
	const goal = "num_ranks 2\nrank 0 {\nsend 8b to 2\n}\nrank 1 {\n}\n"
	_, err := traceformat.Parse(strings.NewReader(goal), "bad.goal")
	fmt.Println(err)
	// Output:
	// bad.goal:3: send destination rank 2 outside 0..1
}

// A TI trace in one file: sizes are element counts times the datatype's
// size, MPI_BYTE by default and MPI_DOUBLE (8 bytes) after an "init" with an
// argument, so rank 0's 125 elements are 1,000 bytes; a compute stays in
// flops.
func ExampleParseTI() {
	const ti = `0 init 1
1 init 1
0 compute 2e6
0 send 1 7 125
1 recv 0 7 125
0 finalize
1 finalize
`
	tr, err := traceformat.ParseTI(strings.NewReader(ti), "ti.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tr.Format, tr.Ranks(), "ranks,", tr.Events(), "events")
	for r := 0; r < tr.TI.Ranks(); r++ {
		for _, chunk := range tr.TI.Chunks(r) {
			for _, a := range chunk {
				fmt.Printf("rank %d line %d: %v peer %d tag %d bytes %d flops %g\n", r, a.Line, a.Kind, a.Peer, a.Tag, a.Bytes, a.Flops)
			}
		}
	}
	// Output:
	// ti 2 ranks, 3 events
	// rank 0 line 3: compute peer 0 tag 0 bytes 0 flops 2e+06
	// rank 0 line 4: send peer 1 tag 7 bytes 1000 flops 0
	// rank 1 line 5: recv peer 0 tag 7 bytes 1000 flops 0
}

// Guess tells a GOAL schedule from a TI trace by its name or its first
// statement.
func ExampleGuess() {
	fmt.Println(traceformat.Guess("app.goal", nil))
	fmt.Println(traceformat.Guess("schedule.txt", []byte("num_ranks 4\n")))
	fmt.Println(traceformat.Guess("trace.txt", []byte("0 init\n")))
	// Output:
	// goal
	// goal
	// ti
}
