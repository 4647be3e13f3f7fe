package ranks

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// chunkWork charges the kernels of an update's chunks, cycling through ks
// (a chunk after the last is the first again: HPL's empty calls once the
// columns are out), and notes the clock after each.
type chunkWork struct {
	r       *Rank
	ks      [][]float64
	clocks  *[]float64
	inTask  *int
	lostNow *int
	done    int // chunks made
}

func (c *chunkWork) Work(int) {
	r := c.r
	if r.task != nil {
		*c.inTask++
	}
	for _, d := range c.ks[c.done%len(c.ks)] {
		if r.task != nil && d > 0 && r.Now()+d == r.Now() {
			*c.lostNow++
		}
		r.Compute(d, "gemm")
		*c.clocks = append(*c.clocks, r.Now())
	}
	c.done++
}

// TestIprobeWorksMatchesCalls runs random programs of HPL's update shape —
// a first chunk of kernels, then a probe of a pending message after each
// next chunk until it is seen or the chunks run out — once with the calls
// written out (the chunk, Iprobe: the reference) and once with
// Comm.IprobeWorks, and wants the same hook events in the same order at
// the same times, the same clock readings in the work, the same steps
// made, end and number of events fired, to the bit. Most programs merge
// kernel sleeps in rank order (the task); some run in FIFO or SimGrid's
// order or hear the compute events (the calls themselves). Some start at
// 1e4 s, where a kernel of 1e-13 s is lost to the clock (the task defers
// it) and the first probes of a growing counter are free (the rank spins,
// on its coroutine, and parks it after 64 at one time); some take every sleep through a timer (noSkip); some
// rounds have no chunk after the first (the probe alone). Half the rounds
// go on, where no probe saw the message, with an Iprobe and a Probe
// (Comm.IprobeWorksProbe). It fails if no kernel was deferred or little
// work ran in the task.
func TestIprobeWorksMatchesCalls(t *testing.T) {
	checkTaskMatchesCalls(t, "IprobeWorks", runChunkProgram)
}

func runChunkProgram(t *testing.T, seed uint64, task bool) (string, uint64, int, int) {
	rng := rand.New(rand.NewPCG(seed, 44))
	n, cfg, lazy, noSkip, start := randomTaskConfig(t, rng, seed)
	if seed%12 == 1 { // free for hundreds of probes: the spins park the rank
		cfg.IprobeCost = 1e-15
	}
	w, b, kernel := randomTaskWorld(t, rng, seed, n, cfg, lazy, noSkip, start)
	type round struct {
		delay  []float64     // per rank: kernels before its send
		chunks []int         // per rank: the chunks after the first (the steps)
		ks     [][][]float64 // per rank, per chunk: its kernels
		size   int
		anySrc bool
		tail   bool // IprobeWorksProbe
	}
	plan := make([]round, 1+rng.IntN(4))
	for k := range plan {
		p := &plan[k]
		p.size = []int{8, 4000, 70000}[rng.IntN(3)]
		p.anySrc = rng.IntN(2) == 0
		p.tail = rng.IntN(2) == 0
		for range n {
			p.delay = append(p.delay, []float64{0, 1e-6, 3e-5, 2e-4}[rng.IntN(4)])
			p.chunks = append(p.chunks, []int{0, 1, 3, 10, 40, 200}[rng.IntN(6)])
			ks := make([][]float64, 1+rng.IntN(5))
			for j := range ks {
				for range rng.IntN(4) {
					ks[j] = append(ks[j], kernel())
				}
			}
			p.ks = append(p.ks, ks)
		}
	}
	clocks := make([][]float64, n)
	got := make([][]int, n)
	lost, inTask := 0, 0
	err := w.Run(func(r *Rank) {
		c := r.World()
		me, right, left := c.Rank(), (c.Rank()+1)%n, (c.Rank()+n-1)%n
		if start > 0 {
			r.Sleep(start)
		}
		wk := &chunkWork{r: r, clocks: &clocks[me], inTask: &inTask, lostNow: &lost}
		for k, p := range plan {
			tag := 2 * k
			r.Compute(p.delay[me], "before")
			s := c.Isend(right, tag, Msg{Bytes: p.size + me})
			src := left
			if p.anySrc {
				src = AnySource
			}
			wk.ks, wk.done = p.ks[me], 0
			steps := p.chunks[me]
			wk.Work(0) // the first chunk, on the coroutine, as HPL's update
			j, seen := 0, false
			var st Status
			switch {
			case task && p.tail:
				j, st = c.IprobeWorksProbe(steps, wk, src, tag)
				seen = true
			case task:
				j, seen, st = c.IprobeWorks(steps, wk, src, tag)
			default:
				for {
					if seen, st = c.Iprobe(src, tag); seen || j == steps {
						break
					}
					wk.Work(j)
					j++
				}
				if p.tail && !seen {
					if seen, st = c.Iprobe(src, tag); !seen {
						st, seen = c.Probe(src, tag), true
					}
				}
			}
			got[me] = append(got[me], j, boolInt(seen), wk.done, st.Source, st.Bytes)
			stat := c.Probe(src, tag)
			m, _ := c.Recv(stat.Source, stat.Tag)
			got[me] = append(got[me], m.Bytes)
			clocks[me] = append(clocks[me], r.Now())
			s.Wait()
		}
	})
	if err != nil {
		t.Fatalf("seed %d (IprobeWorks %v): %v", seed, task, err)
	}
	if math.IsNaN(w.End()) || slices.ContainsFunc(clocks, func(c []float64) bool { return len(c) == 0 }) {
		t.Fatalf("seed %d: no clock readings", seed)
	}
	fmt.Fprintf(b, "end %.17g\nclocks %v\ngot %v\n", w.End(), clocks, got)
	return b.String(), w.eng.Fired(), lost, inTask
}
