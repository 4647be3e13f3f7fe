package tune

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Runner evaluates points. Implementations must be safe for concurrent use: Sweep calls
// Run from several goroutines at once, one point each.
type Runner interface {
	// Check validates a point's overrides without running it, so a typo in a key fails
	// the whole sweep before any work is spent.
	Check(p Point) error
	// Run evaluates one point.
	Run(ctx context.Context, p Point) (Result, error)
}

// Options steer a local sweep.
type Options struct {
	Jobs     int                   // concurrent evaluations; ≤ 0 means 1
	Progress func(done, total int) // called after each finished point; may be nil
	Clock    func() time.Time      // wall clock for WallS; nil means time.Now
	Skip     func(p Point) bool    // points to leave out (already done); may be nil
	Record   func(r Result) error  // durable sink, e.g. Journal.Append; may be nil
	Checked  bool                  // the caller has checked every point: Sweep does not call Check
}

// Sweep evaluates points on opt.Jobs goroutines and returns the new results in point
// order. A point whose Run fails is recorded with its error; a failing Record (the disk)
// stops the sweep. Points Skip rejects are not run. Cancelling ctx stops handing out
// points; those in flight finish and are recorded.
func Sweep(ctx context.Context, r Runner, points []Point, opt Options) ([]Result, error) {
	for _, p := range points {
		if opt.Checked {
			break
		}
		if err := r.Check(p); err != nil {
			return nil, fmt.Errorf("point %s: %w", p.Settings(), err)
		}
	}
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = 1
	}
	clock := opt.Clock
	if clock == nil {
		clock = time.Now
	}
	var todo []int
	for i, p := range points {
		if opt.Skip == nil || !opt.Skip(p) {
			todo = append(todo, i)
		}
	}
	// No more workers than points: --jobs 2⁶³−1 started a goroutine a job
	// and never began (qa47).
	jobs = max(1, min(jobs, len(todo)))
	results := make([]*Result, len(points))
	var (
		mu       sync.Mutex
		firstErr error
		finished int
		wg       sync.WaitGroup
	)
	next := make(chan int)
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p := points[i]
				start := clock()
				res, err := r.Run(ctx, p)
				res.ID, res.Label, res.Overrides = p.ID(), p.Label(), p.Overrides
				res.WallS = clock().Sub(start).Seconds()
				if err != nil {
					res.Error = err.Error()
				}
				mu.Lock()
				if opt.Record != nil && firstErr == nil {
					if err := opt.Record(res); err != nil {
						firstErr = err
					}
				}
				results[i] = &res
				finished++
				if opt.Progress != nil {
					opt.Progress(finished, len(todo))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, i := range todo {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	out := make([]Result, 0, len(todo))
	for _, r := range results {
		if r != nil {
			out = append(out, *r)
		}
	}
	if firstErr != nil {
		return out, firstErr
	}
	return out, ctx.Err()
}
