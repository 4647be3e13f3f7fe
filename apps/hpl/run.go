package hpl

import (
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/ranks"
)

// Run is HPL's test driver for one test on one rank: every world rank calls it
// collectively with the same Params. Ranks outside the P×Q grid take part in the
// communicator split and return (nil, nil). The kernel set's mode decides real
// data (Real, Timed) or model mode (Model: no matrix, pivots by opt.Pivot).
func Run(r *ranks.Rank, p Params, k *kernels.Set, opt Options) (*Result, error) {
	real := k.Mode() != kernels.Model
	return runTest(rankComm{r.World()}, rankClock{r}, p, kernelsAdapter{k}, real, opt)
}

// RunTests runs several tests in order (HPL's loop over HPL.dat's lists) and
// returns the results of the tests this rank took part in (nil entries for the
// others).
func RunTests(r *ranks.Rank, tests []Params, k *kernels.Set, opt Options) ([]*Result, error) {
	out := make([]*Result, len(tests))
	for i, p := range tests {
		res, err := Run(r, p, k, opt)
		if err != nil {
			return out, err
		}
		out[i] = res
	}
	return out, nil
}

// rankClock reads simulated time.
type rankClock struct{ r *ranks.Rank }

func (c rankClock) now() float64 { return c.r.Now() }

// rankComm adapts *ranks.Comm to commPort. ranks has no synchronous-mode send:
// Ssend and Issend map to Send and Isend (they differ only below the eager
// threshold, where a synchronous send would still wait for its receiver).
type rankComm struct{ c *ranks.Comm }

func (a rankComm) rank() int { return a.c.Rank() }
func (a rankComm) size() int { return a.c.Size() }
func (a rankComm) split(color, key int) commPort {
	return rankComm{a.c.Split(color, key)}
}
func (a rankComm) send(dst, tag, bytes int, data []float64) {
	a.c.Send(dst, tag, ranks.Msg{Bytes: bytes, Data: data})
}
func (a rankComm) ssend(dst, tag, bytes int, data []float64) { a.send(dst, tag, bytes, data) }
func (a rankComm) recv(src, tag int) []float64 {
	m, _ := a.c.Recv(src, tag)
	return m.Data
}
func (a rankComm) irecv(src, tag int) waiter { return rankReq{a.c.Irecv(src, tag)} }
func (a rankComm) issend(dst, tag, bytes int, data []float64) waiter {
	return rankReq{a.c.Isend(dst, tag, ranks.Msg{Bytes: bytes, Data: data})}
}
func (a rankComm) iprobe(src, tag int) bool {
	ok, _ := a.c.Iprobe(src, tag)
	return ok
}
func (a rankComm) probe(src, tag int) { a.c.Probe(src, tag) }

type rankReq struct{ q *ranks.Request }

func (w rankReq) wait() []float64 {
	m, _ := w.q.Wait()
	return m.Data
}

// kernelsAdapter lets *kernels.Set satisfy kern.
type kernelsAdapter struct{ *kernels.Set }

func (k kernelsAdapter) charge(kernel string, m, n int) {
	k.Charge(kernel, models.Vars{M: float64(m), N: float64(n)})
}
