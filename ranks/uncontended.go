package ranks

import (
	"fmt"
	"math"
	"slices"
)

// Uncontended programs: an approximation for a pattern of small messages
// among the ranks of a communicator, chosen by the application.
//
// At Stampede's scale HPL's pivot search is nine messages in ten of a
// panel: for every column a binary exchange of a few KiB among the 77
// ranks of a process column. Each message through the network model costs
// a request, a match, a route, a flow whose start and end re-solve the
// sharing, and its receiver's wake-up; together they are more than half of
// a panel's CPU, for messages that are mostly latency and barely load the
// links the panel broadcasts share. Comm.Uncontended times such a pattern
// as a whole instead: every member hands in its steps, and when the last
// one arrives the World plays the program out in closed form, each message
// taking what it would take alone on its route (its latency phase
// f_lat(size)·L, then its size/f_bw(size) at the route's narrowest
// bandwidth, capped by the TCP window), with the MPI layer's protocol and
// overheads; then each member wakes at its own end. What this leaves out:
// the messages' sharing of bandwidth with other traffic and their load on
// it, the injected delays (Config.MessageDelay), and their events (no
// listener hears them, so an execution graph does not hold them). No
// member leaves before the last has entered.

// Step is one step of a rank's part in Comm.Uncontended: HPL_sdrv's
//
//	q := c.Irecv(Recv, tag)
//	c.Send(Send, tag, Msg{Bytes: Bytes})
//	q.Wait()
//
// with Nobody as Send or Recv leaving that side out. Sends and receives
// between a pair of ranks match in the order they are posted.
type Step struct {
	Send  int // communicator rank the step sends to, or Nobody
	Bytes int // the send's payload, bytes
	Recv  int // communicator rank the step receives from, or Nobody
}

// Uncontended makes the steps of every member of c as a collective: each
// member calls it once with its own steps and data (copied at the call),
// and returns at the simulated time its steps end, with every message
// timed as if alone on the network (see above), or at the time the last
// member entered if that is later. It returns what each member handed in,
// indexed by communicator rank: the caller computes the program's outcome
// from it (the data does not travel along the steps). The slices are the
// World's, valid until the calling rank's next call into the package.
//
// It is an approximation the application opts into; its error depends on
// how much other traffic the messages would have met.
func (c *Comm) Uncontended(steps []Step, data []float64) [][]float64 {
	r := c.r
	defer r.mpiExit(r.mpiEnter("Uncontended"))
	w := r.w
	n := int(c.ctx.size)
	for _, s := range steps {
		if s.Send != Nobody {
			c.checkRank("Uncontended send", s.Send)
		}
		if s.Recv != Nobody {
			c.checkRank("Uncontended receive", s.Recv)
		}
	}
	r.payOwed()
	k := splitKey{c.ctx.id, c.uncSeq}
	c.uncSeq++
	round := w.programs[k]
	if round == nil {
		round = w.newProgramRound(n)
		w.programs[k] = round
	}
	round.steps[c.rank] = append(round.steps[c.rank][:0], steps...)
	round.data[c.rank] = append(round.data[c.rank][:0], data...)
	round.exit[c.rank] = w.eng.Now()
	round.arrived++
	if round.arrived < n {
		r.rang = false
		for !r.rang {
			r.block("Uncontended", noPeer, 0)
		}
	} else {
		delete(w.programs, k)
		now := w.eng.Now()
		w.play(c, round)
		for i := range n {
			if i != c.rank {
				w.eng.AfterHandler(max(round.exit[i]-now, 0), rankTimer{w.ranks[c.WorldRank(i)]})
			}
		}
		r.sleep(round.exit[c.rank]-now, "Uncontended")
	}
	out := round.data
	if round.left++; round.left == n {
		w.freePrograms = append(w.freePrograms, round)
	}
	return out
}

// programRound is one call of Comm.Uncontended on a communicator: what
// its members handed in and, once the last has, when each one's steps end.
type programRound struct {
	steps         [][]Step
	data          [][]float64
	exit          []float64 // a member's entry time, then (play) its end
	arrived, left int
}

