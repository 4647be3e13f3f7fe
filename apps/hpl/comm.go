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
	// recvSend is a recv, then a send (ranks.Comm.RecvSend: ex's step 0
	// receives, its step 1 sends), as one call.
	recvSend(tag int, ex ranks.Exchanger)
	// sendRecvsIprobe is, from step `from` of sendRecvs(n, tag, ex), each
	// step (none where both its sides are empty), work.Work(k), then
	// pc.iprobe(src, ptag) (pc: another communicator of this rank), until a
	// probe sees the message; it returns the next step and whether one did
	// (ranks.Comm.SendRecvsIprobe). Step `from` must make a call (it first
	// settles the kernel sleeps owed); work may only charge kernels and
	// read the clock.
	sendRecvsIprobe(from, n, tag int, ex ranks.Exchanger, work ranks.Worker, pc commPort, src, ptag int) (int, bool)
	// iprobeSendRecvs is pc.iprobe(src, ptag), then, unless it sees the
	// message (it then returns from, true), sendRecvsIprobe (ranks.Comm.
	// IprobeSendRecvs); step `from` may then make no call.
	iprobeSendRecvs(from, n, tag int, ex ranks.Exchanger, work ranks.Worker, pc commPort, src, ptag int) (int, bool)
	// iprobeWorks is, from k = 0, iprobe(src, tag), then, until it sees
	// the message or k = n, work.Work(k) and the next probe; it reports
	// whether a probe saw the message (ranks.Comm.IprobeWorks). work may
	// only charge kernels and read the clock.
	iprobeWorks(n int, work ranks.Worker, src, tag int) bool
	// iprobeWorksProbe is iprobeWorks, then, unless it saw the message,
	// iprobe(src, tag) and, unless that sees it, probe(src, tag)
	// (ranks.Comm.IprobeWorksProbe): it returns once the message is posted.
	iprobeWorksProbe(n int, work ranks.Worker, src, tag int)
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
// count is ≤ 0, and with nothing to send a blocking receive (HPL_sdrv's
// MPI_Recv: sdrvStep is a ranks.BlockingReceiver). It is one step of sendRecvs (ranks.Comm.SendRecvs: the same
// calls, hooks and times, as a task), so that the rank parks once for its
// Send and its Wait, where it parked for each (the binary-exchange row swap
// makes log2(P) of them an update, with a probe after each). x is the
// caller's step, reused: SendRecvs keeps no reference to it.
func sdrv(c commPort, x *sdrvStep, partner, sn int, sdata []float64, rn, tag int) []float64 {
	if sn <= 0 && rn <= 0 {
		return nil // no call: sendRecvs would first settle the kernel sleeps owed
	}
	*x = sdrvStep{partner: partner, sn: sn, rn: rn, sdata: sdata}
	c.sendRecvs(1, tag, x)
	got := x.got
	*x = sdrvStep{}
	return got
}

// sdrvStep is HPL_sdrv as an Exchanger of one step.
type sdrvStep struct {
	partner, sn, rn int
	sdata, got      []float64
}

// BlockingRecvs marks sdrvStep as HPL_sdrv's: nothing to send, a blocking receive.
func (*sdrvStep) BlockingRecvs() {}

func (x *sdrvStep) Exchange(int) (int, ranks.Msg, int) {
	dst, src := ranks.Nobody, ranks.Nobody
	if x.sn > 0 {
		dst = x.partner
	}
	if x.rn > 0 {
		src = x.partner
	}
	return dst, ranks.Msg{Bytes: x.sn * bytesPerDouble, Data: x.sdata}, src
}

// Received keeps a copy of the payload, which the World reuses once the
// call returns (a receiver gets its own copy).
func (x *sdrvStep) Received(_ int, m ranks.Msg) {
	if m.Data != nil {
		x.got = append([]float64(nil), m.Data...)
	}
}
