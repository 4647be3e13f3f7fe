package goal

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/traceformat"

	"github.com/emu-hpc/emu/sensitivity"
)

// loggopsimDefaults are LogGOPSim's default parameters (L=2500, o=1500,
// g=1000, G=6, S=65535, in ns), under which the reference's worked
// examples (shared/reference/goal-and-llamp.md §5.7) were checked.
var loggopsimDefaults = loggops.Params{L: 2500e-9, O: 1500e-9, Gap: 1000e-9, G: 6e-9, S: 65535}

// exampleTolerance is the absolute agreement required on hand-derived
// times, in ns: the replay is exact in ps, so this only absorbs the
// conversion to float64 seconds.
const exampleTolerance = 1e-6

// replayText parses src, replays it with p and checks that the recorded
// graph's longest path at ℓ = p.L equals the replay, or graphT (ns) when
// that is not 0. It returns the ranks' finishing times in ns.
func replayText(t *testing.T, src string, p loggops.Params, graphT float64) []float64 {
	t.Helper()
	s, err := traceformat.Parse(strings.NewReader(src), t.Name()+".goal")
	if err != nil {
		t.Fatal(err)
	}
	b := sensitivity.NewBuilder(s.NumRanks())
	res, err := ReplayGraph(s, p, b)
	if err != nil {
		t.Fatal(err)
	}
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	want := res.Runtime * 1e9
	if graphT != 0 {
		want = graphT
	}
	if T := g.Runtime([]float64{p.L}) * 1e9; math.Abs(T-want) > exampleTolerance {
		t.Errorf("graph T = %.6f ns, want %.6f ns (replay %.6f ns)", T, want, res.Runtime*1e9)
	}
	out := make([]float64, len(res.RankTimes))
	for i, v := range res.RankTimes {
		out[i] = v * 1e9
	}
	return out
}

func TestWorkedExamples(t *testing.T) {
	withP := func(f func(*loggops.Params)) loggops.Params { p := loggopsimDefaults; f(&p); return p }
	eager := withP(func(p *loggops.Params) { p.S = 200000 })
	cases := []struct {
		name string
		src  string
		p    loggops.Params
		want []float64 // ns per rank
		// graphT is the graph's T(L) in ns when it differs from the replay
		graphT float64
	}{
		// Sender: o = 1500. Receiver: arrival o+L = 4000, then o+(s−1)G =
		// 1500 → 5500 = 2o+L.
		{"one 1-byte message", "num_ranks 2\nrank 0 {\nsend 1b to 1\n}\nrank 1 {\nrecv 1b from 0\n}\n",
			loggopsimDefaults, []float64{1500, 5500}, 0},
		// Sends wait for the NIC: g+(s−1)G = 1000+999·6 = 6994, so they
		// start at 0, 6994, 13988; the last ends at 13988+o = 15488. The
		// messages arrive at 4000, 10994, 17988, but the receiver's CPU is
		// busy o+(s−1)G = 7494 per message: 4000→11494→18988→26482.
		{"three 1000-byte sends", threeSends, loggopsimDefaults, []float64{15488, 26482}, 0},
		// g = 0: the NIC gap is (s−1)G = 5994: sends at 0, 5994, 11988, end
		// 13488. The receiver is still the bottleneck (7494 per message
		// from 4000): 26482.
		{"three sends g=0", threeSends, withP(func(p *loggops.Params) { p.Gap = 0 }), []float64{13488, 26482}, 0},
		// G = 0, g = 10000: sends at 0, 10000, 20000, end 21500; arrivals
		// at 4000, 14000, 24000, each o = 1500 long: 25500.
		{"three sends G=0 g=10us", threeSends, withP(func(p *loggops.Params) { p.G, p.Gap = 0, 10000e-9 }), []float64{21500, 25500}, 0},
		// Eager 100001 bytes: the sender's calc 100 follows its o: 1600.
		// The message arrives at 4000 but the receiver computes until
		// 50000; it then pays o+(s−1)G = 1500+600000: 651500.
		{"eager 100001 bytes, busy receiver", bigMessage, eager, []float64{1600, 651500}, 0},
		// Rendezvous (S = 65535): the send completes when the receiver
		// matches at 50000, so the sender's calc ends at 50100.
		{"rendezvous 100001 bytes, busy receiver", bigMessage, loggopsimDefaults, []float64{50100, 651500}, 0},
		// Rendezvous with the recv posted at 0: completes at the arrival
		// o+L = 4000 (no ACK latency); the sender's calc ends at 4100;
		// the receiver at 4000+601500 = 605500.
		{"rendezvous, early recv", earlyRecv, loggopsimDefaults, []float64{4100, 605500}, 0},
		// Late posting: rank 0's message reaches rank 1 at 4000 and is
		// processed at once (1500 of o) into the unexpected queue; rank 1's
		// recv from 0 waits for a recv from rank 2, whose message leaves
		// at 20000 and is processed at 24000..25500. The recv from 0 is
		// then posted at 25500 and completes at once: no second o.
		{"late posting", latePosting, loggopsimDefaults, []float64{1500, 25500, 21500}, 0},
		// 0-byte message: (s−1) wraps in LogGOPSim's unsigned arithmetic,
		// so the receiver's time drops by G: 5500 − 6 = 5494, and the
		// sender's NIC gap is g − G (not visible here).
		{"0-byte message", "num_ranks 2\nrank 0 {\nsend 0b to 1\n}\nrank 1 {\nrecv 0b from 0\n}\n",
			loggopsimDefaults, []float64{1500, 5494}, 0},
		// Wildcards: a recv from -1 with tag -1 takes the message with tag
		// 9, a send with tag -1 matches a recv with tag 5. Same times as one
		// message each, the second after the first's o: rank 0 sends at 0
		// and 1500 (1b: g = 1000 < o), so rank 1 processes at 4000 and 5500.
		{"wildcards", "num_ranks 2\nrank 0 {\nl1: send 1b to 1 tag 9\nl2: send 1b to 1 tag -1\nl2 requires l1\n}\nrank 1 {\nl1: recv 1b from -1 tag -1\nl2: recv 1b from 0 tag 5\nl2 requires l1\n}\n",
			loggopsimDefaults, []float64{3000, 7000}, 0},
		// A message to itself: the send takes the CPU 0..1500, the recv is
		// posted at 0, the message arrives at o+L = 4000 and is processed
		// until 5500.
		{"message to self", "num_ranks 1\nrank 0 {\nsend 1b to 0\nrecv 1b from 0\n}\n",
			loggopsimDefaults, []float64{5500}, 0},
		// Cross-CPU dependency (§5.8): calc 200 on cpu 1 waits for calc 100
		// on cpu 0, but is queued at cpu 1's free time, 0: host time 200.
		// The graph keeps the dependency (100+200 = 300): this LogGOPSim
		// quirk is the one place where graph and replay part (record.go).
		{"cross-CPU dependency", "num_ranks 1\nrank 0 {\nl1: calc 100\nl2: calc 200 cpu 1\nl2 requires l1\n}\n",
			loggopsimDefaults, []float64{200}, 300},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := replayText(t, c.src, c.p, c.graphT)
			for r, w := range c.want {
				if math.Abs(got[r]-w) > exampleTolerance {
					t.Errorf("rank %d ends at %.3f ns, want %.0f", r, got[r], w)
				}
			}
		})
	}
}

