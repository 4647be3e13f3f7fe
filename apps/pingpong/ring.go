package pingpong

import (
	"fmt"

	"github.com/emu-hpc/emu/ranks"
)

// RingConfig sets up Ring.
type RingConfig struct {
	Sizes      []int // token sizes, bytes (≥ 0)
	Iterations int   // timed laps per size, ≥ 1, after one untimed lap
}

// RingResult is one size's figures.
type RingResult struct {
	Bytes int     `json:"bytes"`
	Ranks int     `json:"ranks"`
	Lap   float64 `json:"lap_s"` // s: mean time for the token to go round once
	Hop   float64 `json:"hop_s"` // s: Lap / Ranks
}

// Ring passes a token of each size from rank 0 to 1, ..., P−1 and back to 0,
// once untimed and then Iterations times, and returns one RingResult per size.
func Ring(w *ranks.World, cfg RingConfig) ([]RingResult, error) {
	if len(cfg.Sizes) == 0 {
		return nil, fmt.Errorf("ring: no message size")
	}
	for i, s := range cfg.Sizes {
		if s < 0 {
			return nil, fmt.Errorf("ring: sizes[%d] = %d, want ≥ 0", i, s)
		}
	}
	if cfg.Iterations < 1 {
		return nil, fmt.Errorf("ring: iterations = %d, want ≥ 1", cfg.Iterations)
	}
	if w.Size() < 2 {
		return nil, fmt.Errorf("ring: needs at least 2 ranks, the world has %d", w.Size())
	}
	out := make([]RingResult, len(cfg.Sizes))
	err := w.Run(func(r *ranks.Rank) {
		c := r.World()
		p, me := c.Size(), c.Rank()
		right, left := (me+1)%p, (me-1+p)%p
		for i, size := range cfg.Sizes {
			// The barrier's ranks leave at different times (a linear one's
			// root first): one untimed lap lines them up before the clock.
			c.Barrier()
			var start float64
			for it := -1; it < cfg.Iterations; it++ {
				if it == 0 {
					start = r.Now()
				}
				if me == 0 {
					c.Send(right, 0, ranks.Msg{Bytes: size})
					c.Recv(left, 0)
				} else {
					m, _ := c.Recv(left, 0)
					c.Send(right, 0, m)
				}
			}
			if me == 0 {
				lap := (r.Now() - start) / float64(cfg.Iterations)
				out[i] = RingResult{Bytes: size, Ranks: p, Lap: lap, Hop: lap / float64(p)}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
