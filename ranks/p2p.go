package ranks

import (
	"fmt"
	"math/bits"
)

// Send posts a message to rank dst of the communicator and returns when
// the sender may reuse its buffer: a detached send (fewer than
// EagerThreshold bytes) after its overhead, a rendezvous send when the
// transfer has completed. Data is copied at the call.
func (c *Comm) Send(dst, tag int, m Msg) {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Send"))
	checkUserTag("Send", tag)
	c.send(dst, tag, m)
}

// Isend posts a message and returns at once (after the Isend overhead).
func (c *Comm) Isend(dst, tag int, m Msg) *Request {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Isend"))
	checkUserTag("Isend", tag)
	return c.isend(dst, tag, m, false)
}

// Recv receives a message from rank src (or AnySource) with tag (or AnyTag).
func (c *Comm) Recv(src, tag int) (Msg, Status) {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Recv"))
	q := c.irecv(src, tag)
	q.await("Recv")
	q.payRecv()
	m, st := q.msg, q.status()
	q.w.recycle(q)
	return m, st
}

// send is a blocking send whose request never leaves the package, so it is
// recycled once both the sender is done with it and the message has been
// delivered (a detached send returns before that: delivered recycles it).
func (c *Comm) send(dst, tag int, m Msg) {
	s := c.isend(dst, tag, m, true)
	s.await("Send")
	s.w.release(s)
}

// release gives up the sender's hold on an internal send request: it is
// recycled now if delivered, else by delivered.
func (w *World) release(s *Request) {
	if s.delivered {
		w.recycle(s)
	} else {
		s.released = true
	}
}

// recycle returns a finished request that never left the ranks package (a
// blocking Recv's or Send's) to the World's free list, so that blocking
// calls allocate nothing. Nothing points at it any more: delivery unlinks
// the two sides of a message.
func (w *World) recycle(q *Request) {
	*q = Request{}
	w.freeReqs = append(w.freeReqs, q)
}

// payloadClasses is the number of pooled payload classes: one for each
// class c of a payload of n ≥ 1 doubles (bits.Len of n−1, below 64), so
// that copyPayload indexes the pool without a bounds test of its own.
const payloadClasses = 64

// copyPayload returns a copy of a message's payload, in an array from the
// pool when it holds one large enough (the smallest class that fits: an
// array in class c has room for 2^c doubles); nil for an empty one. It
// fits the inliner's budget of 80 (the version with a class limit of 41
// cost 91 and stayed a call where prepareSend inlines into post and the
// exchanges' steps).
func (w *World) copyPayload(data []float64) []float64 {
	n := len(data)
	if n == 0 {
		return nil
	}
	c := bits.Len(uint(n - 1)) // 2^c ≥ n
	var buf []float64
	if free := w.freeData[c]; len(free) > 0 {
		buf = free[len(free)-1][:n]
		free[len(free)-1] = nil
		w.freeData[c] = free[:len(free)-1]
	} else {
		buf = make([]float64, n, 1<<c) // a whole class, so that it serves any payload of c
	}
	copy(buf, data)
	return buf
}

// Release gives back the payload of a message this rank received (the Data
// of a Recv's or a Wait's Msg) once the application has read it: the copy
// of a later message takes its array instead of allocating one (HPL's ring
// broadcast receives 129 doubles of pivots a panel a rank, most of a Dahu
// run's allocations). The caller must not use data afterwards; nil does
// nothing.
func (c *Comm) Release(data []float64) { c.r.w.reusePayload(data) }

// reusePayload takes back a delivered payload that nobody reads any more.
func (w *World) reusePayload(data []float64) {
	if c := bits.Len(uint(cap(data))) - 1; c >= 0 && c < payloadClasses { // 2^c ≤ cap
		w.freeData[c] = append(w.freeData[c], data[:0])
	}
}

// newRequest takes a request from the free list or allocates one.
func (w *World) newRequest() *Request {
	if n := len(w.freeReqs); n > 0 {
		q := w.freeReqs[n-1]
		w.freeReqs = w.freeReqs[:n-1]
		return q
	}
	return new(Request)
}

