package replay

import (
	"fmt"
	"strings"

	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/traceformat"
)

// Blocked is a rank that a deadlocked replay left waiting.
type Blocked struct {
	Rank int
	File string
	Line int    // the trace line of the operation it is blocked in
	What string // that operation, and the MPI call it waits in
}

// DeadlockError reports a schedule that cannot complete: every rank left
// is blocked and nothing is under way (ranks.DeadlockError, with each
// rank's place in the trace).
type DeadlockError struct {
	Time    float64 // s
	Blocked []Blocked
	Stalled int // messages in flight that never complete (ranks.DeadlockError.Stalled)
}

// maxListed bounds the ranks and messages an error message lists.
const maxListed = 8

func (e *DeadlockError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "deadlock at t=%gs: %d rank(s) blocked", e.Time, len(e.Blocked))
	for i, r := range e.Blocked {
		if i == maxListed {
			fmt.Fprintf(&b, "; ... %d more", len(e.Blocked)-i)
			break
		}
		fmt.Fprintf(&b, "; rank %d at %s:%d: %s", r.Rank, r.File, r.Line, r.What)
	}
	if e.Stalled > 0 {
		b.WriteString(ranks.StalledNote(e.Stalled))
	}
	return b.String()
}

// deadlock turns the World's report into the trace's.
func (x *exec) deadlock(dl *ranks.DeadlockError) error {
	e := &DeadlockError{Time: dl.Time, Stalled: dl.Stalled}
	for _, br := range dl.Blocked {
		b := Blocked{Rank: br.Rank}
		call := fmt.Sprintf("blocked in %s", br.Call)
		if br.Peer >= 0 {
			call += fmt.Sprintf(" with rank %d", br.Peer)
		}
		if x.t.GOAL != nil {
			b.File, b.Line, b.What = x.goalBlocked(br.Rank)
		} else if a := x.cur[br.Rank]; a != nil {
			b.File, b.Line, b.What = x.t.TI.File(br.Rank), int(a.Line), describe(*a)
			if x.ending[br.Rank] {
				b.What += ", never waited: the trace's end waits for it, as SimGrid's replayer does"
			}
		}
		b.What += " (" + call + ")"
		e.Blocked = append(e.Blocked, b)
	}
	return e
}

// goalBlocked describes what a GOAL rank waits for: the ops it posted.
func (x *exec) goalBlocked(rank int) (string, int, string) {
	s := x.t.GOAL
	g := x.goal[rank]
	var parts []string
	line := 0
	for i, p := range g.pending {
		if p != opPosted {
			continue
		}
		op := s.Op(g.first + i)
		if line == 0 {
			line = op.Line
		}
		if len(parts) == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, describeGOAL(op))
	}
	if len(parts) == 0 {
		return s.Name, 0, "no op posted"
	}
	return s.Name, line, "waiting for " + strings.Join(parts, ", ")
}

func describeGOAL(op traceformat.Op) string {
	peer := fmt.Sprint(op.Peer)
	if op.Peer == traceformat.AnySource {
		peer = "any"
	}
	tag := fmt.Sprint(goalTag(op.Tag))
	if op.Tag == traceformat.AnyTag {
		tag = "any"
	}
	if op.Kind == traceformat.OpSend {
		return fmt.Sprintf("send %db to %s tag %s (line %d)", op.Size, peer, tag, op.Line)
	}
	return fmt.Sprintf("recv %db from %s tag %s (line %d)", op.Size, peer, tag, op.Line)
}

// describe names a TI action for a report.
func describe(a traceformat.TIAction) string {
	switch a.Kind {
	case traceformat.TISend, traceformat.TIIsend:
		return fmt.Sprintf("%s of %d bytes to %d tag %d", a.Kind, a.Bytes, a.Peer, a.Tag)
	case traceformat.TIRecv, traceformat.TIIrecv:
		return fmt.Sprintf("%s from %d tag %d", a.Kind, a.Peer, a.Tag)
	case traceformat.TIWait, traceformat.TITest:
		return fmt.Sprintf("%s for %d→%d tag %d", a.Kind, a.Peer, a.Peer2, a.Tag)
	case traceformat.TISendrecv:
		return fmt.Sprintf("sendrecv to %d from %d", a.Peer, a.Peer2)
	case traceformat.TIBcast, traceformat.TIReduce, traceformat.TIGather, traceformat.TIGatherv, traceformat.TIScatter, traceformat.TIScatterv:
		return fmt.Sprintf("%s (root %d)", a.Kind, a.Peer)
	}
	return a.Kind.String()
}

