package ranks

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// pivotRounds is a panel factorization's shape as Rounds: round i charges
// its kernels (the column's update and local pivot search), noting the
// clock after each, then asks for the hypercube's steps x with round i's
// sizes (the column's pivot exchange).
type pivotRounds struct {
	r       *Rank
	x       *swapSteps
	steps   int    // the hypercube's steps (0 on a rank past the power of two)
	none    []bool // per round: it exchanges nothing (SendRecvs of 0 steps)
	sn, rn  [][]int
	ks      [][]float64
	i       int
	clocks  *[]float64
	inTask  *int
	lostNow *int
}

func (p *pivotRounds) Next() (int, Exchanger, bool) {
	r := p.r
	if p.i == len(p.ks) {
		return 0, nil, false
	}
	if r.task != nil {
		*p.inTask++
	}
	for _, d := range p.ks[p.i] {
		if r.task != nil && d > 0 && r.Now()+d == r.Now() {
			*p.lostNow++
		}
		r.Compute(d, "dgemv")
		*p.clocks = append(*p.clocks, r.Now())
	}
	if p.i == len(p.sn) { // the last round: its kernels, then the end
		p.i++
		return 0, nil, false
	}
	p.x.sn, p.x.rn = p.sn[p.i], p.rn[p.i]
	p.i++
	if p.none[p.i-1] {
		return 0, p.x, true
	}
	return p.steps, p.x, true
}

// TestSendRecvsRoundsMatchesCalls runs random programs of HPL's panel
// factorization shape — rounds of kernels, each followed by a hypercube
// of sdrv exchanges (the pivot search of a column), the last round's
// kernels ending the panel — once with the loop written out (Next, then
// SendRecvs: the reference) and once with Comm.SendRecvsRounds, under
// checkTaskMatchesCalls' configurations (rank order with merged sleeps,
// where the rounds are one task; the other orders; overheads; timers for
// every sleep; a start at 1e4 s where the task defers a 1e-13 s kernel),
// and wants the same events, clocks, data, end and events fired, to the
// bit. Some rounds exchange nothing (a SendRecvs of zero steps, which
// settles nothing); some panels end at their first round.
func TestSendRecvsRoundsMatchesCalls(t *testing.T) {
	checkTaskMatchesCalls(t, "SendRecvsRounds", runRoundsProgram)
}

func runRoundsProgram(t *testing.T, seed uint64, task bool) (string, uint64, int, int) {
	rng := rand.New(rand.NewPCG(seed, 47))
	n, cfg, lazy, noSkip, start := randomTaskConfig(t, rng, seed)
	w, b, kernel := randomTaskWorld(t, rng, seed, n, cfg, lazy, noSkip, start)
	hdim := 0
	for 1<<(hdim+1) <= n {
		hdim++
	}
	type panel struct {
		sn, rn [][][]int     // per rank, per round, per step: bytes each way
		ks     [][][]float64 // per rank, per round (one more than exchanges): kernels
		none   []bool        // per round: no exchange on any rank
	}
	plan := make([]panel, 1+rng.IntN(3))
	sizes := []int{0, 8, 4000, 70000}
	for k := range plan {
		p := &plan[k]
		rounds := rng.IntN(9)
		for range rounds {
			p.none = append(p.none, rng.IntN(5) == 0)
		}
		p.sn, p.rn, p.ks = make([][][]int, n), make([][][]int, n), make([][][]float64, n)
		for me := range n {
			p.ks[me] = make([][]float64, rounds+1)
			for i := range rounds + 1 {
				for range rng.IntN(4) {
					p.ks[me][i] = append(p.ks[me][i], kernel())
				}
			}
			for range rounds {
				p.sn[me], p.rn[me] = append(p.sn[me], make([]int, hdim)), append(p.rn[me], make([]int, hdim))
			}
		}
		for i := range rounds {
			for me := range n {
				for j := range hdim {
					partner := me ^ 1<<j
					if partner >= n || partner < me {
						continue
					}
					a, c := sizes[1+rng.IntN(3)], sizes[rng.IntN(4)]
					if rng.IntN(8) == 0 {
						a = 0
					}
					p.sn[me][i][j], p.rn[partner][i][j] = a, a
					p.sn[partner][i][j], p.rn[me][i][j] = c, c
				}
			}
		}
	}
	clocks := make([][]float64, n)
	got := make([][]int, n)
	lost, inTask := 0, 0
	err := w.Run(func(r *Rank) {
		c := r.World()
		me := c.Rank()
		if start > 0 {
			r.Sleep(start)
		}
		x := &swapSteps{me: me}
		steps := hdim
		if me >= 1<<hdim {
			steps = 0
		}
		for k, p := range plan {
			tag := 100 + k
			pr := &pivotRounds{r: r, x: x, steps: steps, none: p.none, sn: p.sn[me], rn: p.rn[me], ks: p.ks[me],
				clocks: &clocks[me], inTask: &inTask, lostNow: &lost}
			if task {
				c.SendRecvsRounds(tag, pr)
			} else {
				for {
					n, ex, ok := pr.Next()
					if !ok {
						break
					}
					c.SendRecvs(n, tag, ex)
				}
			}
			if pr.i != len(pr.ks) {
				t.Errorf("seed %d rank %d: %d of %d rounds", seed, me, pr.i, len(pr.ks))
			}
			// Between panels, a message to the next rank (the broadcast).
			right, left := (me+1)%n, (me+n-1)%n
			s := c.Isend(right, 7, Msg{Bytes: 1000 + me})
			m, _ := c.Recv(left, 7)
			s.Wait()
			got[me] = append(got[me], m.Bytes)
			clocks[me] = append(clocks[me], r.Now())
		}
		got[me] = append(got[me], x.got...)
	})
	if err != nil {
		t.Fatalf("seed %d (SendRecvsRounds %v): %v", seed, task, err)
	}
	if math.IsNaN(w.End()) || slices.ContainsFunc(clocks, func(c []float64) bool { return len(c) == 0 }) {
		t.Fatalf("seed %d: no clock readings", seed)
	}
	fmt.Fprintf(b, "end %.17g\nclocks %v\ngot %v\n", w.End(), clocks, got)
	return b.String(), w.eng.Fired(), lost, inTask
}
