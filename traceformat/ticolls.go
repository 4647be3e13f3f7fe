package traceformat

import "fmt"

// checkReceiveCounts pairs the ranks' collectives in order — the k-th
// collective of every rank is one call, as MPI orders the calls of a
// communicator, and a TI trace has only MPI_COMM_WORLD — and refuses a call
// in which a rank's receive count is smaller than the message another rank
// sends it there: MPI_ERR_TRUNCATE, on which SimGrid 3.32's replayer
// aborts ("recv - returned MPI_ERR_TRUNCATE instead of MPI_SUCCESS": the
// collective's own receives are posted with the trace's counts). A rank's
// own part is copied, not sent, and SimGrid ignores its truncation, but for
// alltoall and alltoallv, whose copy failing makes SimGrid skip the rank's
// whole exchange (a deadlock, or a time of 0): that is refused too. The
// check stops at the first call whose ranks disagree on the collective or
// its root, which the replay reports as a deadlock.
func (t *TI) checkReceiveCounts() error {
	n := len(t.rank)
	cursors := make([]collCursor, n)
	call := make([]*TIAction, n)
	for {
		for r := range cursors {
			if call[r] = cursors[r].next(t.rank[r].chunks); call[r] == nil {
				return nil
			}
		}
		k, root := call[0].Kind, call[0].Peer
		for _, a := range call {
			if a.Kind != k || rooted(k) && a.Peer != root {
				return nil
			}
		}
		if err := t.checkCall(call); err != nil {
			return err
		}
	}
}

// collCursor walks one rank's collectives in order.
type collCursor struct{ chunk, i int }

func (c *collCursor) next(chunks [][]TIAction) *TIAction {
	for ; c.chunk < len(chunks); c.chunk, c.i = c.chunk+1, 0 {
		for ; c.i < len(chunks[c.chunk]); c.i++ {
			if a := &chunks[c.chunk][c.i]; a.Kind.Collective() {
				c.i++
				return a
			}
		}
	}
	return nil
}

func rooted(k TIKind) bool {
	switch k {
	case TIBcast, TIReduce, TIGather, TIGatherv, TIScatter, TIScatterv:
		return true
	}
	return false
}

// checkCall checks one call, call[r] being rank r's action: every message
// from rank i to rank j against j's receive count for it, receivers in rank
// order, then senders.
func (t *TI) checkCall(call []*TIAction) error {
	k, root := call[0].Kind, int(call[0].Peer)
	var sent func(i, j int) int64 // the message's bytes
	var most func(j, i int) int64 // j's receive count for it
	switch k {
	case TIAlltoall, TIAllgather:
		sent = func(i, _ int) int64 { return call[i].Bytes }
		most = func(j, _ int) int64 { return call[j].RecvBytes() }
	case TIGather:
		sent = func(i, _ int) int64 { return call[i].Bytes }
		most = func(_, _ int) int64 { return call[root].RecvBytes() }
	case TIScatter:
		sent = func(_, _ int) int64 { return call[root].Bytes }
		most = func(j, _ int) int64 { return call[j].RecvBytes() }
	case TIAlltoallv:
		sent = func(i, j int) int64 { return t.Counts(call[i])[j] }
		most = func(j, i int) int64 { return t.RecvCounts(call[j])[i] }
	case TIAllgatherv, TIGatherv:
		sent = func(i, _ int) int64 { return call[i].Bytes }
		most = func(j, i int) int64 { return t.RecvCounts(call[j])[i] }
	case TIScatterv:
		sent = func(_, j int) int64 { return t.Counts(call[root])[j] }
		most = func(j, _ int) int64 { return call[j].RecvBytes() }
	default:
		return nil // one count for all ranks, or none
	}
	own := k == TIAlltoall || k == TIAlltoallv // a rank's own part is checked too
	recvFrom, recvTo := 0, len(call)           // the ranks that receive
	sendFrom, sendTo := 0, len(call)           // and those that send
	switch k {
	case TIGather, TIGatherv:
		recvFrom, recvTo = root, root+1
	case TIScatter, TIScatterv:
		sendFrom, sendTo = root, root+1
	}
	for j := recvFrom; j < recvTo; j++ {
		for i := sendFrom; i < sendTo; i++ {
			if i == j && !own {
				continue
			}
			if s, m := sent(i, j), most(j, i); s > m {
				return t.truncated(call, k, i, j, s, m)
			}
		}
	}
	return nil
}

// truncated is the error of a message of s bytes from rank i to rank j,
// whose receive count in the call is m < s.
func (t *TI) truncated(call []*TIAction, k TIKind, i, j int, s, m int64) error {
	at := fmt.Sprintf("%s:%d: rank %d's %s", t.File(j), call[j].Line, j, k)
	if i == j {
		return fmt.Errorf("%s receives at most %d bytes of its own part of %d: MPI_ERR_TRUNCATE "+
			"(SimGrid's replayer then skips the rank's exchange: a deadlock, or a time of 0)", at, m, s)
	}
	where := fmt.Sprintf("line %d", call[i].Line)
	if t.File(i) != t.File(j) { // a trace in one file per rank
		where = fmt.Sprintf("%s:%d", t.File(i), call[i].Line)
	}
	return fmt.Errorf("%s receives at most %d bytes from rank %d, whose %s (%s) sends %d: MPI_ERR_TRUNCATE "+
		"(SimGrid's replayer aborts on it too)", at, m, i, k, where, s)
}
