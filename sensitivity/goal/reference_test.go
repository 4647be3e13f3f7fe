package goal

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/loggopspeers"
	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/traceformat"
)

// TestFastEqualsReference replays the peer schedules and random ones with
// the fast engine (hashed matching, parking) and with the plain reference
// (LogGOPSim's linear lists and retries), and requires identical results:
// the same per-rank times to the picosecond and the same event count.
func TestFastEqualsReference(t *testing.T) {
	same := func(name string, s *traceformat.Schedule, p loggops.Params) {
		fast, err1 := replay(s, p, nil, false)
		ref, err2 := replay(s, p, nil, true)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("%s: fast error %v, reference error %v", name, err1, err2)
		}
		if err1 != nil {
			return
		}
		if fast.Events != ref.Events || fast.Unstarted != ref.Unstarted || fmt.Sprint(fast.RankTimes) != fmt.Sprint(ref.RankTimes) {
			t.Fatalf("%s: fast %v (%d events), reference %v (%d events)", name, fast.Runtime, fast.Events, ref.Runtime, ref.Events)
		}
	}
	rows := loggopspeers.MustResults(t, peerDir)
	for _, name := range loggopspeers.MustSchedules(t, peerDir) {
		if runs, ok := rows[name]; ok {
			same(name, loggopspeers.MustSchedule(t, peerDir, name), peerParams(runs[0]))
		}
	}
	s, err := traceformat.Parse(bytes.NewReader(linearAlltoall(64, 1024)), "a2a64")
	if err != nil {
		t.Fatal(err)
	}
	same("linear_alltoall_64", s, peerParams3us)
	rng := rand.New(rand.NewPCG(7, 11))
	wild := 0
	for i := 0; i < 300; i++ {
		src := randomSchedule(rng)
		// Wildcards exercise the hashed queues' other lists.
		if rng.IntN(2) == 0 && strings.Contains(src, " tag 3 ") {
			src = strings.ReplaceAll(src, " tag 3 ", " tag -1 ")
			wild++
		}
		s, err := traceformat.Parse(strings.NewReader(src), "random.goal")
		if err != nil {
			t.Fatal(err)
		}
		p := loggops.Params{L: float64(rng.IntN(5000)) * 1e-9, O: float64(rng.IntN(5000)) * 1e-9,
			Gap: float64(rng.IntN(2000)) * 1e-9, G: float64(rng.IntN(10)) * 1e-12, S: 65535}
		same(fmt.Sprintf("random %d", i), s, p)
	}
	if wild == 0 {
		t.Fatal("no random schedule used a wildcard tag")
	}
}
