package pingpong

import (
	"fmt"

	"github.com/emu-hpc/emu/ranks"
)

// Config sets up Pingpong.
type Config struct {
	Sizes      []int // message sizes, bytes (≥ 0)
	Iterations int   // timed round trips (latency) and windows (bandwidth) per size, ≥ 1, after one untimed of each
	// Window is the number of messages in flight in the bandwidth test
	// (osu_bw's window size); 0 means DefaultWindow.
	Window int
}

// DefaultWindow is osu_bw's default window size.
const DefaultWindow = 64

// ackBytes is the size of the bandwidth test's acknowledgement (osu_bw: 4).
const ackBytes = 4

// Result is one size's figures; the JSON names are the scenario contract.
type Result struct {
	Bytes     int     `json:"bytes"`
	OneWay    float64 `json:"one_way_s"`     // s: half the mean round-trip time
	Bandwidth float64 `json:"bandwidth_Bps"` // bytes/s: window bytes over the window's time
}

// Validate reports the first bad field.
func (c Config) Validate() error {
	if len(c.Sizes) == 0 {
		return fmt.Errorf("pingpong: no message size")
	}
	for i, s := range c.Sizes {
		if s < 0 {
			return fmt.Errorf("pingpong: sizes[%d] = %d, want ≥ 0", i, s)
		}
	}
	if c.Iterations < 1 {
		return fmt.Errorf("pingpong: iterations = %d, want ≥ 1", c.Iterations)
	}
	if c.Window < 0 {
		return fmt.Errorf("pingpong: window = %d, want ≥ 0", c.Window)
	}
	return nil
}

// Pingpong runs the latency and bandwidth tests between world ranks 0 and
// 1 (other ranks return at once) and returns one Result per size, in the
// order of cfg.Sizes.
func Pingpong(w *ranks.World, cfg Config) ([]Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if w.Size() < 2 {
		return nil, fmt.Errorf("pingpong: needs 2 ranks, the world has %d", w.Size())
	}
	window := cfg.Window
	if window == 0 {
		window = DefaultWindow
	}
	out := make([]Result, len(cfg.Sizes))
	err := w.Run(func(r *ranks.Rank) {
		if r.ID() > 1 {
			return
		}
		c := r.World()
		peer := 1 - r.ID()
		for i, size := range cfg.Sizes {
			m := ranks.Msg{Bytes: size}
			// Latency: rank 0 sends, rank 1 echoes. A barrier's ranks leave
			// at different times (a linear one's root first), so one untimed
			// round trip (osu_latency's skip) lines them up before the clock.
			c.Barrier()
			var start float64
			for it := -1; it < cfg.Iterations; it++ {
				if it == 0 {
					start = r.Now()
				}
				if r.ID() == 0 {
					c.Send(peer, 1, m)
					c.Recv(peer, 1)
				} else {
					c.Recv(peer, 1)
					c.Send(peer, 1, m)
				}
			}
			rtt := (r.Now() - start) / float64(cfg.Iterations)
			// Bandwidth: rank 0 posts a window of Isends, rank 1 a window of
			// Irecvs; a short acknowledgement closes each window. One untimed
			// window first, as osu_bw's skip.
			c.Barrier()
			reqs := make([]*ranks.Request, window)
			for it := -1; it < cfg.Iterations; it++ {
				if it == 0 {
					start = r.Now()
				}
				for k := range reqs {
					if r.ID() == 0 {
						reqs[k] = c.Isend(peer, 2, m)
					} else {
						reqs[k] = c.Irecv(peer, 2)
					}
				}
				ranks.Waitall(reqs...)
				for _, q := range reqs { // each is waited once: back to the World for reuse
					q.Free()
				}
				if r.ID() == 0 {
					c.Recv(peer, 3)
				} else {
					c.Send(peer, 3, ranks.Msg{Bytes: ackBytes})
				}
			}
			if r.ID() == 0 {
				elapsed := r.Now() - start
				out[i] = Result{Bytes: size, OneWay: rtt / 2}
				if elapsed > 0 {
					out[i].Bandwidth = float64(size) * float64(window*cfg.Iterations) / elapsed
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
