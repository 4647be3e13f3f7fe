package loggops

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/traceformat"
)

// callLog is a Hooks that writes down every call.
type callLog []string

func (l *callLog) Queued(op int32)  { *l = append(*l, fmt.Sprintf("queued %d", op)) }
func (l *callLog) Started(op int32) { *l = append(*l, fmt.Sprintf("started %d", op)) }
func (l *callLog) Arrived(s int32)  { *l = append(*l, fmt.Sprintf("arrived %d", s)) }
func (l *callLog) Matched(r, s int32, posted bool) {
	*l = append(*l, fmt.Sprintf("matched %d %d posted=%v", r, s, posted))
}
func (l *callLog) Freed(s int32, c, n int) {
	*l = append(*l, fmt.Sprintf("freed %d cpu %d nic %d", s, c, n))
}
func (l *callLog) Met(p, s int32, start bool, st *OpState) {
	*l = append(*l, fmt.Sprintf("met %d→%d start=%v", p, s, start))
}

// TestHooksHearTheLoop: the decisions of LogGOPSim's loop on a rendezvous,
// solved by hand under LogGOPSim's defaults (L 2500, o 1500, g 1000, G 6 ns,
// S 65535). Ops: 0 rank 0's 100000-byte send, 1 its calc after it, 2 rank 1's
// 5000 ns calc, 3 its receive after that. At 0 both roots are queued (rank
// by rank) and start; the calc's end releases the receive, queued at its
// CPU's free time 5000. The message arrives at o + L = 4000 with the CPU
// busy, so it is processed at 5000, before the receive (its insertion
// number is older): unexpected. The receive, posted at 5000, takes it
// (posted), which completes the rendezvous send, frees rank 0's CPU and NIC
// at 5000 and releases its calc. Rank 1 ends at 5000 + o + 99999·G =
// 606494 ns.
func TestHooksHearTheLoop(t *testing.T) {
	const src = "num_ranks 2\nrank 0 {\nl1: send 100000b to 1 tag 0\nl2: calc 10\nl2 requires l1\n}\n" +
		"rank 1 {\nl1: calc 5000\nl2: recv 100000b from 0 tag 0\nl2 requires l1\n}\n"
	s, err := traceformat.Parse(strings.NewReader(src), "rendezvous.goal")
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(s, loggopsimDefaults, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var log callLog
	e.SetHooks(&log)
	res, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"queued 0", "queued 2", "started 0", "started 2", "met 2→3 start=false", "queued 3",
		"arrived 0", "matched 3 0 posted=true", "freed 0 cpu 0 nic 0", "met 0→1 start=false", "queued 1",
		"started 1",
	}
	if !slices.Equal(log, want) {
		t.Errorf("hooks heard\n  %s\nwant\n  %s", strings.Join(log, ", "), strings.Join(want, ", "))
	}
	if math.Abs(res.Runtime*1e9-606494) > exampleTolerance {
		t.Errorf("runtime %.3f ns, want 606494", res.Runtime*1e9)
	}
	// The hooks change nothing: the same replay without them.
	plain, err := Replay(s, loggopsimDefaults)
	if err != nil || plain.Runtime != res.Runtime || plain.Events != res.Events {
		t.Errorf("without hooks: %+v, %v; with: %+v", plain, err, res)
	}
}