// Irecv posts a receive and returns at once; it costs no simulated time.
func (c *Comm) Irecv(src, tag int) *Request {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Irecv"))
	return c.irecv(src, tag)
}

// Sendrecv sends to dst and receives from src concurrently (MPI_Sendrecv),
// as SMPI's Request::sendrecv does: the send posted before the receive,
// then both waited for in the order they complete (its waitall). The order
// shows under contention: a replayed trace's sendRecv posted its receive
// first and ended 3.85 ns early on a fat tree under CM02.
func (c *Comm) Sendrecv(dst, sendTag int, m Msg, src, recvTag int) (Msg, Status) {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Sendrecv"))
	checkUserTag("Sendrecv", sendTag)
	return c.sendrecvMax(dst, sendTag, m, src, recvTag, unbounded)
}

// sendrecvMax is Sendrecv with a receive of at most max bytes, or of any
// size (unbounded).
func (c *Comm) sendrecvMax(dst, sendTag int, m Msg, src, recvTag, max int) (Msg, Status) {
	reqs := [2]*Request{c.isend(dst, sendTag, m, false), c.irecvMax(src, recvTag, max)}
	var got Msg
	var st Status
	for {
		k, x, s := Waitany(reqs[:])
		if k < 0 {
			return got, st
		}
		if k == 1 {
			got, st = x, s
		}
	}
}

func (c *Comm) sendrecv(dst, sendTag int, m Msg, src, recvTag int) (Msg, Status) {
	rq := c.irecv(src, recvTag)
	sq := c.isend(dst, sendTag, m, false)
	sq.await("Sendrecv")
	rm, st := rq.wait("Sendrecv")
	sq.w.release(sq)
	rq.w.recycle(rq)
	return rm, st
}

func checkUserTag(call string, tag int) {
	if tag < 0 {
		panic(fmt.Sprintf("ranks: %s with tag %d: tags must be ≥ 0 (negative ones are the collectives')", call, tag))
	}
}

// Ssend is MPI_Ssend: a send in synchronous mode, which returns only once
// the receiver has the message, however small it is (never detached).
func (c *Comm) Ssend(dst, tag int, m Msg) {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Ssend"))
	checkUserTag("Ssend", tag)
	s := c.post(dst, tag, m, true, true)
	s.await("Ssend")
	s.w.release(s)
}

// Issend is MPI_Issend: Isend in synchronous mode (see Ssend); its request
// completes when the message has arrived.
func (c *Comm) Issend(dst, tag int, m Msg) *Request {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Issend"))
	checkUserTag("Issend", tag)
	return c.post(dst, tag, m, false, true)
}

// isend posts a send. blocking selects MPI_Send's overhead (smpi/os, charged
// only when detached) over MPI_Isend's (smpi/ois, always charged).
func (c *Comm) isend(dst, tag int, m Msg, blocking bool) *Request {
	return c.post(dst, tag, m, blocking, false)
}

// post posts a send: detached (complete at once for the sender) below the
// eager threshold unless sync asks for MPI's synchronous mode.
func (c *Comm) post(dst, tag int, m Msg, blocking, sync bool) *Request {
	m, d, call := c.prepareSend(dst, m, blocking, sync)
	c.r.stack(d, call, m.Bytes)
	return c.postPrepared(dst, tag, m, sync)
}

// prepareSend is the part of post before the send's overhead: it checks
// dst, sizes m and copies its payload, and returns m with the overhead to
// charge, d seconds under the name call (MPI_Send's smpi/os, charged only
// when detached, MPI_Ssend's smpi/os, always charged, as SMPI 3.32's
// Request::start charges a request of its SSEND flag, or MPI_Isend's and
// MPI_Issend's smpi/ois; 0 for none).
func (c *Comm) prepareSend(dst int, m Msg, blocking, sync bool) (_ Msg, d float64, call string) {
	c.checkRank("send", dst)
	r := c.r
	r.payOwed()
	w := r.w
	cfg := &w.cfg
	size := m.size()
	m.Bytes = size
	if m.Data != nil {
		m.Data = w.copyPayload(m.Data) // the sender may reuse its buffer
	}
	switch {
	case !blocking:
		return m, w.memo.ois.lookup(&cfg.IsendOverhead, size, 0), "Isend"
	case size < cfg.EagerThreshold && !sync: // detached
		return m, w.memo.os.lookup(&cfg.SendOverhead, size, 0), "Send"
	case sync: // MPI_Ssend: SMPI charges smpi/os on its SSEND flag, whatever the size
		return m, w.memo.os.lookup(&cfg.SendOverhead, size, 0), "Ssend"
	}
	return m, 0, ""
}

