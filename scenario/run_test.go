package scenario

import (
	"testing"
)

func TestDefaultScenarioRuns(t *testing.T) {
	p, err := Default().Validate()
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(RunOptions{Graph: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.HPL) != 1 || res.HPL[0] == nil || res.HPL[0].N != 2000 || res.HPL[0].Time <= 0 || res.Ranks != 4 {
		t.Fatalf("result %+v", res)
	}
	t.Logf("HPL %s: %.6f s, %.4g Gflops, simulated %.6f s, wall %.3f s, graph %d vertices",
		res.HPL[0].Variant, res.HPL[0].Time, res.HPL[0].Gflops, res.SimulatedTime, res.WallTime, res.Graph.NumVertices())
}
