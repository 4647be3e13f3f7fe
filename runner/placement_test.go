package runner

import (
	"testing"
)

// TestRandomPlacementReplay: a replay runs on a random placement, and the
// same seed gives the same simulated time.
func TestRandomPlacementReplay(t *testing.T) {
	trace := "0 send 5 0 100000\n5 recv 0 0 100000\n1 send 7 0 100000\n7 recv 1 0 100000\n"
	var times []float64
	for _, seed := range []string{"seed=4", "seed=4"} {
		p := replayPlan(t, trace, "platform.placement=random", seed)
		res, err := Run(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		times = append(times, res.SimulatedTime)
	}
	if times[0] != times[1] || !(times[0] > 0) {
		t.Errorf("times %v", times)
	}
}
