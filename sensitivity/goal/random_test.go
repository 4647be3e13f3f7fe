package goal

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/traceformat"

	"github.com/emu-hpc/emu/sensitivity"
)

// randomSchedule writes a random GOAL schedule that some sequential order
// can run: a global sequence of steps (a calc on one rank, or a message
// between two), each op depending on a random subset of its rank's
// earlier ops. With rendezvous messages it can still deadlock (a send that
// waits for a receiver which waits for the sender); callers skip those.
func randomSchedule(rng *rand.Rand) string {
	ranks := 2 + rng.IntN(5)
	nics := 1 + rng.IntN(2)
	ops := make([][]string, ranks)
	deps := make([][]string, ranks)
	addOp := func(r int, text string) {
		k := len(ops[r]) + 1
		ops[r] = append(ops[r], fmt.Sprintf("l%d: %s", k, text))
		for j := 1; j < k; j++ {
			if rng.IntN(4) == 0 {
				kw := "requires"
				if rng.IntN(6) == 0 {
					kw = "irequires"
				}
				deps[r] = append(deps[r], fmt.Sprintf("l%d %s l%d", k, kw, j))
			}
		}
	}
	steps := 5 + rng.IntN(40)
	sizes := []int{0, 1, 8, 1000, 70000, 100001}
	for i := 0; i < steps; i++ {
		if rng.IntN(3) == 0 {
			addOp(rng.IntN(ranks), fmt.Sprintf("calc %d", rng.IntN(20000)))
			continue
		}
		a, b := rng.IntN(ranks), rng.IntN(ranks)
		if a == b {
			b = (a + 1) % ranks
		}
		size := sizes[rng.IntN(len(sizes))]
		addOp(a, fmt.Sprintf("send %db to %d tag %d nic %d", size, b, i, rng.IntN(nics)))
		addOp(b, fmt.Sprintf("recv %db from %d tag %d nic %d", size, a, i, rng.IntN(nics)))
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "num_ranks %d\n", ranks)
	for r := 0; r < ranks; r++ {
		fmt.Fprintf(&sb, "rank %d {\n", r)
		for k, o := range ops[r] {
			sb.WriteString(o + "\n")
			// dependencies of op k+1 follow it, as Schedgen writes them
			for _, d := range deps[r] {
				if strings.HasPrefix(d, fmt.Sprintf("l%d ", k+1)) {
					sb.WriteString(d + "\n")
				}
			}
		}
		sb.WriteString("}\n")
	}
	return sb.String()
}

// TestGraphEqualsReplayRandom checks on random schedules and parameters
// that the recorded graph's longest path at ℓ = L is the replay's runtime
// (one CPU per rank, the case where the recorder is exact).
func TestGraphEqualsReplayRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2026))
	checked, deadlocked := 0, 0
	for i := 0; i < 400; i++ {
		src := randomSchedule(rng)
		p := loggops.Params{
			L: float64(rng.IntN(10000)) * 1e-9, O: float64(rng.IntN(6000)) * 1e-9,
			Gap: float64(rng.IntN(3)*1000) * 1e-9, G: float64(rng.IntN(20)) * 1e-12,
			OPerByte: float64(rng.IntN(2)) * 1e-12, S: []int64{0, 65535, 1 << 30}[rng.IntN(3)],
		}
		s, err := traceformat.Parse(strings.NewReader(src), fmt.Sprintf("random%d.goal", i))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		b := sensitivity.NewBuilder(s.NumRanks())
		res, err := ReplayGraph(s, p, b)
		if err != nil {
			deadlocked++
			continue
		}
		if res.Unstarted > 0 {
			deadlocked++
			continue
		}
		g, err := b.Build()
		if err != nil {
			var ce *sensitivity.CycleError
			if errors.As(err, &ce) {
				t.Fatalf("case %d: cycle: %v", i, err)
			}
			t.Fatalf("case %d: %v", i, err)
		}
		T := g.Runtime([]float64{p.L})
		if math.Abs(T-res.Runtime) > graphTolerance*max(res.Runtime, 1e-9) {
			t.Fatalf("case %d (%+v): graph %.6f ns, replay %.6f ns\n%s", i, p, T*1e9, res.Runtime*1e9, src)
		}
		checked++
	}
	if checked < 200 {
		t.Fatalf("only %d of 400 random schedules completed (%d deadlocked)", checked, deadlocked)
	}
	t.Logf("%d schedules checked, %d skipped (rendezvous deadlock)", checked, deadlocked)
}

// TestGraphReferenceRandom records random schedules, some with several
// CPU indices per rank, with the fast replay and with the reference one
// (LogGOPSim's structures, and every op's predecessor list read rather
// than only those of ops meet marked): the graph files must be the same
// bytes.
func TestGraphReferenceRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2026))
	op := regexp.MustCompile(`(?m)^(l[0-9]+: (?:calc [0-9]+|(?:send|recv) .* tag [0-9]+))`)
	compared := 0
	for i := 0; i < 300; i++ {
		src := randomSchedule(rng)
		if i%2 == 1 { // one or two more CPU indices on about half the ops
			src = op.ReplaceAllStringFunc(src, func(m string) string {
				if rng.IntN(2) == 0 {
					return m
				}
				return fmt.Sprintf("%s cpu %d", m, rng.IntN(3))
			})
		}
		s, err := traceformat.Parse(strings.NewReader(src), fmt.Sprintf("random%d.goal", i))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		p := loggops.Params{L: 3e-6, O: float64(rng.IntN(6000)) * 1e-9, Gap: 1e-6, G: 0.018e-9, S: []int64{0, 65535}[rng.IntN(2)]}
		var files [2]bytes.Buffer
		ok := true
		for k, reference := range []bool{false, true} {
			b := sensitivity.NewBuilder(s.NumRanks())
			if _, err := replay(s, p, b, reference); err != nil {
				ok = false
				break
			}
			g, err := b.Build()
			if err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			if _, err := g.WriteTo(&files[k]); err != nil {
				t.Fatal(err)
			}
		}
		if !ok {
			continue // rendezvous deadlock
		}
		if !bytes.Equal(files[0].Bytes(), files[1].Bytes()) {
			t.Fatalf("case %d: the fast and reference replays record different graphs\n%s", i, src)
		}
		compared++
	}
	if compared < 150 {
		t.Fatalf("only %d of 300 random schedules completed", compared)
	}
}