const threeSends = "num_ranks 2\nrank 0 {\nsend 1000b to 1\nsend 1000b to 1\nsend 1000b to 1\n}\n" +
	"rank 1 {\nrecv 1000b from 0\nrecv 1000b from 0\nrecv 1000b from 0\n}\n"

const bigMessage = "num_ranks 2\nrank 0 {\nl1: send 100001b to 1\nl2: calc 100\nl2 requires l1\n}\n" +
	"rank 1 {\nl1: calc 50000\nl2: recv 100001b from 0\nl2 requires l1\n}\n"

const earlyRecv = "num_ranks 2\nrank 0 {\nl1: send 100001b to 1\nl2: calc 100\nl2 requires l1\n}\n" +
	"rank 1 {\nl1: recv 100001b from 0\n}\n"

const latePosting = "num_ranks 3\nrank 0 {\nsend 1b to 1\n}\n" +
	"rank 1 {\nl1: recv 1b from 2\nl2: recv 1b from 0\nl2 requires l1\n}\n" +
	"rank 2 {\nl1: calc 20000\nl2: send 1b to 1\nl2 requires l1\n}\n"

// FuzzReplay replays whatever traceformat.Parse accepts: no panic, and when the
// replay completes on one CPU per rank, the graph's longest path is the
// replay's runtime.
func FuzzReplay(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 8; i++ {
		f.Add(randomSchedule(rng), uint16(3000), uint16(1500))
	}
	f.Add(threeSends, uint16(2500), uint16(1500))
	f.Add(latePosting, uint16(0), uint16(0))
	f.Fuzz(func(t *testing.T, src string, L, o uint16) {
		s, err := traceformat.Parse(strings.NewReader(src), "fuzz.goal")
		if err != nil || s.NumOps() > 5000 {
			return
		}
		p := loggops.Params{L: float64(L) * 1e-9, O: float64(o) * 1e-9, Gap: 1e-6, G: 6e-9, S: 65535}
		b := sensitivity.NewBuilder(s.NumRanks())
		res, err := ReplayGraph(s, p, b)
		if err != nil || res.Unstarted > 0 || s.CPUs() > 1 {
			return
		}
		g, err := b.Build()
		if err != nil {
			t.Fatalf("Build: %v", err)
		}
		if T := g.Runtime([]float64{p.L}); math.Abs(T-res.Runtime) > graphTolerance*max(res.Runtime, 1e-9) {
			t.Fatalf("graph %.6f ns, replay %.6f ns", T*1e9, res.Runtime*1e9)
		}
	})
}