// newProgramRound returns an empty round for n members, reusing a finished
// one's arrays: HPL's pivot search makes one round a column.
func (w *World) newProgramRound(n int) *programRound {
	for i, pr := range w.freePrograms {
		if len(pr.steps) == n {
			last := len(w.freePrograms) - 1
			w.freePrograms[i], w.freePrograms[last] = w.freePrograms[last], nil
			w.freePrograms = w.freePrograms[:last]
			pr.arrived, pr.left = 0, 0
			return pr
		}
	}
	return &programRound{steps: make([][]Step, n), data: make([][]float64, n), exit: make([]float64, n)}
}

// uncMsg is one message of a program being played.
type uncMsg struct {
	bytes              int
	alone              float64 // what it takes alone on its route (aloneTime), s
	sendPost, recvPost float64
	arrival            float64
	posted, received   bool // sendPost, recvPost known
	arrived            bool // arrival known
}

// uncStep says which messages a member's step sends and receives (−1: none).
type uncStep struct{ send, recv int32 }

// program is a communicator's last program, compiled: its messages
// matched and timed alone. HPL's pivot search plays the same program for
// every column of a panel (only the members' entry times change), so the
// compiled form is kept on the communicator (commCtx.prog) and reused while
// the steps are the same.
type program struct {
	steps [][]Step // what the members handed in, as compiled
	msgs  []uncMsg
	index [][]uncStep // per member and step, its messages
	pc    []int32
	phase []uint8
}

// play plays a complete round's program out (see the comment at the top
// of this file) and sets each member's end in round.exit, which holds its
// entry time.
func (w *World) play(c *Comm, round *programRound) {
	n := len(round.steps)
	pg := c.ctx.prog
	if pg == nil {
		pg = new(program)
		c.ctx.prog = pg
	}
	if !pg.same(round.steps) {
		pg.compile(w, c, round.steps)
	}
	for i := range pg.msgs {
		m := &pg.msgs[i]
		m.posted, m.received, m.arrived = false, false, false
	}
	// Advance every member as far as it can until all are done: a step
	// posts its receive and its send (a detached send after its overhead),
	// waits for a rendezvous send to arrive, then for its receive.
	t := round.exit
	clear(pg.pc)
	clear(pg.phase)
	cfg := &w.cfg
	left := 0 // members with steps to make
	for _, st := range pg.index {
		if len(st) > 0 {
			left++
		}
	}
	for left > 0 {
		moved := false
		for i := range n {
			st := pg.index[i]
			for int(pg.pc[i]) < len(st) {
				u := st[pg.pc[i]]
				if pg.phase[i] == 0 {
					if u.recv >= 0 {
						m := &pg.msgs[u.recv]
						m.recvPost, m.received = t[i], true
						w.arrive(m)
					}
					if u.send >= 0 {
						m := &pg.msgs[u.send]
						if m.bytes < cfg.EagerThreshold {
							t[i] += cfg.SendOverhead.Value(m.bytes, 0)
						}
						m.sendPost, m.posted = t[i], true
						w.arrive(m)
					}
					pg.phase[i] = 1
				}
				if pg.phase[i] == 1 {
					if u.send >= 0 && pg.msgs[u.send].bytes >= cfg.EagerThreshold {
						m := &pg.msgs[u.send]
						if !m.arrived {
							break
						}
						t[i] = max(t[i], m.arrival)
					}
					pg.phase[i] = 2
				}
				if u.recv >= 0 {
					m := &pg.msgs[u.recv]
					if !m.arrived {
						break
					}
					t[i] = max(t[i], m.arrival)
					if m.bytes < cfg.EagerThreshold {
						t[i] += cfg.RecvOverhead.Value(m.bytes, 0)
					}
				}
				pg.phase[i] = 0
				pg.pc[i]++
				moved = true
				if int(pg.pc[i]) == len(st) {
					left--
				}
			}
		}
		if !moved && left > 0 {
			panic("ranks: Uncontended: the program deadlocks (every unfinished member waits for a message not yet sent)")
		}
	}
}

