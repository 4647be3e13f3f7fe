package emu

import (
	"math/rand/v2"
	"testing"

	"github.com/petar/GoLLRB/llrb"
)

// llrbTimer orders timers in GoLLRB's tree by (time, seq), as emu's event
// queue did until the timer heap replaced it.
type llrbTimer timer

func (t llrbTimer) Less(than llrb.Item) bool {
	o := than.(llrbTimer)
	return t.at < o.at || t.at == o.at && t.seq < o.seq
}

// TestQueueMatchesLLRB: the timer heap and its lanes give up timers in the
// order of the balanced tree the design names for the event queue
// (github.com/petar/GoLLRB), an implementation that shares no code with them,
// on pushes whose delays repeat (lanes) and do not (heap), with ties in time.
func TestQueueMatchesLLRB(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	matchLLRB(t, rng, 100, 2000, func(trial int) float64 {
		return float64(rng.IntN([]int{3, 1000}[trial%2])) * 1e-6
	})
}

// matchLLRB pushes delays drawn by delay into the timer queue and into the
// tree, three pushes to two pops as rng decides (a pop when the tree is
// empty pushes instead), for trials runs of steps steps, and fails at the
// first pop on which they differ.
func matchLLRB(t *testing.T, rng *rand.Rand, trials, steps int, delay func(trial int) float64) {
	t.Helper()
	for trial := range trials {
		q := newTimerQueue()
		tree := llrb.New()
		var seq uint64
		now := 0.0
		for step := range steps {
			if rng.IntN(5) < 3 || tree.Len() == 0 {
				seq++
				d := delay(trial)
				q.push(d, now+d, seq, action{})
				tree.ReplaceOrInsert(llrbTimer{at: now + d, seq: seq})
				continue
			}
			now = popBoth(t, &q, tree, trial, step)
		}
	}
}

// BenchmarkQueueVsLLRB pushes and pops timers of a thousand ranks' noisy
// kernels (every due time its own) through the timer heap and through
// GoLLRB's tree, the event queue before the heap, in the same run: the
// ratio of their ns/timer is the change's gain on this traffic.
func BenchmarkQueueVsLLRB(b *testing.B) {
	const live = 1024
	delays := make([]float64, 1<<12)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range delays {
		delays[i] = 1e-3 * (1 + 0.1*rng.NormFloat64())
	}
	b.Run("heap", func(b *testing.B) {
		q := newTimerQueue()
		var seq uint64
		for i := range live {
			seq++
			q.push(delays[i], delays[i], seq, action{})
		}
		b.ResetTimer()
		for i := range b.N {
			now, _ := q.pop()
			seq++
			d := delays[i&(len(delays)-1)]
			q.push(d, now+d, seq, action{})
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/timer")
	})
	b.Run("llrb", func(b *testing.B) {
		tree := llrb.New()
		var seq uint64
		for i := range live {
			seq++
			tree.ReplaceOrInsert(llrbTimer{at: delays[i], seq: seq})
		}
		b.ResetTimer()
		for i := range b.N {
			now := tree.DeleteMin().(llrbTimer).at
			seq++
			d := delays[i&(len(delays)-1)]
			tree.ReplaceOrInsert(llrbTimer{at: now + d, seq: seq})
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/timer")
	})
}

// TestLongLanesMatchLLRB: lanes that keep a backlog for thousands of pops
// (pushes outnumber pops, three delays) slide their queued tail down to the
// front of their array, and still give up timers in the tree's order, their
// heads' keys kept as they go.
func TestLongLanesMatchLLRB(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	matchLLRB(t, rng, 4, 20000, func(int) float64 {
		d := float64(1+rng.IntN(3)) * 1e-6
		if rng.IntN(50) == 0 {
			d = rng.Float64() * 1e-3 // now and then one for the heap
		}
		return d
	})
}

// popBoth pops the earliest timer from q and from the tree and fails unless
// they are the same (time and insertion number); it returns the time.
func popBoth(t *testing.T, q *timerQueue, tree *llrb.LLRB, trial, step int) float64 {
	t.Helper()
	want := tree.DeleteMin().(llrbTimer)
	i, _ := q.first()
	gotSeq := q.frontSeq
	at, _ := q.pop()
	if at != want.at || gotSeq != want.seq {
		t.Fatalf("trial %d step %d: popped (%g, %d) from front %d, the tree says (%g, %d)", trial, step, at, gotSeq, i, want.at, want.seq)
	}
	return at
}
