package ranks

// Unmatched is a send or a receive still waiting for its other side when
// Run returned: a message nobody received, or a receive (an Irecv never
// waited for) that no message matched.
type Unmatched struct {
	Send  bool
	Rank  int // world rank that posted it
	Peer  int // world rank of the other side; AnySource for a wildcard receive
	Tag   int // AnyTag for a wildcard receive
	Bytes int // payload bytes of a send
}

// Unmatched lists what is left in the mailboxes after Run, rank by rank
// (the destination's mailbox for sends), each in posting order. A program
// that ran to its end with nothing left unmatched returns an empty list;
// a replayed trace uses it to report a send with no matching receive, which
// a detached send otherwise leaves unnoticed.
func (w *World) Unmatched() []Unmatched {
	var out []Unmatched
	for _, r := range w.ranks {
		for s := r.mbox.sends.head; s != nil; s = s.next {
			out = append(out, Unmatched{Send: true, Rank: s.owner.id, Peer: r.id, Tag: s.tag, Bytes: s.msg.Bytes})
		}
		for q := r.mbox.recvs.head; q != nil; q = q.next {
			out = append(out, Unmatched{Rank: r.id, Peer: int(q.src), Tag: q.tag})
		}
	}
	return out
}