// postPrepared is the part of post after the send's overhead, for m as
// prepareSend returned it.
func (c *Comm) postPrepared(dst, tag int, m Msg, sync bool) *Request {
	r := c.r
	w := r.w
	cfg := &w.cfg
	size := m.Bytes
	detached := size < cfg.EagerThreshold && !sync
	to := w.ranks[c.WorldRank(dst)]
	w.msgSeq++
	s := w.newRequest()
	s.w, s.owner, s.ctx, s.send, s.src, s.peer, s.tag, s.msg = w, r, c.ctx, true, int32(r.id), int32(to.id), tag, m
	s.detached, s.srcRank, s.id = detached, int32(c.rank), w.msgSeq
	w.route(s, r) // now, while the sender's route cache is warm
	if w.hears(SendPost) {
		ev := w.event(SendPost, r.id, to.id)
		ev.Tag, ev.Bytes, ev.MsgID, ev.Rendezvous = tag, size, s.id, !detached
		w.emit()
	}
	if detached {
		w.completeSend(s)
	}
	if q := to.mbox.takeRecv(s); q != nil {
		w.matched(s, q)
		r.simcall()
		return s
	}
	to.mbox.sends.push(s)
	if w.mailed != nil {
		w.mailed[to.gid>>6] |= w.mailBit(to)
	}
	if size < cfg.AsyncThreshold {
		w.startTransfer(s) // true eager: the bytes move before the receive is posted
	}
	if p := to.probe; p != nil && matches(s, p.ctx, p.src, p.tag) {
		w.wakeUp(to)
	}
	r.simcall()
	return s
}

// irecv posts a receive on the calling rank's mailbox, of any size.
func (c *Comm) irecv(src, tag int) *Request { return c.irecvMax(src, tag, unbounded) }

// unbounded is irecvMax's max for a receive that takes a message of any
// size (Recv, Irecv, the collectives' own receives).
const unbounded = -1

// irecvMax posts a receive of at most max bytes, or of any size.
func (c *Comm) irecvMax(src, tag, max int) *Request {
	r := c.r
	r.payOwed()
	w := r.w
	from := AnySource
	if src != AnySource {
		c.checkRank("receive", src)
		from = c.WorldRank(src)
	}
	q := w.newRequest()
	q.w, q.owner, q.ctx, q.src, q.tag = w, r, c.ctx, int32(from), tag
	if max != unbounded {
		q.bounded, q.msg.Bytes = true, max
	}
	if w.heard&recvKinds != 0 {
		w.recvSeq++
		q.id = w.recvSeq
	}
	if w.hears(RecvPost) {
		ev := w.event(RecvPost, r.id, from)
		ev.Tag, ev.RecvID = tag, q.id
		w.emit()
	}
	if s := r.mbox.takeSend(c.ctx, from, tag); s != nil {
		w.matched(s, q)
		r.simcall()
		return q
	}
	r.mbox.recvs.push(q)
	r.simcall()
	return q
}

// takeSend removes the oldest unmatched send that a receive (ctx, src, tag)
// accepts. It answers an empty queue itself and leaves the scan to
// scanSends, so that it fits the inliner's budget at irecvMax, a hot site:
// the whole scan cost 94 against a budget of 80.
func (m *mailbox) takeSend(ctx *commCtx, src, tag int) *Request {
	if m.sends.head == nil {
		return nil
	}
	return m.scanSends(ctx, src, tag)
}

