package loggops

import (
	"fmt"
	"slices"
	"strings"

	"github.com/emu-hpc/emu/traceformat"
)

// matchQueues is one matching queue per rank (the posted receives RQ, or
// the unexpected messages UQ), split by (source, tag) into FIFO lists
// found through a hash table. LogGOPSim keeps one list per rank and takes
// the first entry, in insertion order, whose source and tag match (−1
// matching anything on either side). Hashing gives the same answer: within
// one (source, tag) list the head is the oldest, so the first match is the
// oldest head among the lists whose key matches. Without wildcards that is
// one list; wildcards cost a look at up to four lists, or a walk over the
// rank's lists when the query itself is a wildcard.
//
// Lists are dropped from the table when they empty, so the table holds
// only live keys (Schedgen's tags often number iterations, and a table of
// every key ever used would fall out of cache).
type matchQueues struct {
	tab  keyTable
	qKey []mqKey
	// per list: head and tail entry (-1 if none), and the rank's list of
	// live lists (prev, next), for wildcard queries
	qHead, qTail []int32
	qPrev, qNext []int32
	freeQ        int32
	rankHead     []int32 // first live list of each rank, -1 if none
	eOp          []int32 // the op of each entry: recv (RQ) or send (UQ)
	eSeq         []int64 // insertion number
	eNext        []int32 // next entry of the same list, or of the free list
	freeE        int32
	seq          int64
	wild, size   []int32 // per rank: entries under a wildcard key, all entries

	// linear selects LogGOPSim's own structure, one list per rank searched
	// from the head, as a plain reference.
	linear bool
	lists  [][]listEntry
}

type listEntry struct{ src, tag, op int32 }

type mqKey struct{ rank, src, tag int32 }

func (m *matchQueues) init(ranks int) {
	m.lists = make([][]listEntry, ranks)
	m.tab.init()
	m.freeQ, m.freeE = -1, -1
	m.rankHead = fill(make([]int32, ranks), -1)
	m.wild = make([]int32, ranks)
	m.size = make([]int32, ranks)
}

// newList makes an empty list for k and links it into its rank's lists.
func (m *matchQueues) newList(k mqKey) int32 {
	q := m.freeQ
	if q >= 0 {
		m.freeQ = m.qNext[q]
		m.qKey[q] = k
	} else {
		q = int32(len(m.qKey))
		m.qKey = append(m.qKey, k)
		m.qHead = append(m.qHead, -1)
		m.qTail = append(m.qTail, -1)
		m.qPrev = append(m.qPrev, -1)
		m.qNext = append(m.qNext, -1)
	}
	m.qHead[q], m.qTail[q], m.qPrev[q] = -1, -1, -1
	m.qNext[q] = m.rankHead[k.rank]
	if m.qNext[q] >= 0 {
		m.qPrev[m.qNext[q]] = q
	}
	m.rankHead[k.rank] = q
	m.tab.put(k, q)
	return q
}

// dropList unlinks an emptied list and frees it.
func (m *matchQueues) dropList(q int32) {
	k := m.qKey[q]
	m.tab.del(k)
	if p := m.qPrev[q]; p >= 0 {
		m.qNext[p] = m.qNext[q]
	} else {
		m.rankHead[k.rank] = m.qNext[q]
	}
	if n := m.qNext[q]; n >= 0 {
		m.qPrev[n] = m.qPrev[q]
	}
	m.qNext[q] = m.freeQ
	m.freeQ = q
}

// add appends op at the tail of rank h's (src, tag) list.
func (m *matchQueues) add(h int, src, tag int32, op int32) {
	if m.linear {
		m.lists[h] = append(m.lists[h], listEntry{src, tag, op})
		m.size[h]++
		return
	}
	k := mqKey{int32(h), src, tag}
	q := m.tab.get(k)
	if q < 0 {
		q = m.newList(k)
	}
	e := m.freeE
	if e >= 0 {
		m.freeE = m.eNext[e]
		m.eOp[e], m.eSeq[e], m.eNext[e] = op, m.seq, -1
	} else {
		e = int32(len(m.eOp))
		m.eOp = append(m.eOp, op)
		m.eSeq = append(m.eSeq, m.seq)
		m.eNext = append(m.eNext, -1)
	}
	m.seq++
	if m.qTail[q] >= 0 {
		m.eNext[m.qTail[q]] = e
	} else {
		m.qHead[q] = e
	}
	m.qTail[q] = e
	m.size[h]++
	if src == traceformat.AnySource || tag == traceformat.AnyTag {
		m.wild[h]++
	}
}

