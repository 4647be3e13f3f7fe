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
// Field order: a transfer's events (xfer.Handle, World.delivered) read the
// owner, the flags, the other side and the route first, so these lead, in
// the first 64 bytes: at Stampede's scale a request is out of the cache
// whenever its message's next event fires.
type Request struct {
	owner *Rank

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

	match   *Request // the other side, from matching to delivery
	path    *path    // the route, once looked up (World.route)
	waiter  *Rank    // the owner, while it is blocked on this request
	set     *WaitSet // the set the request belongs to, until Next returns it
	end     float64  // the transfer's last instant, s
	latency float64  // with path: the latency phase on it (World.latencyOf), s
	ctx     *commCtx
	setID   int      // the id it was added to the set with
	next    *Request // link in a mailbox queue
	peer    int      // world rank of the other side; AnySource for a wildcard receive until matched
	tag     int      // AnyTag for a wildcard receive until matched
	msg     Msg

	// Send side (srcRank and detached are copied to the receive at delivery).
	srcRank int     // sender's rank in the communicator
	msgID   uint64  // hook identity of the message
	recvID  uint64  // receive side: hook identity of the receive (0 without hooks)
	start   float64 // the transfer's first instant, s
	waitSeq uint64  // when its owner first blocked on it (Config.WakeOrder = WakeSimGrid wakes waiters in this order)
}

// status describes the message a completed receive got.
func (q *Request) status() Status {
	return Status{Source: q.srcRank, Tag: q.tag, Bytes: q.msg.Bytes}
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
	if s.ctx != ctx || (src != AnySource && s.owner.id != src) {
		return false
	}
	if tag == AnyTag {
		return s.tag >= 0
	}
	return s.tag == tag
}
