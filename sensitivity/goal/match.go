package goal

import (
	"fmt"
	"strings"
)

// matchQueues is one matching queue per rank (the posted receives RQ, or
// the unexpected messages UQ), split by (source, tag) into FIFO lists held
// in a hash table. LogGOPSim keeps one list per rank and takes the first
// entry, in insertion order, whose source and tag match (−1 matching
// anything on either side). Hashing gives the same answer: within one
// (source, tag) list the head is the oldest, so the first match is the
// oldest head among the lists whose key matches. Without wildcards that
// is one list; wildcards cost a look at up to four lists, or a scan of the
// rank's lists when the query itself is a wildcard.
type matchQueues struct {
	ids   map[mqKey]int32
	qKey  []mqKey
	qHead []int32 // entry at the head of each list, -1 if empty
	qTail []int32

	eOp   []int32 // the op of each entry: recv (RQ) or send (UQ)
	eSeq  []int64 // insertion number
	eNext []int32 // next entry of the same list, or of the free list
	free  int32
	seq   int64

	rankQ [][]int32 // the lists of each rank, for wildcard queries
	wild  []int32   // entries queued under a wildcard key, per rank
	size  []int32   // entries queued, per rank
}

type mqKey struct{ rank, src, tag int32 }

func (m *matchQueues) init(ranks int) {
	m.ids = make(map[mqKey]int32)
	m.free = -1
	m.rankQ = make([][]int32, ranks)
	m.wild = make([]int32, ranks)
	m.size = make([]int32, ranks)
}

// add appends op at the tail of rank h's (src, tag) list.
func (m *matchQueues) add(h int, src, tag int32, op int32) {
	k := mqKey{int32(h), src, tag}
	q, ok := m.ids[k]
	if !ok {
		q = int32(len(m.qKey))
		m.ids[k] = q
		m.qKey = append(m.qKey, k)
		m.qHead = append(m.qHead, -1)
		m.qTail = append(m.qTail, -1)
		m.rankQ[h] = append(m.rankQ[h], q)
	}
	e := m.free
	if e >= 0 {
		m.free = m.eNext[e]
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
	if src == AnySource || tag == AnyTag {
		m.wild[h]++
	}
}

// take removes and returns the oldest entry of rank h matching (src, tag).
func (m *matchQueues) take(h int, src, tag int32) (int32, bool) {
	if m.size[h] == 0 {
		return 0, false
	}
	best := int32(-1)
	consider := func(q int32) {
		if e := m.qHead[q]; e >= 0 && (best < 0 || m.eSeq[e] < m.eSeq[m.qHead[best]]) {
			best = q
		}
	}
	if src == AnySource || tag == AnyTag {
		for _, q := range m.rankQ[h] {
			k := m.qKey[q]
			if (src == AnySource || k.src == AnySource || k.src == src) && (tag == AnyTag || k.tag == AnyTag || k.tag == tag) {
				consider(q)
			}
		}
	} else {
		if q, ok := m.ids[mqKey{int32(h), src, tag}]; ok {
			consider(q)
		}
		if m.wild[h] > 0 {
			for _, k := range [3]mqKey{{int32(h), AnySource, tag}, {int32(h), src, AnyTag}, {int32(h), AnySource, AnyTag}} {
				if q, ok := m.ids[k]; ok {
					consider(q)
				}
			}
		}
	}
	if best < 0 {
		return 0, false
	}
	e := m.qHead[best]
	m.qHead[best] = m.eNext[e]
	if m.qHead[best] < 0 {
		m.qTail[best] = -1
	}
	m.eNext[e] = m.free
	m.free = e
	m.size[h]--
	if k := m.qKey[best]; k.src == AnySource || k.tag == AnyTag {
		m.wild[h]--
	}
	return m.eOp[e], true
}

// describe lists up to max (source, tag) pairs left in rank h's queue.
func (m *matchQueues) describe(h int, limit int) string {
	var parts []string
	for _, q := range m.rankQ[h] {
		for e := m.qHead[q]; e >= 0 && len(parts) < limit; e = m.eNext[e] {
			k := m.qKey[q]
			parts = append(parts, fmt.Sprintf("(src %d, tag %d)", k.src, k.tag))
		}
	}
	return strings.Join(parts, " ")
}

// leftovers reports receives or messages that were never matched, as
// LogGOPSim does instead of printing times.
func (e *engine) leftovers() error {
	var msgs []string
	for h := range e.rq.size {
		if n := e.rq.size[h]; n > 0 {
			msgs = append(msgs, fmt.Sprintf("rank %d has %d unmatched receives %s", h, n, e.rq.describe(h, 3)))
		}
		if n := e.uq.size[h]; n > 0 {
			msgs = append(msgs, fmt.Sprintf("rank %d has %d unexpected messages never received %s", h, n, e.uq.describe(h, 3)))
		}
		if len(msgs) >= 4 {
			break
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("goal: replay of %s did not complete (deadlock or unmatched ops): %s", e.s.Name, strings.Join(msgs, "; "))
}
