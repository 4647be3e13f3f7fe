package ranks

// Msg is a message: a size on the wire and, in real-data runs, a payload.
type Msg struct {
	Bytes int       // payload size on the wire; if 0 and Data != nil, 8·len(Data)
	Data  []float64 // optional real payload; nil in model mode
	parts []Msg     // collectives' per-rank pieces, carried by reference (not on the wire)
}

// size returns the payload size in bytes.
func (m Msg) size() int {
	if m.Bytes == 0 && m.Data != nil {
		return 8 * len(m.Data)
	}
	return m.Bytes
}

// Status describes a received (or probed) message.
type Status struct {
	Source int // rank of the sender in the communicator
	Tag    int
	Bytes  int // payload bytes
}

// Request is a pending send or receive (MPI_Request).
//
// Layout: 192 bytes, a size class whose objects are 64-byte aligned, so
// that a request spans exactly three cache lines: at Stampede's scale a
// request is out of the cache whenever its message's next event fires. The
// first line holds what matching reads of each request it passes (ctx,
// src, tag, next) and what the end of a latency phase reads (w, the flags,
// path); the second the message (its size starts a flow); the third the
// rest. Neither matching nor a transfer's events read the owner's Rank:
// src and w are copies of what they would read there.
type Request struct {
	w     *World   // the owner's World
	path  *path    // send side: the route (World.route), looked up at post
	match *Request // the other side, from matching to delivery
	next  *Request // link in a mailbox queue
	ctx   *commCtx
	tag   int // AnyTag for a wildcard receive until matched

	// Flags, packed together.
	send     bool
	done     bool
	detached bool // the sender did not wait for the transfer (size < EagerThreshold)
	orPaid   bool // receive side: the receive overhead was charged
	arrived  bool // the last byte is in (before a match for async sends)
	started  bool // the transfer has started
	inFlow   bool // the transfer is past its latency phase
	// Recycling of the requests of blocking calls (see Comm.send).
	delivered bool // the message is in and both sides are unlinked
	released  bool // the blocking sender no longer needs it
	// progressed: an MPI call of the receiving rank has ended since the
	// send was posted (Config.ProbeAfterProgress).
	progressed bool
	// Receive side: bounded, a receive of at most msg.Bytes bytes until
	// delivery (Comm.RecvUpTo; in msg, which holds nothing else until
	// then, because the request has no byte to spare); truncated, it got
	// a longer message (World.truncated holds its error).
	bounded, truncated bool

	// src is, for a send, the world rank of its sender (the owner); for a
	// receive, the world rank it accepts (AnySource until matched, then
	// the sender's).
	src int32

	msg Msg
	// span is the transfer's first instant, s; once the last byte is in
	// (arrived), the transfer's duration: last byte in − first byte sent.
	span float64

	owner   *Rank
	waiter  *Rank    // the owner, while it is blocked on this request
	set     *WaitSet // the set the request belongs to, until Next returns it
	setID   int      // the id it was added to the set with
	latency float64  // send side: the latency phase on the route (World.route), s
	// id is the hook identity: a send's message (Event.MsgID), a receive's
	// own (Event.RecvID, 0 without hooks).
	id uint64
	// waitSeq is when its owner first blocked on it (Config.WakeOrder =
	// WakeSimGrid wakes waiters in this order): World.waitSeq, even, or
	// that plus 1 while the wait holds a sleep on its owner's host
	// (sleeping). The flag's bit leaves the order as it is and the
	// request at 192 bytes.
	waitSeq uint64
	peer    int32 // send side: the destination's world rank (a receive's other side is src)
	srcRank int32 // sender's rank in the communicator (copied to the receive at delivery, with detached)
}

// sleeping reports whether q's owner blocked on q while it was pending,
// under WakeSimGrid, and the sleep that this wait holds on the owner's
// host (lazyCPU.wait) lasts until q completes (lazyCPU.done).
func (q *Request) sleeping() bool { return q.waitSeq&1 != 0 }

// other is the world rank of the request's other side: a send's
// destination, a receive's source (AnySource until a wildcard is matched).
func (q *Request) other() int {
	if q.send {
		return int(q.peer)
	}
	return int(q.src)
}

// status describes the message a completed receive got.
func (q *Request) status() Status {
	return Status{Source: int(q.srcRank), Tag: q.tag, Bytes: q.msg.Bytes}
}

// mailbox holds a rank's unmatched incoming sends and posted receives, each
// a FIFO: scanning from the front gives MPI's non-overtaking order.
type mailbox struct {
	sends, recvs queue
}

type queue struct{ head, tail *Request }

func (q *queue) push(r *Request) {
	r.next = nil
	if q.tail == nil {
		q.head = r
	} else {
		q.tail.next = r
	}
	q.tail = r
}

// matches reports whether send s satisfies a receive on ctx from world rank
// src (AnySource) with tag (AnyTag matches only tags ≥ 0).
func matches(s *Request, ctx *commCtx, src, tag int) bool {
	if s.ctx != ctx || (src != AnySource && int(s.src) != src) {
		return false
	}
	if tag == AnyTag {
		return s.tag >= 0
	}
	return s.tag == tag
}
