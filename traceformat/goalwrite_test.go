package traceformat

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// sameSchedule reports where a and b differ, but for names and source lines.
func sameSchedule(a, b *Schedule) string {
	switch {
	case !slices.Equal(a.rankStart, b.rankStart):
		return "rank blocks"
	case !slices.Equal(a.ops, b.ops):
		return "op records"
	case !slices.Equal(a.succ, b.succ) || !slices.Equal(a.isucc, b.isucc):
		return "successor lists"
	case !slices.Equal(a.predStart, b.predStart) || !slices.Equal(a.pred, b.pred):
		return "predecessor lists"
	case a.maxCPU != b.maxCPU || a.maxNIC != b.maxNIC:
		return "cpu or nic counts"
	}
	return ""
}

// TestWriteRoundTrip: what WriteTo writes, Parse reads back into the same
// schedule, for LogGOPSim's peer schedules (Schedgen's collectives, a
// stencil, LLAMP's samples) and for hand-made ones with what they lack:
// wildcards, tags above 2³¹, cpu and nic indices, irequires, dependency
// lines out of op order, an empty rank.
func TestWriteRoundTrip(t *testing.T) {
	hand := map[string]string{
		"wildcards.goal": "num_ranks 3\nrank 0 {\nl1: send 8b to 2 tag 4294967295\nl2: send 0b to 2 tag 3000000000 cpu 1 nic 2\nl2 irequires l1\n}\n" +
			"rank 1 {\n}\nrank 2 {\na: recv 8b from -1 tag -1\nb: recv 0b from 0 tag 3000000000 nic 2\nc: calc 77 cpu 1\nc requires b\nc requires a\nb irequires a\n}\n",
		"order.goal": "num_ranks 1\nrank 0 {\nl1: calc 1\nl2: calc 2\nl3: calc 3\nl4: calc 4\nl4 requires l1\nl2 requires l1\nl3 requires l1\nl4 irequires l3\n}\n",
	}
	check := func(name string, s *Schedule) {
		var text bytes.Buffer
		n, err := s.WriteTo(&text)
		if err != nil || n != int64(text.Len()) {
			t.Fatalf("%s: WriteTo = %d, %v; wrote %d bytes", name, n, err, text.Len())
		}
		back, err := Parse(bytes.NewReader(text.Bytes()), name+" written")
		if err != nil {
			t.Fatalf("%s: the written schedule does not parse: %v", name, err)
		}
		if d := sameSchedule(s, back); d != "" {
			t.Errorf("%s: written and read back, its %s differ", name, d)
		}
		var again bytes.Buffer
		back.WriteTo(&again)
		if !bytes.Equal(text.Bytes(), again.Bytes()) {
			t.Errorf("%s: writing the schedule read back gives other text", name)
		}
	}
	for name, src := range hand {
		s, err := Parse(strings.NewReader(src), name)
		if err != nil {
			t.Fatal(err)
		}
		check(name, s)
	}
	for _, name := range peerSchedules(t) {
		check(name, parsePeer(t, name))
	}
}
