package pingpong

import (
	"fmt"
	"math/rand/v2"

	"github.com/emu-hpc/emu/ranks"
)

// Congestor patterns, GPCNeT's (Chunduri et al., SC'19): traffic run beside
// a job to measure how much it slows down.
const (
	RandomRing = "random-ring" // each round, the ranks in a random ring: each sends to its successor
	AllToAll   = "all-to-all"  // each round, every rank sends to every other one
	Incast     = "incast"      // each round, every rank but 0 sends to rank 0
)

// CongestorConfig sets up Congestor.
type CongestorConfig struct {
	Pattern    string // RandomRing, AllToAll or Incast
	Bytes      int    // per message, ≥ 0
	Iterations int    // rounds, ≥ 1; with Duration, at most this many (0: no limit)
	// Duration, if > 0, runs rounds until this much time (s) has passed
	// since the congestor's start: after each round the ranks agree on the
	// time (an 8-byte allreduce, max) and stop together once it is up.
	Duration float64
	Seed     uint64 // draws random-ring's rings (the same on every rank)
}

// CongestorResult is what a congestor did.
type CongestorResult struct {
	Pattern    string  `json:"pattern"`
	Bytes      int     `json:"bytes"`
	Iterations int     `json:"iterations"` // rounds run
	Ranks      int     `json:"ranks"`
	Time       float64 `json:"time_s"` // from the first rank's start to the last rank's end, s
	Messages   int     `json:"messages"`
}

// Congestor runs Iterations rounds of the pattern, each round's messages
// posted at once (Isend, Irecv) and waited for together, the next round
// after.
func Congestor(w *ranks.World, cfg CongestorConfig) (*CongestorResult, error) {
	switch cfg.Pattern {
	case RandomRing, AllToAll, Incast:
	default:
		return nil, fmt.Errorf("congestor: unknown pattern %q (%s, %s or %s)", cfg.Pattern, RandomRing, AllToAll, Incast)
	}
	if cfg.Bytes < 0 || cfg.Iterations < 0 || cfg.Iterations == 0 && !(cfg.Duration > 0) || !(cfg.Duration >= 0) {
		return nil, fmt.Errorf("congestor: bytes = %d, iterations = %d, duration = %g s: want bytes ≥ 0 and iterations ≥ 1 or a duration > 0",
			cfg.Bytes, cfg.Iterations, cfg.Duration)
	}
	p := w.Size()
	if p < 2 {
		return nil, fmt.Errorf("congestor: needs at least 2 ranks, the job has %d", p)
	}
	res := &CongestorResult{Pattern: cfg.Pattern, Bytes: cfg.Bytes, Ranks: p}
	start, end := make([]float64, p), make([]float64, p)
	err := w.Run(func(r *ranks.Rank) {
		c := r.World()
		me := c.Rank()
		start[me] = r.Now()
		rng := rand.New(rand.NewPCG(cfg.Seed, 0x636f6e67)) // "cong": every rank draws the same rings
		ring := make([]int, p)                             // random-ring: position → rank
		at := make([]int, p)                               // rank → position
		var reqs []*ranks.Request
		for round := 0; cfg.Iterations == 0 || round < cfg.Iterations; round++ {
			reqs = reqs[:0]
			switch cfg.Pattern {
			case RandomRing:
				for i, v := range rng.Perm(p) {
					ring[i], at[v] = v, i
				}
				next, prev := ring[(at[me]+1)%p], ring[(at[me]-1+p)%p]
				reqs = append(reqs, c.Irecv(prev, 0), c.Isend(next, 0, ranks.Msg{Bytes: cfg.Bytes}))
			case AllToAll:
				for k := 1; k < p; k++ {
					reqs = append(reqs, c.Irecv((me-k+p)%p, 0))
				}
				for k := 1; k < p; k++ {
					reqs = append(reqs, c.Isend((me+k)%p, 0, ranks.Msg{Bytes: cfg.Bytes}))
				}
			case Incast:
				if me == 0 {
					for src := 1; src < p; src++ {
						reqs = append(reqs, c.Irecv(src, 0))
					}
				} else {
					reqs = append(reqs, c.Isend(0, 0, ranks.Msg{Bytes: cfg.Bytes}))
				}
			}
			ranks.Waitall(reqs...)
			if me == 0 {
				res.Iterations = round + 1
			}
			if cfg.Duration > 0 {
				elapsed := c.Allreduce(ranks.Msg{Data: []float64{r.Now() - start[me]}}, ranks.Max)
				if elapsed.Data[0] >= cfg.Duration {
					break
				}
			}
		}
		end[me] = r.Now()
	})
	if err != nil {
		return nil, err
	}
	first, last := start[0], end[0]
	for i := range p {
		first, last = min(first, start[i]), max(last, end[i])
	}
	res.Time = last - first
	perRound := map[string]int{RandomRing: p, AllToAll: p * (p - 1), Incast: p - 1}[cfg.Pattern]
	res.Messages = perRound * res.Iterations
	return res, nil
}