// older reports whether list q's head is older than list best's (best may be -1).
func (m *matchQueues) older(q, best int32) bool {
	return best < 0 || m.eSeq[m.qHead[q]] < m.eSeq[m.qHead[best]]
}

// take removes and returns the oldest entry of rank h matching (src, tag).
func (m *matchQueues) take(h int, src, tag int32) (int32, bool) {
	if m.size[h] == 0 {
		return 0, false
	}
	if m.linear {
		for i, le := range m.lists[h] {
			if (src == traceformat.AnySource || le.src == traceformat.AnySource || le.src == src) && (tag == traceformat.AnyTag || le.tag == traceformat.AnyTag || le.tag == tag) {
				m.lists[h] = append(m.lists[h][:i], m.lists[h][i+1:]...)
				m.size[h]--
				return le.op, true
			}
		}
		return 0, false
	}
	best := int32(-1)
	if src == traceformat.AnySource || tag == traceformat.AnyTag {
		for q := m.rankHead[h]; q >= 0; q = m.qNext[q] {
			k := m.qKey[q]
			if (src == traceformat.AnySource || k.src == traceformat.AnySource || k.src == src) &&
				(tag == traceformat.AnyTag || k.tag == traceformat.AnyTag || k.tag == tag) && m.older(q, best) {
				best = q
			}
		}
	} else {
		best = m.tab.get(mqKey{int32(h), src, tag})
		if m.wild[h] > 0 {
			for _, k := range [3]mqKey{{int32(h), traceformat.AnySource, tag}, {int32(h), src, traceformat.AnyTag}, {int32(h), traceformat.AnySource, traceformat.AnyTag}} {
				if q := m.tab.get(k); q >= 0 && m.older(q, best) {
					best = q
				}
			}
		}
	}
	if best < 0 {
		return 0, false
	}
	e := m.qHead[best]
	op := m.eOp[e]
	m.qHead[best] = m.eNext[e]
	m.eNext[e] = m.freeE
	m.freeE = e
	m.size[h]--
	if k := m.qKey[best]; k.src == traceformat.AnySource || k.tag == traceformat.AnyTag {
		m.wild[h]--
	}
	if m.qHead[best] < 0 {
		m.dropList(best)
	}
	return op, true
}

// left lists up to limit entries left in rank h's queue, as "(src S, tag T,
// line N)" in file order, and the line of the oldest.
func (m *matchQueues) left(s *traceformat.Schedule, h int, limit int) (string, int) {
	var ops []int32
	for _, le := range m.lists[h] {
		ops = append(ops, le.op)
	}
	for q := m.rankHead[h]; q >= 0; q = m.qNext[q] {
		for e := m.qHead[q]; e >= 0; e = m.eNext[e] {
			ops = append(ops, m.eOp[e])
		}
	}
	slices.Sort(ops) // global op indices run in file order
	parts := make([]string, 0, limit)
	for _, i := range ops[:min(limit, len(ops))] {
		o := s.Op(int(i))
		src := o.Peer // a receive's source
		if o.Kind == traceformat.OpSend {
			src = o.Rank
		}
		parts = append(parts, fmt.Sprintf("(src %d, tag %d, line %d)", src, o.Tag, o.Line))
	}
	return strings.Join(parts, " "), s.Op(int(ops[0])).Line
}

// leftovers reports receives or messages that were never matched, as
// LogGOPSim does instead of printing times.
func (e *Engine) leftovers() error {
	var msgs []string
	line := 0
	for h := range e.rq.size {
		for _, q := range []struct {
			m    *matchQueues
			what string
		}{{&e.rq, "unmatched receives"}, {&e.uq, "unexpected messages never received"}} {
			n := q.m.size[h]
			if n == 0 || len(msgs) >= 4 {
				continue
			}
			list, first := q.m.left(e.s, h, 3)
			if line == 0 {
				line = first
			}
			msgs = append(msgs, fmt.Sprintf("rank %d has %d %s %s", h, n, q.what, list))
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return &IncompleteError{Schedule: e.s.Name, Line: line, Left: msgs}
}

// IncompleteError reports a schedule whose replay could not run to its end:
// receives no message matched, or messages no receive took (a deadlock or
// unmatched ops). It is the schedule's fault, not the replayer's.
type IncompleteError struct {
	Schedule string
	Line     int      // the line of the first rank's oldest op left
	Left     []string // what is left, per rank (at most four)
}

func (e *IncompleteError) Error() string {
	return fmt.Sprintf("%s:%d: the replay did not complete (deadlock or unmatched ops): %s", e.Schedule, e.Line, strings.Join(e.Left, "; "))
}