// scanSends is takeSend's scan of a queue that is not empty.
func (m *mailbox) scanSends(ctx *commCtx, src, tag int) *Request {
	var prev *Request
	for s := m.sends.head; s != nil; prev, s = s, s.next {
		if matches(s, ctx, src, tag) {
			m.sends.unlink(prev, s)
			return s
		}
	}
	return nil
}

// takeRecv removes the oldest posted receive that accepts send s.
func (m *mailbox) takeRecv(s *Request) *Request {
	var prev *Request
	for q := m.recvs.head; q != nil; prev, q = q, q.next {
		if matches(s, q.ctx, int(q.src), q.tag) {
			m.recvs.unlink(prev, q)
			return q
		}
	}
	return nil
}

func (q *queue) unlink(prev, r *Request) {
	if prev == nil {
		q.head = r.next
	} else {
		prev.next = r.next
	}
	if q.tail == r {
		q.tail = prev
	}
	r.next = nil
}

// matched pairs send s with receive q and starts the transfer (or, for an
// async send whose bytes are already in, completes the receive now).
func (w *World) matched(s, q *Request) {
	s.match, q.match = q, s
	q.src, q.tag = s.src, s.tag
	if w.hears(Match) {
		p := s.path
		ev := w.event(Match, int(s.peer), int(s.src))
		ev.Tag, ev.Bytes, ev.MsgID, ev.RecvID, ev.Rendezvous = s.tag, s.msg.Bytes, s.id, q.id, !s.detached
		ev.Hops, ev.Latency, ev.Classes = p.hops, s.latency, p.classes
		w.emit()
	}
	switch {
	case s.arrived:
		w.delivered(s)
	case !s.started:
		w.startTransfer(s)
	}
}

// delivered completes both sides of a matched message whose last byte is in.
func (w *World) delivered(s *Request) {
	q := s.match
	if q.bounded && s.msg.Bytes > q.msg.Bytes {
		w.truncate(s, q)
	}
	q.msg = s.msg
	q.srcRank, q.detached = s.srcRank, s.detached // what the receive still needs from the send
	q.done = true
	if q.sleeping() { // waited on while pending (lazyCPU.wait)
		w.cpu.done(w, q)
	}
	if w.hears(RecvDone) {
		p := s.path
		ev := w.event(RecvDone, int(s.peer), int(s.src))
		ev.Tag, ev.Bytes, ev.MsgID, ev.RecvID, ev.Rendezvous = s.tag, s.msg.Bytes, s.id, q.id, !s.detached
		ev.Hops, ev.Latency, ev.Classes, ev.Transfer = p.hops, s.latency, p.classes, s.span
		w.emit()
	}
	if w.simgrid && s.waiter != nil && q.waiter != nil && s.waitSeq < q.waitSeq {
		w.wakeMsg(s.waiter) // SimGrid answers a comm's waiters in the order they waited
	}
	if q.waiter != nil {
		w.wakeMsg(q.waiter)
	}
	if q.set != nil {
		q.set.completed(q)
	}
	if !s.detached {
		w.completeSend(s)
	}
	s.match, q.match = nil, nil
	s.delivered = true
	if s.released {
		w.recycle(s)
	}
}

// completeSend marks the send side done (at post for a detached send, at
// arrival for a rendezvous one).
func (w *World) completeSend(s *Request) {
	s.done = true
	if s.sleeping() { // waited on while pending (lazyCPU.wait)
		w.cpu.done(w, s)
	}
	if w.hears(SendDone) {
		ev := w.event(SendDone, int(s.src), int(s.peer))
		ev.Tag, ev.Bytes, ev.MsgID, ev.Rendezvous = s.tag, s.msg.Bytes, s.id, !s.detached
		if !s.detached {
			p := s.path
			ev.Hops, ev.Latency, ev.Classes, ev.Transfer = p.hops, s.latency, p.classes, s.span
		}
		w.emit()
	}
	if s.waiter != nil {
		w.wakeMsg(s.waiter)
	}
	if s.set != nil {
		s.set.completed(s)
	}
}
