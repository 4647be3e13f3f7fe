package hpl

import (
	"fmt"
	"testing"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/ranks"
)

// trace records every event of a run as text, so two runs compare byte for byte.
type trace struct{ lines []string }

func (tr *trace) hook(e *ranks.Event) {
	tr.lines = append(tr.lines, fmt.Sprintf("%v t=%.17g r=%d peer=%d tag=%d bytes=%d k=%s s=%.17g",
		e.Kind, e.Time, e.Rank, e.Peer, e.Tag, e.Bytes, e.Kernel, e.Seconds))
}

// Skipping the work must not change the timing: a model-mode run replaying the
// pivots of a real run gives the same simulated time and the same events.
func TestModelReplayMatchesReal(t *testing.T) {
	cases := []Params{
		{N: 150, NB: 8, P: 2, Q: 3, PFact: Right, RFact: Crout, NBMin: 4, NDiv: 2, BCast: OneRingM, Depth: 1, Swap: Mix, SwapThreshold: 16, L1Transposed: true, Equilibration: true, Alignment: 8, Threshold: 16},
		{N: 130, NB: 16, P: 3, Q: 2, PMap: ColumnMajor, PFact: Left, RFact: Right, NBMin: 2, NDiv: 3, BCast: LongM, Depth: 0, Swap: SpreadRoll, UTransposed: true, Equilibration: true, Alignment: 8, Threshold: 16},
		{N: 111, NB: 5, P: 2, Q: 4, PFact: Crout, RFact: Left, NBMin: 1, NDiv: 2, BCast: TwoRingM, Depth: 1, Swap: BinaryExchange, Alignment: 8, Threshold: 16},
	}
	for _, p := range cases {
		for _, iprobe := range []float64{0, 1e-6} {
			t.Run(fmt.Sprintf("%s_iprobe%g", p.Variant(), iprobe), func(t *testing.T) {
				rec := NewPivots(p.N)
				var real, model trace
				rr := runHPL(t, p, kernels.Real, Options{Record: rec}, iprobe, real.hook)
				mr := runHPL(t, p, kernels.Model, Options{Pivot: PivotReplay, Replay: rec}, iprobe, model.hook)
				if !rr.Passed {
					t.Fatalf("real run failed its check: %g", rr.Residual)
				}
				if rr.Time != mr.Time {
					t.Errorf("time: real %.17g, model %.17g", rr.Time, mr.Time)
				}
				if len(real.lines) != len(model.lines) {
					t.Fatalf("events: real %d, model %d", len(real.lines), len(model.lines))
				}
				for i := range real.lines {
					if real.lines[i] != model.lines[i] {
						t.Fatalf("event %d differs:\nreal  %s\nmodel %s", i, real.lines[i], model.lines[i])
					}
				}
			})
		}
	}
}