// same reports whether steps is the program pg was compiled from.
func (pg *program) same(steps [][]Step) bool {
	if len(steps) != len(pg.steps) {
		return false
	}
	for i, st := range steps {
		if !slices.Equal(st, pg.steps[i]) {
			return false
		}
	}
	return true
}

// compile numbers the sends of steps, matches each receive with its pair's
// send of the same rank in order (the programs are short: HPL's are at
// most log2(P) + 3 steps, so scanning beats a map), and times each message
// alone.
func (pg *program) compile(w *World, c *Comm, steps [][]Step) {
	n := len(steps)
	pg.steps = resize(pg.steps, n)
	pg.index = resize(pg.index, n)
	pg.pc, pg.phase = resize(pg.pc, n), resize(pg.phase, n)
	pg.msgs = pg.msgs[:0]
	sends := 0
	for i := range n {
		pg.steps[i] = append(pg.steps[i][:0], steps[i]...)
		idx := pg.index[i][:0]
		for _, s := range steps[i] {
			u := uncStep{send: -1, recv: -1}
			if s.Send != Nobody {
				if s.Bytes < 0 {
					panic(fmt.Sprintf("ranks: Uncontended send of %d bytes", s.Bytes))
				}
				u.send = int32(len(pg.msgs))
				alone := w.aloneTime(c.WorldRank(i), c.WorldRank(s.Send), s.Bytes)
				pg.msgs = append(pg.msgs, uncMsg{bytes: s.Bytes, alone: alone})
				sends++
			}
			idx = append(idx, u)
		}
		pg.index[i] = idx
	}
	for i := range n {
		for j, s := range steps[i] {
			if s.Recv == Nobody {
				continue
			}
			nth := 0 // receives from s.Recv before this one
			for _, e := range steps[i][:j] {
				if e.Recv == s.Recv {
					nth++
				}
			}
			m := int32(-1)
			for k, e := range steps[s.Recv] {
				if e.Send == i {
					if nth == 0 {
						m = pg.index[s.Recv][k].send
						break
					}
					nth--
				}
			}
			if m < 0 {
				pg.steps = pg.steps[:0] // not a program to reuse
				panic(fmt.Sprintf("ranks: Uncontended: rank %d receives from rank %d more than it sends it", i, s.Recv))
			}
			pg.index[i][j].recv = m
			sends--
		}
	}
	if sends != 0 {
		pg.steps = pg.steps[:0]
		panic(fmt.Sprintf("ranks: Uncontended: %d sends without their receive", sends))
	}
}

// arrive sets m's arrival once it is known: its transfer starts when both
// sides are posted (at its post below AsyncThreshold, true eager) and
// takes what it would alone on its route.
func (w *World) arrive(m *uncMsg) {
	if m.arrived || !m.posted {
		return
	}
	start := m.sendPost
	if m.bytes >= w.cfg.AsyncThreshold {
		if !m.received {
			return
		}
		start = max(start, m.recvPost)
	}
	m.arrival, m.arrived = start+m.alone, true
}

// aloneTime is how long a message of payload bytes from world rank src to
// dst takes alone on the network: its latency phase, then its link bytes
// at the route's narrowest bandwidth (and the TCP window's bound), the
// rate max-min gives a flow with no other.
func (w *World) aloneTime(src, dst, bytes int) float64 {
	cp := w.ranks[src].pathTo(dst)
	p := cp.p
	wire := bytes + w.cfg.Envelope
	if p.alone == 0 {
		rate := math.Inf(1)
		for _, l := range p.links {
			rate = min(rate, w.links[l].Bandwidth)
		}
		if p.bound > 0 {
			rate = min(rate, p.bound)
		}
		if !(rate > 0) {
			panic(fmt.Sprintf("ranks: Uncontended message from world rank %d to %d: its route has no bandwidth, it would never arrive", src, dst))
		}
		p.alone = rate
	}
	if w.cfg.FreeTransfers {
		return w.cfg.LatFactor.Value(wire, 1) * cp.latency
	}
	return w.cfg.LatFactor.Value(wire, 1)*cp.latency + float64(wire)/w.cfg.BwFactor.Value(wire, 1)/p.alone
}

// resize returns s with length n, reusing its array when large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
