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
// others). As HPL, consecutive tests on the same grid share its communicators.
func RunTests(r *ranks.Rank, tests []Params, k *kernels.Set, opt Options) ([]*Result, error) {
	return runTests(r, tests, 0, k, opt)
}

// runTests is RunTests; perGrid > 0 sets up a grid every perGrid tests, as
// HPL sets up (MPI_Comm_split) and frees each grid of HPL.dat's list, even
// one that repeats the grid before it.
func runTests(r *ranks.Rank, tests []Params, perGrid int, k *kernels.Set, opt Options) ([]*Result, error) {
	world := rankComm{r.World()}
	for _, p := range tests {
		if err := checkTest(world, p); err != nil {
			return nil, err
		}
	}
	real := k.Mode() != kernels.Model
	out := make([]*Result, len(tests))
	var g *grid
	for i, p := range tests {
		next := i == 0 || p.P != tests[i-1].P || p.Q != tests[i-1].Q || p.PMap != tests[i-1].PMap
		if perGrid > 0 {
			next = i%perGrid == 0
		}
		if next {
			g = newGrid(world, p.P, p.Q, p.PMap)
		}
		out[i] = runOnGrid(g, rankClock{r}, p, kernelsAdapter{k}, real, opt)
	}
	return out, nil
}

// RunDat is HPL's whole driver for one HPL.dat: the start-up exchange of the
// parameters (HPL's tree collectives on the world, hpl.md §1), then every test
// of d.Tests() as RunTests, a grid set up for each of d.Grids.
func RunDat(r *ranks.Rank, d Dat, k *kernels.Set, opt Options) ([]*Result, error) {
	world := rankComm{r.World()}
	lists := len(d.Ns) + len(d.NBs) + 2*len(d.Grids) + len(d.PFacts) + len(d.NBMins) +
		len(d.NDivs) + len(d.RFacts) + len(d.BCasts) + len(d.Depths) + 1
	real := k.Mode() != kernels.Model
	ctl := func(v ...float64) []float64 { // values travel in real mode only
		if real {
			return v
		}
		return nil
	}
	treeAllreduce(world, ctl(0), 1, bytesPerInt, opMax)      // error flag
	treeAllreduce(world, ctl(eps), 1, bytesPerDouble, opMax) // machine epsilon
	treeBcast(world, 0, ctl(d.Threshold), 1, bytesPerDouble)
	treeBcast(world, 0, ctl(make([]float64, 15)...), 15, bytesPerInt)
	treeBcast(world, 0, ctl(make([]float64, lists)...), lists, bytesPerInt)
	tests := d.Tests()
	return runTests(r, tests, len(tests)/max(len(d.Grids), 1), k, opt)
}

// rankClock reads simulated time.
type rankClock struct{ r *ranks.Rank }

func (c rankClock) now() float64 { return c.r.Now() }

// rankComm adapts *ranks.Comm to commPort.
type rankComm struct{ c *ranks.Comm }

func (a rankComm) rank() int { return a.c.Rank() }
func (a rankComm) size() int { return a.c.Size() }
func (a rankComm) split(color, key int) commPort {
	return rankComm{a.c.Split(color, key)}
}
func (a rankComm) send(dst, tag, bytes int, data []float64) {
	a.c.Send(dst, tag, ranks.Msg{Bytes: bytes, Data: data})
}
func (a rankComm) ssend(dst, tag, bytes int, data []float64) {
	a.c.Ssend(dst, tag, ranks.Msg{Bytes: bytes, Data: data})
}
func (a rankComm) recv(src, tag int) []float64 {
	m, _ := a.c.Recv(src, tag)
	return m.Data
}
func (a rankComm) release(data []float64)    { a.c.Release(data) }
func (a rankComm) irecv(src, tag int) waiter { return rankReq{a.c.Irecv(src, tag)} }
func (a rankComm) issend(dst, tag, bytes int, data []float64) waiter {
	return rankReq{a.c.Issend(dst, tag, ranks.Msg{Bytes: bytes, Data: data})}
}
func (a rankComm) iprobe(src, tag int) bool {
	ok, _ := a.c.Iprobe(src, tag)
	return ok
}
func (a rankComm) probe(src, tag int) { a.c.Probe(src, tag) }
func (a rankComm) exchanges(n, tag int, ex ranks.Exchanger) {
	a.c.Exchanges(n, tag, ex)
}
func (a rankComm) sendRecvs(n, tag int, ex ranks.Exchanger) {
	a.c.SendRecvs(n, tag, ex)
}
func (a rankComm) recvSend(tag int, ex ranks.Exchanger) { a.c.RecvSend(tag, ex) }
func (a rankComm) sendRecvsIprobe(from, n, tag int, ex ranks.Exchanger, work ranks.Worker, pc commPort, src, ptag int) (int, bool) {
	k, ok, _ := a.c.SendRecvsIprobe(from, n, tag, ex, work, pc.(rankComm).c, src, ptag)
	return k, ok
}
func (a rankComm) iprobeSendRecvs(from, n, tag int, ex ranks.Exchanger, work ranks.Worker, pc commPort, src, ptag int) (int, bool) {
	k, ok, _ := a.c.IprobeSendRecvs(from, n, tag, ex, work, pc.(rankComm).c, src, ptag)
	return k, ok
}
func (a rankComm) iprobeWorks(n int, work ranks.Worker, src, tag int) bool {
	_, ok, _ := a.c.IprobeWorks(n, work, src, tag)
	return ok
}
func (a rankComm) iprobeWorksProbe(n int, work ranks.Worker, src, tag int) {
	a.c.IprobeWorksProbe(n, work, src, tag)
}
func (a rankComm) uncontended(steps []ranks.Step, data []float64) [][]float64 {
	return a.c.Uncontended(steps, data)
}

type rankReq struct{ q *ranks.Request }

// wait waits for the request and gives it back to the World (MPI_Request_free):
// the port waits on each request exactly once, and HPL posts millions of them,
// which would otherwise each be left to the garbage collector.
func (w rankReq) wait() []float64 {
	m, _ := w.q.Wait()
	w.q.Free()
	return m.Data
}

// kernelsAdapter lets *kernels.Set satisfy kern.
type kernelsAdapter struct{ *kernels.Set }

func (k kernelsAdapter) owns(variant string) bool { return k.HasModel(variant) }

func (k kernelsAdapter) copier(kernel, variant string) copier {
	return kernelsCopy{k.Set, k.Copy(kernel, variant)}
}

// kernelsCopy is a copier of a *kernels.Set.
type kernelsCopy struct {
	k *kernels.Set
	c kernels.Copy
}

func (c kernelsCopy) charge(m, n, span int) {
	c.k.ChargeCopy(c.c, models.Vars{M: float64(m), N: float64(n), K: float64(span)})
}