// UnmatchedError reports messages that no receive took, or receives that
// no message matched, once every rank finished.
type UnmatchedError struct {
	Left []Left
}

// Left is one unmatched send or receive, with the trace line that posted
// it when it can be told.
type Left struct {
	ranks.Unmatched
	File string
	Line int // 0 when unknown
	// Coll is the collective that sent an internal message (a tag below
	// ranks.AnyTag: no trace line has it), e.g. "bcast (root 0)"; "" for
	// the trace's own sends and receives.
	Coll string
}

func (e *UnmatchedError) Error() string {
	var b strings.Builder
	for i, l := range e.Left {
		if i == maxListed {
			fmt.Fprintf(&b, "; ... %d more", len(e.Left)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		if l.Line > 0 {
			fmt.Fprintf(&b, "%s:%d: ", l.File, l.Line)
		}
		switch {
		case l.Send && l.Tag < ranks.AnyTag:
			coll := l.Coll
			if coll == "" {
				coll = "collective"
			}
			fmt.Fprintf(&b, "rank %d's %s: its message of %d bytes to rank %d has no matching receive (rank %d does not call it?)", l.Rank, coll, l.Bytes, l.Peer, l.Peer)
		case l.Send:
			fmt.Fprintf(&b, "rank %d's send of %d bytes to rank %d tag %d has no matching receive", l.Rank, l.Bytes, l.Peer, l.Tag)
		default:
			fmt.Fprintf(&b, "rank %d's receive from %s tag %s got no message", l.Rank, anyOr(l.Peer, ranks.AnySource), anyOr(l.Tag, ranks.AnyTag))
		}
	}
	return b.String()
}

func anyOr(v, wildcard int) string {
	if v == wildcard {
		return "any"
	}
	return fmt.Sprint(v)
}

// unmatched reports what the World left unmatched, naming for each the
// last trace line of its rank that posts such a send or receive.
func (x *exec) unmatched(left []ranks.Unmatched) error {
	e := &UnmatchedError{}
	for _, u := range left {
		l := Left{Unmatched: u}
		l.File, l.Line, l.Coll = x.lineOf(u)
		e.Left = append(e.Left, l)
	}
	return e
}

// lineOf finds the last operation of u's rank that posts u: for a
// collective's internal message (a tag below AnyTag, which no trace line
// has), the rank's last collective, described.
func (x *exec) lineOf(u ranks.Unmatched) (file string, line int, coll string) {
	if s := x.t.GOAL; s != nil {
		first, end := s.RankOps(u.Rank)
		for i := end - 1; i >= first; i-- {
			op := s.Op(i)
			send := op.Kind == traceformat.OpSend
			if op.Kind != traceformat.OpCalc && send == u.Send && op.Peer == u.Peer && goalTag(op.Tag) == u.Tag {
				return s.Name, op.Line, ""
			}
		}
		return s.Name, 0, ""
	}
	ti := x.t.TI
	internal := u.Tag < ranks.AnyTag
	for _, chunk := range ti.Chunks(u.Rank) {
		for _, a := range chunk {
			send := a.Kind == traceformat.TISend || a.Kind == traceformat.TIIsend
			recv := a.Kind == traceformat.TIRecv || a.Kind == traceformat.TIIrecv
			switch {
			case internal && a.Kind.Collective():
				line, coll = int(a.Line), describe(a)
			case !internal && (send && u.Send || recv && !u.Send) && int(a.Peer) == u.Peer && int(a.Tag) == u.Tag:
				line = int(a.Line)
			case !internal && a.Kind == traceformat.TISendrecv && u.Send && int(a.Peer) == u.Peer && u.Tag == 0: // SimGrid's tag
				line = int(a.Line)
			}
		}
	}
	return ti.File(u.Rank), line, coll
}

// IncompleteError reports a GOAL schedule that the loggops semantics could
// not run to its end (loggops.IncompleteError: receives or messages left
// unmatched), ran only in part (ops that never started), would run only
// through LogGOPSim's unsigned time wrapping (loggops.WrapError), or has a
// message too long for its integer time (loggops.ScaleError): like a
// DeadlockError, the schedule's (and its parameters') fault.
type IncompleteError struct{ Err error }

func (e *IncompleteError) Error() string { return e.Err.Error() }
func (e *IncompleteError) Unwrap() error { return e.Err }

// TruncateError reports a TI receive of fewer bytes than the message it
// matched (MPI_ERR_TRUNCATE; SimGrid's replayer aborts on it): the
// receive's place in the trace, the call that completed it, the message.
type TruncateError struct {
	File string
	Line int    // the recv or irecv
	What string // it, described
	At   string // where it completed when not at its own line: "the wait of line 9", "the trace's end"
	ranks.TruncateError
}

func (e *TruncateError) Error() string {
	s := fmt.Sprintf("%s:%d: rank %d's %s matched rank %d's message of %d bytes (tag %d): MPI_ERR_TRUNCATE", e.File, e.Line, e.Rank, e.What, e.Source, e.Bytes, e.Tag)
	if e.At != "" {
		s += ", at " + e.At
	}
	return s + " (SimGrid's replayer aborts on it too)"
}

// truncated turns the World's MPI_ERR_TRUNCATE into the trace's: the
// receive's line, and the wait, test or waitall that completed it.
func (x *exec) truncated(e *ranks.TruncateError) error {
	a := x.recv[e.Rank]
	if a == nil {
		return e
	}
	kind, peer := a.Kind.String(), a.Peer
	if a.Kind == traceformat.TISendrecv {
		kind, peer = "sendrecv's receive", a.Peer2
	}
	src := fmt.Sprintf("rank %d", peer)
	if int(peer) == ranks.AnySource {
		src = "any source"
	}
	tag := fmt.Sprintf("tag %d", a.Tag)
	if int(a.Tag) == ranks.AnyTag {
		tag = "any tag"
	}
	te := &TruncateError{File: x.t.TI.File(e.Rank), Line: int(a.Line), TruncateError: *e,
		What: fmt.Sprintf("%s of at most %d bytes from %s %s", kind, e.Max, src, tag)}
	switch c := x.cur[e.Rank]; {
	case x.ending[e.Rank]:
		te.At = "the trace's end"
	case c != nil && c != a:
		te.At = fmt.Sprintf("the %s of line %d", c.Kind, c.Line)
	}
	return te
}

// TooLongError refuses a TI trace whose compute (or a reduction's flops)
// lasts more than traceformat.MaxActionSeconds on its rank's host: a trace
// whose amounts, or a platform whose speed, has its units wrong (compute
// 1e300 ran to a Time of 1e+291 s). Checked before the run starts.
type TooLongError struct {
	File    string
	Line    int
	Action  string  // "compute", "allreduce", ...
	Rank    int     // the trace rank
	Flops   float64 // the action's flops
	Speed   float64 // its host's speed, flop/s
	Seconds float64 // Flops / Speed
}

// InputFault marks the error as its input's fault (ranks.InputFault): the
// trace's or the platform's.
func (e *TooLongError) InputFault() {}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("%s:%d: %s of %g flops lasts %.2g s on rank %d's host (%g flop/s), over emu's bound of %g s (%.1f days) an action: are the amounts in flops and the speed in flop/s?",
		e.File, e.Line, e.Action, e.Flops, e.Seconds, e.Rank, e.Speed, float64(traceformat.MaxActionSeconds), traceformat.MaxActionSeconds/86400)
}

// tooLong finds a TI action whose flops last more than
// traceformat.MaxActionSeconds at its rank's speed: the first in rank
// order, then in file order.
func (x *exec) tooLong() error {
	for r := range x.t.Ranks() {
		speed := x.speed
		if x.speeds != nil {
			speed = x.speeds[r]
		}
		limit := traceformat.MaxActionSeconds * speed
		for _, chunk := range x.t.TI.Chunks(r) {
			for i := range chunk {
				a := &chunk[i]
				switch a.Kind {
				case traceformat.TICompute, traceformat.TIReduce, traceformat.TIAllreduce, traceformat.TIScan,
					traceformat.TIExscan, traceformat.TIReducescatter:
					if a.Flops > limit {
						return &TooLongError{File: x.t.TI.File(r), Line: int(a.Line), Action: a.Kind.String(), Rank: r,
							Flops: a.Flops, Speed: speed, Seconds: a.Flops / speed}
					}
				}
			}
		}
	}
	return nil
}
