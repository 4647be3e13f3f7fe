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
