package goal

import (
	"github.com/emu-hpc/emu/sensitivity"
	"github.com/emu-hpc/emu/traceformat"
)

var latOne = sensitivity.LatTerm{Class: 0, Count: 1}

// Queued is called when op is queued. A recv is posted at its CPU's free
// time at this moment, so its posting time is fixed here.
func (r *recorder) Queued(op int32) {
	if r.ops[op].Kind != traceformat.OpRecv {
		return
	}
	h := int(r.ops[op].Rank)
	c := h*r.ncpu + int(r.ops[op].CPU)
	// The posting needs its own vertex if its time is not the finish of the
	// CPU's last occupation: a rendezvous raised the CPU's free time since,
	// or a dependency is not implied by CPU order (meet).
	external := len(r.cpuBumps[c]) > 0 || r.op[op].Flags&flagOwnDeps != 0
	if !external && r.walkAll {
		for _, q := range r.s.Preds(int(op)) {
			if !r.implied(max(q, -1-q), q < 0, r.ops[op].CPU) {
				external = true
			}
		}
	}
	if !external {
		r.op[op].Aux = r.cpuLast[c]
		return
	}
	v := int32(r.b.Vertex(h, sensitivity.Recv, 0))
	r.cpuIn(v, c, 0, 0)
	r.depsIn(v, op, r.ops[op].CPU)
	r.op[op].Aux = v
	r.op[op].Flags |= flagPostVertex
}

// Started records a calc's or a send's occupation of its CPU.
func (r *recorder) Started(op int32) {
	if r.ops[op].Kind == traceformat.OpCalc {
		r.calc(op)
	} else {
		r.send(op)
	}
}

func (r *recorder) calc(op int32) {
	h := int(r.ops[op].Rank)
	c := h*r.ncpu + int(r.ops[op].CPU)
	v := int32(r.b.Vertex(h, sensitivity.Calc, sec(r.ops[op].Size*1000)))
	r.cpuIn(v, c, 0, 0)
	r.depsIn(v, op, r.ops[op].CPU)
	r.occupy(c, v)
	r.op[op].V = v
}

func (r *recorder) send(op int32) {
	e := r.e
	h := int(r.ops[op].Rank)
	c := h*r.ncpu + int(r.ops[op].CPU)
	n := h*r.nnic + int(r.ops[op].NIC)
	size := r.ops[op].Size
	cost := e.SendCPU(size)
	v := int32(r.b.Vertex(h, sensitivity.Send, sec(cost)))
	r.cpuIn(v, c, 0, 0)
	// NIC order: this start ≥ previous send's start + g + (s−1)G, implied
	// by CPU order when that is no later than the previous send's finish.
	if last := r.nicS[n]; last.v >= 0 && !(r.nicSCPU[n] == r.ops[op].CPU && last.rest <= 0) {
		r.edge(last, v, 0, 0)
	}
	for _, b := range r.nicSBumps[n] {
		r.edge(b, v, 0, 0)
	}
	r.nicSBumps[n] = r.nicSBumps[n][:0]
	r.depsIn(v, op, r.ops[op].CPU)
	r.occupy(c, v)
	r.nicS[n] = ref{v: v, rest: e.SendNIC(size) - cost, bytes: max(size-1, 0)}
	r.nicSCPU[n] = r.ops[op].CPU
	r.op[op].V = v
}

// Arrived records the processing of sendOp's message at its destination.
func (r *recorder) Arrived(sendOp int32) {
	e := r.e
	h := int(r.ops[sendOp].Peer)
	ci := r.ops[sendOp].CPU
	c := h*r.ncpu + int(ci)
	n := h*r.nnic + int(r.ops[sendOp].NIC)
	size := r.ops[sendOp].Size
	extra, isG := e.RecvCPUExtra(size)
	bx := int64(0)
	if isG {
		bx = max(size-1, 0)
	}
	// start ≥ send start + o + ℓ, where send start = its vertex − its cost.
	sendRef := ref{v: r.op[sendOp].V, rest: e.Overhead() - e.SendCPU(size)}
	var m int32
	var start ref
	r.curMs = -1
	if size > e.EagerLimit() {
		ms := int32(r.b.Vertex(h, sensitivity.Recv, 0))
		r.edge(sendRef, ms, 0, 0, latOne)
		r.cpuIn(ms, c, 0, 0)
		r.nicRIn(ms, n, ci, 0, 0)
		m = int32(r.b.Vertex(h, sensitivity.Recv, sec(e.Overhead())))
		r.edge(ref{v: ms}, m, extra, bx)
		start, r.curMs = ref{v: ms}, ms
	} else {
		m = int32(r.b.Vertex(h, sensitivity.Recv, sec(e.Overhead())))
		r.edge(sendRef, m, extra, bx, latOne)
		r.cpuIn(m, c, extra, bx)
		r.nicRIn(m, n, ci, extra, bx)
		start = ref{v: m, rest: -(e.Overhead() + extra), bytes: -bx}
	}
	r.occupy(c, m)
	r.nicR[n] = ref{v: start.v, rest: start.rest + e.RecvNIC(size), bytes: start.bytes + max(size-1, 0)}
	r.nicRCPU[n] = ci
	r.op[sendOp].Aux = m
}

// nicRIn adds the receive-gap edge into a message's processing.
func (r *recorder) nicRIn(v int32, n int, cpu uint8, add, addBytes int64) {
	if last := r.nicR[n]; last.v >= 0 && !(r.nicRCPU[n] == cpu && last.rest <= 0) {
		r.edge(last, v, add, addBytes)
	}
}

// Matched: recvOp took sendOp's message. A rendezvous completes at the
// receive's posting when the message was waiting (posted), else at the
// processing start.
func (r *recorder) Matched(recvOp, sendOp int32, posted bool) {
	r.matched(recvOp, sendOp)
	if posted {
		r.match = ref{v: r.op[recvOp].Aux}
	} else {
		r.match = ref{v: r.curMs}
	}
}

func (r *recorder) matched(recvOp, sendOp int32) {
	r.op[recvOp].V = r.op[sendOp].Aux
	if r.ncpu == 1 || r.ops[sendOp].CPU == r.ops[recvOp].CPU {
		r.op[recvOp].Flags |= flagMsgOwnCPU
	}
}

// Freed completes sendOp at the match time r.match, which also bounds
// the next use of the sender's CPU c and NIC n.
func (r *recorder) Freed(sendOp int32, c, n int) {
	src := int(r.ops[sendOp].Rank)
	v := int32(r.b.Vertex(src, sensitivity.Send, 0))
	r.edge(ref{v: r.op[sendOp].V}, v, 0, 0)
	r.edge(r.match, v, 0, 0)
	r.sd[sendOp] = v
	r.op[sendOp].Flags |= flagRendezvous
	if r.match.v >= 0 {
		r.cpuBumps[c] = append(r.cpuBumps[c], r.match)
		r.nicSBumps[n] = append(r.nicSBumps[n], r.match)
	}
}
