package ranks

import (
	"math"
	"testing"
)

// pingpongTime runs k round trips of an 8-byte message between ranks 0 and
// 1 on a 2-host crossbar (cm02: factors 1) and returns rank 0's end time.
func pingpongTime(t *testing.T, cfg Config, x *crossbar, k int) float64 {
	t.Helper()
	var end float64
	run(t, cfg, x, 2, func(r *Rank) {
		c := r.World()
		for i := 0; i < k; i++ {
			if r.ID() == 0 {
				c.Send(1, 0, Msg{Bytes: 8})
				c.Recv(1, 0)
			} else {
				c.Recv(0, 0)
				c.Send(0, 0, Msg{Bytes: 8})
			}
		}
		if r.ID() == 0 {
			end = r.Now()
		}
	})
	return end
}

// TestMessageDelayConst: a constant delay d lengthens every message of a
// ping-pong by d, so k round trips take 2k·d longer; with DelayClass naming
// the class of host 1's down link only the k messages to rank 1 are delayed
// (k·d longer).
func TestMessageDelayConst(t *testing.T) {
	const k, d = 5, 3e-6 // round trips; s
	cfg := preset(t, "cm02")
	base := pingpongTime(t, cfg, newCrossbar(2, 1e10, 1e-6), k)
	cfg.MessageDelay = d
	if got, want := pingpongTime(t, cfg, newCrossbar(2, 1e10, 1e-6), k), base+2*k*d; !near(got, want) {
		t.Errorf("every message delayed: %.12g s, want %.12g s", got, want)
	}
	x := newCrossbar(2, 1e10, 1e-6)
	x.links[3].Class = "down1" // host 1's down link: routes 0→1 only
	cfg.DelayClass = "down1"
	if got, want := pingpongTime(t, cfg, x, k), base+k*d; !near(got, want) {
		t.Errorf("class down1 delayed: %.12g s, want %.12g s", got, want)
	}
	cfg.DelayClass = "nowhere"
	if got := pingpongTime(t, cfg, newCrossbar(2, 1e10, 1e-6), k); !near(got, base) {
		t.Errorf("class crossed by no route: %.12g s, want the undelayed %.12g s", got, base)
	}
}

// TestMessageDelayExp: exponential delays of mean d are drawn from the
// seed (two runs give the same time) and average d: over n = 2000 messages
// the added time has mean 2000·d and standard deviation √2000·d, so it lies
// within 5σ of the mean unless the draws are wrong.
func TestMessageDelayExp(t *testing.T) {
	const k, d = 1000, 1e-6
	cfg := preset(t, "cm02")
	base := pingpongTime(t, cfg, newCrossbar(2, 1e10, 1e-6), k)
	cfg.MessageDelay, cfg.DelayDist = d, DelayExp
	a := pingpongTime(t, cfg, newCrossbar(2, 1e10, 1e-6), k)
	if b := pingpongTime(t, cfg, newCrossbar(2, 1e10, 1e-6), k); a != b {
		t.Fatalf("same seed, two times: %.17g s and %.17g s", a, b)
	}
	n := 2.0 * k
	if added := a - base; math.Abs(added-n*d) > 5*math.Sqrt(n)*d {
		t.Errorf("added %.6g s over %v messages, want %.6g ± %.3g s", added, n, n*d, 5*math.Sqrt(n)*d)
	}
}

func TestMessageDelayValidate(t *testing.T) {
	for _, c := range []Config{{MessageDelay: -1}, {MessageDelay: math.Inf(1)}, {MessageDelay: math.NaN()}, {DelayDist: 7}} {
		if c.Validate() == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if _, err := ParseDelayDist("gauss"); err == nil {
		t.Error("ParseDelayDist(gauss): no error")
	}
}
