package sensitivity

import "sort"

// RankTime splits one rank's time at the baseline latency after the
// decomposition of Wilke et al. (seed 002): MPI time is MPI-stack time (the
// CPU cost of send and recv operations), synchronisation (waiting because
// the other side was not ready yet) and network (waiting for the message
// once the other side was ready). Times in s.
type RankTime struct {
	Rank    int     `json:"rank"`
	End     float64 `json:"end_s"`     // finish of the rank's last operation
	Compute float64 `json:"compute_s"` // Calc vertex costs
	Stack   float64 `json:"stack_s"`   // Send and Recv vertex costs
	Network float64 `json:"network_s"`
	Sync    float64 `json:"sync_s"`
}

// isLocal reports whether edge e is program order on one rank: same rank,
// no latency terms, no bytes. Other edges are messages (or rendezvous
// handshakes) whose waiting time the split attributes.
func (g *Graph) isLocal(e int, v int) bool {
	return g.vRank.at(int(g.eFrom.at(e))) == g.vRank.at(v) && g.pay.lat[g.ePay.at(e)] == 0 && g.pay.bytes[g.ePay.at(e)] == 0
}

// The split is exact where receives sit in their rank's program order (GOAL
// replays); in emulator recordings a completion vertex runs beside program
// order (observe/record.go), so its waiting may overlap the rank's
// computation and the sums are an upper bound there.
//
// mpiTime attributes, for every vertex, the time between its local ready
// point (the latest program-order predecessor plus edge) and its start:
// if a message edge determines the start, the part before the other side's
// operation finished is synchronisation (max(0, T_other − T_ready), eq. (1)
// and (2) of seed 002 with the send/recv finish as T_Send/T_PostRecv), the
// rest is network time.
func mpiTime(g *Graph, finish []float64, lat []float64) []RankTime {
	out := make([]RankTime, g.ranks)
	for r := range out {
		out[r].Rank = r
	}
	for v := range g.vRank.len() {
		rt := &out[g.vRank.at(v)]
		start := finish[v] - g.vtab.cost[g.vPay.at(v)]
		rt.End = max(rt.End, finish[v])
		if g.vtab.kind[g.vPay.at(v)] == Calc {
			rt.Compute += g.vtab.cost[g.vPay.at(v)]
		} else {
			rt.Stack += g.vtab.cost[g.vPay.at(v)]
		}
		ready, other, arrival := 0.0, 0.0, -1.0
		for e := int(g.inStart.at(v)); e < int(g.inStart.at(v+1)); e++ {
			u := g.eFrom.at(e)
			t := finish[u] + g.edgeCost(e, lat)
			switch {
			case g.isLocal(e, v):
				ready = max(ready, t)
			case g.vRank.at(int(u)) == g.vRank.at(int(v)):
				// A message edge from the rank's own posting point (an
				// emulator recording): the post is when the rank was ready.
				ready = max(ready, finish[u])
				if t > arrival {
					arrival, other = t, finish[u]
				}
			case t > arrival:
				arrival, other = t, finish[u]
			}
		}
		wait := start - ready
		if arrival < 0 || wait <= 0 {
			continue
		}
		sync := min(wait, max(0, other-ready))
		rt.Sync += sync
		rt.Network += wait - sync
	}
	return out
}

// criticalPairs walks the critical path recorded by the last run and counts
// the swept class's latency terms by (source rank, destination rank).
// messageEnds gives the sender and receiver of the message that completes at
// v, for a latency edge on the critical path whose two ends lie on one rank:
// an emulated run's completion vertex has a latency edge from the send and
// one from the receive's posting point (a rendezvous starts when both have
// posted), and when the posting point is the later of the two the critical
// edge runs receiver → receiver (or, at a rendezvous send's completion,
// receiver's post → sender). The other latency in-edge of v names the peer;
// v's kind says which end v is. Without one the message went to the rank
// itself.
func (g *Graph) messageEnds(v int32, class uint8) (src, dst int) {
	me := int(g.vRank.at(int(v)))
	peer := me
	for e := g.inStart.at(int(v)); e < g.inStart.at(int(v)+1); e++ {
		if r := int(g.vRank.at(int(g.eFrom.at(int(e))))); r != me && g.latCount(int(e), class) > 0 {
			peer = r
			break
		}
	}
	if g.vtab.kind[g.vPay.at(int(v))] == Send {
		return me, peer // the sender's completion: the message went to peer
	}
	return peer, me
}

func criticalPairs(ev *evaluator, p point) []PairSensitivity {
	g := ev.g
	pairs := map[[2]int]*PairSensitivity{}
	for v := p.Sink; v >= 0; {
		e := ev.pred[v]
		if e < 0 {
			break
		}
		u := g.eFrom.at(int(e))
		c, b := g.latCount(int(e), ev.class), g.pay.bytes[g.ePay.at(int(e))]
		if c > 0 || b > 0 {
			src, dst := int(g.vRank.at(int(u))), int(g.vRank.at(int(v)))
			if src == dst {
				src, dst = g.messageEnds(v, ev.class)
			}
			ps := pairs[[2]int{src, dst}]
			if ps == nil {
				ps = &PairSensitivity{Src: src, Dst: dst}
				pairs[[2]int{src, dst}] = ps
			}
			ps.Lambda += int64(c)
			ps.LambdaG += b
		}
		v = u
	}
	out := make([]PairSensitivity, 0, len(pairs))
	for _, ps := range pairs {
		out = append(out, *ps)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Src != out[j].Src {
			return out[i].Src < out[j].Src
		}
		return out[i].Dst < out[j].Dst
	})
	return out
}

// MPIPart is seed 002's split of MPI time summed over the ranks for one
// protocol or one MPI call (an emulated run's event-based split,
// observe.MPISplit). Times in s.
type MPIPart struct {
	Name    string  `json:"name"`
	Calls   int     `json:"calls,omitempty"` // per MPI call: how often the ranks made it
	Stack   float64 `json:"stack_s"`
	Sync    float64 `json:"sync_s"`
	Network float64 `json:"network_s"`
}
