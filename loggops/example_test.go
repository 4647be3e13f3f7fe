package loggops_test

import (
	"fmt"
	"strings"

	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/traceformat"
)

// defaults are LogGOPSim's default parameters (L = 2500 ns, o = 1500 ns,
// g = 1000 ns, G = 6 ns/byte, S = 65535 bytes), in seconds.
var defaults = loggops.Params{L: 2500e-9, O: 1500e-9, Gap: 1000e-9, G: 6e-9, S: 65535}

func parse(goal string) *traceformat.Schedule {
	s, err := traceformat.Parse(strings.NewReader(goal), "example.goal")
	if err != nil {
		panic(err)
	}
	return s
}

// Three 1,000-byte sends back to back, the worked example of
// shared/reference/goal-and-llamp.md §5.7 (checked there against
// LogGOPSim): each send waits for the NIC's g + (s−1)·G = 6,994 ns, so they
// start at 0, 6,994 and 13,988 ns and the sender ends at 13,988 + o =
// 15,488 ns. The receiver processes them at 4,000 (o + L), 11,494 and
// 18,988 ns, its CPU busy o + (s−1)·G = 7,494 ns each: it ends at 26,482 ns.
func ExampleReplay() {
	s := parse(`num_ranks 2
rank 0 {
l1: send 1000b to 1
l2: send 1000b to 1
l3: send 1000b to 1
l2 requires l1
l3 requires l2
}
rank 1 {
recv 1000b from 0
recv 1000b from 0
recv 1000b from 0
}
`)
	res, err := loggops.Replay(s, defaults)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("runtime %.0f ns, ranks end at %.0f and %.0f ns, %d messages\n",
		res.Runtime*1e9, res.RankTimes[0]*1e9, res.RankTimes[1]*1e9, res.Messages)
	// Output:
	// runtime 26482 ns, ranks end at 15488 and 26482 ns, 3 messages
}

// A 100,001-byte message to a receiver busy with 50,000 ns of calc (§5.7):
// eager (S above the size), the send completes at once and the sender's
// 100 ns calc ends at o + 100 = 1,600 ns; rendezvous (LogGOPSim's S), the
// send completes when the receiver matches at 50,000 ns, and the calc ends
// at 50,100 ns. The receiver ends at 50,000 + o + (s−1)·G = 651,500 ns in
// both.
func ExampleReplay_rendezvous() {
	s := parse(`num_ranks 2
rank 0 {
l1: send 100001b to 1
l2: calc 100
l2 requires l1
}
rank 1 {
l1: calc 50000
l2: recv 100001b from 0
l2 requires l1
}
`)
	for _, limit := range []int64{200000, defaults.S} {
		p := defaults
		p.S = limit
		res, err := loggops.Replay(s, p)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("S = %d: sender ends at %.0f ns, receiver at %.0f ns\n", limit, res.RankTimes[0]*1e9, res.RankTimes[1]*1e9)
	}
	// Output:
	// S = 200000: sender ends at 1600 ns, receiver at 651500 ns
	// S = 65535: sender ends at 50100 ns, receiver at 651500 ns
}
