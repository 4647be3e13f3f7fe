package sensitivity

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// DelayPoint is one run of a delay sweep (Netscope's delay sensitivity,
// seed 001): the application run with an injected mean delay per message.
type DelayPoint struct {
	Delay    float64 `json:"delay_s"`         // injected mean delay per message, s
	T        float64 `json:"time_s"`          // the run's simulated time, s
	M        float64 `json:"mean_delivery_s"` // mean message delivery time (first byte sent → last byte in), s
	Messages int     `json:"messages"`        // messages delivered in the run
}

// DelaySensitivity is the least-squares fit T = Slope·M + K over a sweep's
// points and Netscope's delay sensitivity c_a, normalised so that a
// ping-pong's is 1:
//
//	c_a = Slope / m̄,   m̄ = 2·messages / ranks
//
// m̄ is the mean number of messages a rank takes part in (sent or received)
// in the run with the smallest delay. A ping-pong of k round trips has
// T = 2k·M + k₀ and m̄ = 2k, so c_a = 1 exactly: each message a rank
// handles adds its whole delivery time to the runtime. Below 1 a rank's
// messages overlap one another or computation; above 1 a rank also waits
// for messages between other ranks (a token ring on n ranks: c_a = n/2).
type DelaySensitivity struct {
	Name            string       `json:"name"`
	Ranks           int          `json:"ranks"`
	Points          []DelayPoint `json:"points"`
	Slope           float64      `json:"slope"`             // dT/dM, s per s
	K               float64      `json:"k_s"`               // intercept, s
	R2              float64      `json:"r2"`                // coefficient of determination (1 when every T is the same and fits)
	MessagesPerRank float64      `json:"messages_per_rank"` // m̄
	CA              float64      `json:"c_a"`
	// Fall is the largest drop of T from one delay to the next larger one,
	// nil when T never falls as the delay grows. Adding a delay to every
	// message cannot shorten a run whose order of events is fixed; where
	// it does, the application adapts to timing (HPL's broadcasts poll
	// with MPI_Iprobe) and one run per delay moves by more than the delay
	// does. The const delay draws nothing and the exp draws of a sender
	// are the same Exp(1) stream at every delay (common random numbers),
	// so a fall is the run's own order flipping, not a different draw.
	Fall *DelayFall `json:"falls,omitempty"`
}

// DelayFall is a drop of T between two delays of a sweep, the smaller
// delay first.
type DelayFall struct {
	FromDelay float64 `json:"from_delay_s"`
	ToDelay   float64 `json:"to_delay_s"`
	FromT     float64 `json:"from_time_s"`
	ToT       float64 `json:"to_time_s"`
}

// largestFall returns the largest drop of T between consecutive delays
// (in delay order; equal delays compared in the order given), or nil.
func largestFall(pts []DelayPoint) *DelayFall {
	s := append([]DelayPoint(nil), pts...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].Delay < s[j].Delay })
	var f *DelayFall
	for i := 1; i < len(s); i++ {
		a, b := s[i-1], s[i]
		if b.Delay > a.Delay && b.T < a.T && (f == nil || a.T-b.T > f.FromT-f.ToT) {
			f = &DelayFall{a.Delay, b.Delay, a.T, b.T}
		}
	}
	return f
}

// FitDelay fits T = Slope·M + K over the points by least squares and
// normalises the slope (see DelaySensitivity). It needs two points of
// different M.
func FitDelay(name string, ranks int, pts []DelayPoint) (DelaySensitivity, error) {
	d := DelaySensitivity{Name: name, Ranks: ranks, Points: pts}
	if len(pts) < 2 {
		return d, errors.New("delay sensitivity: needs runs at two delays or more")
	}
	if ranks < 1 {
		return d, fmt.Errorf("delay sensitivity: %d ranks", ranks)
	}
	messages := 0
	for _, p := range pts {
		messages += p.Messages
	}
	if messages == 0 {
		return d, errors.New("delay sensitivity: the run sends no message")
	}
	n := float64(len(pts))
	var mM, mT float64
	for _, p := range pts {
		mM += p.M / n
		mT += p.T / n
	}
	var sMM, sMT, sTT float64
	for _, p := range pts {
		sMM += (p.M - mM) * (p.M - mM)
		sMT += (p.M - mM) * (p.T - mT)
		sTT += (p.T - mT) * (p.T - mT)
	}
	if !(sMM > 0) {
		return d, errors.New("delay sensitivity: every run has the same mean delivery time (give delays that differ)")
	}
	d.Slope = sMT / sMM
	d.K = mT - d.Slope*mM
	var res float64
	for _, p := range pts {
		e := p.T - (d.Slope*p.M + d.K)
		res += e * e
	}
	d.R2 = 1
	if sTT > 0 {
		d.R2 = 1 - res/sTT
	}
	base := pts[0]
	for _, p := range pts[1:] {
		if p.Delay < base.Delay {
			base = p
		}
	}
	d.MessagesPerRank = 2 * float64(base.Messages) / float64(ranks)
	if d.MessagesPerRank == 0 {
		return d, errors.New("delay sensitivity: the run sends no message")
	}
	d.CA = d.Slope / d.MessagesPerRank
	if math.IsNaN(d.CA) || math.IsInf(d.CA, 0) {
		return d, errors.New("delay sensitivity: the fit is not finite")
	}
	d.Fall = largestFall(pts)
	return d, nil
}

// RankByDelay orders applications by c_a, the most sensitive first (then
// by name).
func RankByDelay(ds []DelaySensitivity) {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].CA != ds[j].CA {
			return ds[i].CA > ds[j].CA
		}
		return ds[i].Name < ds[j].Name
	})
}
