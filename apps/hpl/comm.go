package hpl

import "github.com/emu-hpc/emu/ranks"

// commPort is the slice of MPI the port uses: point-to-point only, as HPL (hpl.md §0).
// Sizes are bytes on the wire; data is the real payload (real mode) or just the
// values that steer control flow (model mode), possibly nil. A receiver gets its
// own copy of the sender's data.
type commPort interface {
	rank() int
	size() int
	split(color, key int) commPort
	send(dst, tag, bytes int, data []float64)  // standard mode (eager or rendezvous by size)
	ssend(dst, tag, bytes int, data []float64) // synchronous mode
	recv(src, tag int) []float64
	release(data []float64) // a received payload read whole, for later messages to reuse
	irecv(src, tag int) waiter
	issend(dst, tag, bytes int, data []float64) waiter
	iprobe(src, tag int) bool
	probe(src, tag int) // block until a matching message is posted (a spin of iprobes)
	// exchanges makes n synchronous neighbour exchanges (ranks.Comm.Exchanges:
	// per step, Issend, Recv, Wait).
	exchanges(n, tag int, ex ranks.Exchanger)
	// sendRecvs makes n HPL_sdrv exchanges (ranks.Comm.SendRecvs: per step,
	// Irecv, Send, Wait).
	sendRecvs(n, tag int, ex ranks.Exchanger)
	// uncontended makes this rank's steps of a program every member runs,
	// timed as a whole (ranks.Comm.Uncontended), and returns what each
	// member handed in.
	uncontended(steps []ranks.Step, data []float64) [][]float64
}

// waiter is a pending non-blocking operation.
type waiter interface{ wait() []float64 }

// Message tags (hpl.md §0.1).
const (
	tagPfact     = 1001 // pivot search and every row swap, column communicator
	tagFactBegin = 2001 // panel broadcasts, one tag per panel, cyclic
	tagFactEnd   = 3000
	tagTrsvBegin = 3001 // back substitution (rows odd, columns even)
	tagTrsvEnd   = 4000
	tagTree      = 9001 // HPL's own collectives
)

const (
	bytesPerDouble = 8
	bytesPerInt    = 4
)

// nextTag advances a panel tag in 2001…3000 cyclically.
func nextTag(t int) int {
	if t+1 > tagFactEnd {
		return tagFactBegin
	}
	return t + 1
}

// sendD sends n doubles (skipped when n ≤ 0, as HPL_send).
func sendD(c commPort, dst, n int, data []float64, tag int) {
	if n <= 0 {
		return
	}
	c.send(dst, tag, n*bytesPerDouble, data)
}

// recvD receives n doubles (skipped when n ≤ 0, as HPL_recv).
func recvD(c commPort, src, n, tag int) []float64 {
	if n <= 0 {
		return nil
	}
	return c.recv(src, tag)
}

// sdrv is HPL_sdrv: post the receive, send, wait; either side skipped when its
// count is ≤ 0.
func sdrv(c commPort, partner, sn int, sdata []float64, rn, tag int) []float64 {
	var w waiter
	if rn > 0 {
		w = c.irecv(partner, tag)
	}
	if sn > 0 {
		c.send(partner, tag, sn*bytesPerDouble, sdata)
	}
	if w != nil {
		return w.wait()
	}
	return nil
}
