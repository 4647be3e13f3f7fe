package main

import (
	"math"
	"path/filepath"
	"testing"
)

// TestPairwiseBooksSenderToReceiver: on an emulated run (the embedded default,
// cm02, where no rank messages itself) every critical latency term is booked
// to the pair (sender, receiver) of its message, never to a rank paired with
// itself, and the pairs add up to λ_L. Before, a rendezvous whose receive was
// posted last put the critical edge receiver → receiver, and (1,1) and (2,2)
// carried 1,976 of the 2,394 terms.
func TestPairwiseBooksSenderToReceiver(t *testing.T) {
	dir := t.TempDir()
	graph, out := filepath.Join(dir, "g.graph"), filepath.Join(dir, "p.json")
	if code, _, errOut := runCLI(t, "run", "--set", "network.model=cm02", "--graph", graph, "-q"); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "analyze", graph, "--pairwise", "--json", out, "-q"); code != exitOK {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	var rep struct {
		Lambda  float64 `json:"lambda_L"`
		LambdaG float64 `json:"lambda_G"`
		Pairs   []struct {
			Src, Dst int
			Lambda   float64 `json:"lambda_L"`
			LambdaG  float64 `json:"lambda_G"`
		} `json:"pairwise"`
	}
	readJSON(t, out, &rep)
	sum, bytes := 0.0, 0.0
	for _, p := range rep.Pairs {
		bytes += p.LambdaG
		if p.Src == p.Dst {
			t.Errorf("pair (%d,%d) carries %g terms: no rank messages itself", p.Src, p.Dst, p.Lambda)
		}
		sum += p.Lambda
	}
	if len(rep.Pairs) == 0 || sum != rep.Lambda {
		t.Errorf("pairs add up to %g, λ_L is %g (%d pairs)", sum, rep.Lambda, len(rep.Pairs))
	}
	// λ_G(i,j): the critical path's bytes booked to the same pairs.
	if rep.LambdaG <= 0 || math.Abs(bytes-rep.LambdaG) > 1e-9*rep.LambdaG {
		t.Errorf("pairs' bytes add up to %g, λ_G is %g", bytes, rep.LambdaG)
	}
}
