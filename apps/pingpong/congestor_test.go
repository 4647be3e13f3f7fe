package pingpong

import (
	"math"
	"strings"
	"testing"
)

// TestCongestorIncast: on an idle flat cluster under cm02 (route latency
// L = 2·lat, bandwidth B), a round of incast sends P−1 eager messages of
// s' = s + 16 wire bytes that share rank 0's down link from the start: a
// round takes L + (P−1)·s'/B, and rounds follow one another.
func TestCongestorIncast(t *testing.T) {
	const bw, lat, p, s, rounds = 1e9, 1e-6, 5, 1000, 3
	res, err := Congestor(flatWorld(t, p, bw, lat), CongestorConfig{Pattern: Incast, Bytes: s, Iterations: rounds})
	if err != nil {
		t.Fatal(err)
	}
	want := rounds * (2*lat + (p-1)*(s+16)/bw)
	if math.Abs(res.Time-want) > relTol*want || res.Messages != rounds*(p-1) || res.Ranks != p {
		t.Errorf("incast: %+v, want time %.12g s and %d messages", res, want, rounds*(p-1))
	}
}

// TestCongestorPatterns: every pattern runs, counts its messages, and gives
// the same time for the same seed; all-to-all's round on a flat cluster
// moves (P−1)·s' through each host's up link: at least (P−1)·s'/B.
func TestCongestorPatterns(t *testing.T) {
	const bw, lat, p, s = 1e9, 1e-6, 6, 100000
	for _, tc := range []struct {
		pattern  string
		messages int
	}{{RandomRing, p}, {AllToAll, p * (p - 1)}, {Incast, p - 1}} {
		var times []float64
		for range 2 {
			res, err := Congestor(flatWorld(t, p, bw, lat), CongestorConfig{Pattern: tc.pattern, Bytes: s, Iterations: 1, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			if res.Messages != tc.messages || !(res.Time > 0) {
				t.Errorf("%s: %+v, want %d messages", tc.pattern, res, tc.messages)
			}
			times = append(times, res.Time)
		}
		if times[0] != times[1] {
			t.Errorf("%s: times %v differ", tc.pattern, times)
		}
		if tc.pattern == AllToAll && times[0] < (p-1)*(s+16)/bw {
			t.Errorf("all-to-all round %g s, below (P−1)·s'/B", times[0])
		}
	}
	for _, bad := range []CongestorConfig{{Pattern: "bisection", Bytes: 1, Iterations: 1}, {Pattern: Incast, Bytes: -1, Iterations: 1},
		{Pattern: Incast, Iterations: 0}, {Pattern: Incast, Iterations: 1, Duration: -1}} {
		if _, err := Congestor(flatWorld(t, 2, bw, lat), bad); err == nil || !strings.HasPrefix(err.Error(), "congestor: ") {
			t.Errorf("%+v: err %v", bad, err)
		}
	}
}

// TestCongestorDuration: with a duration, the ranks run rounds until that
// much time has passed and stop together (no deadlock, no message left):
// incast rounds of L + (P−1)·s'/B plus an allreduce each, so at least
// duration / round-time rounds, and the run ends within one round (and
// its allreduce) of the duration; a round limit beside it still applies.
func TestCongestorDuration(t *testing.T) {
	const bw, lat, p, s, duration = 1e9, 1e-6, 5, 100000, 5e-3
	res, err := Congestor(flatWorld(t, p, bw, lat), CongestorConfig{Pattern: Incast, Bytes: s, Duration: duration})
	if err != nil {
		t.Fatal(err)
	}
	round := 2*lat + (p-1)*(s+16)/bw // without the allreduce
	if res.Time < duration || res.Time > duration+2*round || res.Iterations > int(duration/round)+1 || res.Iterations < 2 ||
		res.Messages != res.Iterations*(p-1) {
		t.Errorf("%+v: want time in [%g, %g] s, at most %d rounds", res, duration, duration+2*round, int(duration/round)+1)
	}
	capped, err := Congestor(flatWorld(t, p, bw, lat), CongestorConfig{Pattern: Incast, Bytes: s, Duration: duration, Iterations: 3})
	if err != nil || capped.Iterations != 3 {
		t.Errorf("duration and 3 rounds: %+v, %v", capped, err)
	}
}
