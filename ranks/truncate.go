package ranks

import "fmt"

// RecvUpTo is Recv with MPI's count: a receive of at most max bytes (max ≥
// 0). A matched message of more bytes is MPI's MPI_ERR_TRUNCATE: the
// message is taken and moves whole, as the receive matched it, and the
// receive completes with the error, which stops the run as MPI's default
// error handler (MPI_ERRORS_ARE_FATAL) does: World.Run returns a
// *PanicError that unwraps to a *TruncateError. A message of max bytes or
// fewer is received as by Recv (the count is an upper bound), in the same
// time. Recv itself bounds nothing, as a receive into a buffer large
// enough for any message.
func (c *Comm) RecvUpTo(src, tag, max int) (Msg, Status) {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Recv"))
	q := c.irecvUpTo(src, tag, max)
	q.await("Recv")
	q.payRecv()
	m, st := q.msg, q.status()
	q.w.recycle(q)
	return m, st
}

// IrecvUpTo is Irecv with MPI's count, max bytes (see RecvUpTo): the call
// that completes the request (Wait, Test, Waitany, Testany, Waitall,
// WaitSet.Next) stops the run with a *TruncateError if the message it
// matched is longer.
func (c *Comm) IrecvUpTo(src, tag, max int) *Request {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Irecv"))
	return c.irecvUpTo(src, tag, max)
}

// irecvUpTo posts a receive of at most max bytes.
func (c *Comm) irecvUpTo(src, tag, max int) *Request {
	if max < 0 {
		panic(fmt.Sprintf("ranks: a receive of at most %d bytes: want ≥ 0", max))
	}
	return c.irecvMax(src, tag, max)
}

// truncate records that bounded receive q got send s's longer message:
// the transfer goes on whole, and the call that completes q raises the
// error (Request.payRecv).
func (w *World) truncate(s, q *Request) {
	if w.truncations == nil {
		w.truncations = make(map[*Request]*TruncateError)
	}
	w.truncations[q] = &TruncateError{Rank: q.owner.id, Source: int(s.src), Tag: s.tag, Bytes: s.msg.Bytes, Max: q.msg.Bytes}
	q.truncated = true
}

// TruncateError is MPI_ERR_TRUNCATE: a receive of at most Max bytes
// matched a message of Bytes > Max bytes. Ranks are world ranks.
type TruncateError struct {
	Rank   int // the receiving rank
	Source int // the sender
	Tag    int // the message's tag
	Bytes  int // the message's size
	Max    int // the receive's
}

func (e *TruncateError) Error() string {
	return fmt.Sprintf("rank %d: MPI_ERR_TRUNCATE: a receive of at most %d bytes matched a message of %d bytes (from rank %d, tag %d)",
		e.Rank, e.Max, e.Bytes, e.Source, e.Tag)
}

// SendrecvUpTo is Sendrecv whose receive takes at most max bytes (see
// RecvUpTo): a longer message stops the run with a *TruncateError.
func (c *Comm) SendrecvUpTo(dst, sendTag int, m Msg, src, recvTag, max int) (Msg, Status) {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Sendrecv"))
	checkUserTag("Sendrecv", sendTag)
	if max < 0 {
		panic(fmt.Sprintf("ranks: a receive of at most %d bytes: want ≥ 0", max))
	}
	return c.sendrecvMax(dst, sendTag, m, src, recvTag, max)
}
