package ranks

// WaitSet is a set of one rank's pending requests that it waits on as a
// whole, taking them back in the order they complete: MPI_Waitsome over a
// set that changes between calls, at O(1) a completion. Waitany scans its
// whole slice on every call, which is quadratic for a program that keeps
// thousands of requests posted (a replayed GOAL schedule pre-posts every
// receive it can).
type WaitSet struct {
	owner   *Rank
	done    []*Request // members complete and not yet taken, in completion order
	head    int        // done[:head] were taken
	members int        // members not yet taken
	waiting bool       // the owner is blocked in Next
}

// NewWaitSet returns an empty set of r's requests.
func (r *Rank) NewWaitSet() *WaitSet { return &WaitSet{owner: r} }

// Len is the number of members not yet taken by Next.
func (s *WaitSet) Len() int { return s.members }

// Done is the number of members complete and not yet taken: Next returns
// at once while it is positive. Asking costs no simulated time.
func (s *WaitSet) Done() int {
	s.owner.settle()
	return len(s.done) - s.head
}

// Add puts q, a request of the set's rank not in another set and not
// waited on otherwise, into the set, with an id of the caller's that Next
// gives back with it.
func (s *WaitSet) Add(q *Request, id int) {
	if q.owner != s.owner || q.set != nil {
		panic("ranks: WaitSet.Add of another rank's request, or of one already in a set")
	}
	s.owner.settle() // whether q is done yet
	q.set, q.setID = s, id
	s.members++
	if q.done {
		s.done = append(s.done, q)
	}
}

// Next blocks until a member has completed and returns it and its id,
// having charged what completing it costs (a detached message's receive
// overhead), with its message and status; the request leaves the set.
// With no member it returns nil at once.
func (s *WaitSet) Next() (*Request, int, Msg, Status) {
	if s.members == 0 {
		return nil, 0, Msg{}, Status{}
	}
	defer s.owner.mpiExit(s.owner.mpiEnter("MPI_Waitany"))
	for s.head == len(s.done) {
		s.waiting = true
		s.owner.block("Waitsome", noPeer, 0)
	}
	s.waiting = false
	q := s.done[s.head]
	s.done[s.head] = nil
	if s.head++; s.head == len(s.done) {
		s.done, s.head = s.done[:0], 0
	}
	s.members--
	q.set = nil
	m, st := q.finish()
	return q, q.setID, m, st
}

// completed records that member q is done and wakes the owner if it waits.
func (s *WaitSet) completed(q *Request) {
	s.done = append(s.done, q)
	if s.waiting {
		s.waiting = false
		s.owner.w.wakeMsg(s.owner)
	}
}
