package traceformat

import (
	"fmt"
	"math"
)

// finish checks what needs the number of ranks n: peers in range, the
// v-collectives' count lists, ranks whose trace stops without the
// finalize their init promises (a truncated file), and the collectives'
// receive counts against their messages (checkReceiveCounts).
func (t *TI) finish(n int) error {
	if n == 0 {
		return fmt.Errorf("%s: no action: not a TI trace", t.files[0])
	}
	for len(t.rank) < n {
		t.rank = append(t.rank, rankTrace{dtype: 1})
	}
	for r := range t.rank {
		for _, chunk := range t.rank[r].chunks {
			for i := range chunk {
				if err := t.check(&chunk[i], r, n); err != nil {
					return err
				}
			}
		}
	}
	t.args = nil
	for r := range t.rank {
		if st := &t.rank[r]; st.init && !st.finalized {
			return fmt.Errorf("%s:%d: rank %d's trace ends without finalize (a truncated file?)", t.File(r), st.lastLine, r)
		}
	}
	return t.checkReceiveCounts()
}

// check decodes a v-collective and checks that a's ranks are in 0..n−1.
func (t *TI) check(a *TIAction, r, n int) error {
	p := tiParser{t: t, name: t.File(r), line: a.Line}
	peer2 := a.Peer2
	switch a.Kind {
	case TIAlltoallv, TIGatherv, TIAllgatherv, TIScatterv, TIReducescatter:
		if err := p.decodeV(a, n); err != nil {
			return err
		}
		peer2, a.Peer2 = 0, 0
	}
	if int(a.Peer) >= n || int(peer2) >= n {
		return p.errorf("%s: rank %d out of range (the trace has ranks 0..%d)", a.Kind, max(a.Peer, peer2), n-1)
	}
	return nil
}

// vLayout says where a v-collective's numbers stand for n ranks (SimGrid
// 3.32's parsers): fixed numbers, then up to opt optional ones; the root's
// and the first datatype's index (−1: none; past the end: absent, so root
// 0 and the rank's default datatype); where the per-rank counts start (−1:
// a single send count at index 0 instead); the flops' index (−1: none).
type vLayout struct{ fixed, opt, root, dtype, counts, flops int }

func vLayoutOf(k TIKind, n int) vLayout {
	switch k {
	case TIGatherv: // sendcount recvcounts[n] [root [dt1 [dt2]]]
		return vLayout{fixed: 1 + n, opt: 3, root: 1 + n, dtype: 2 + n, counts: -1, flops: -1}
	case TIAllgatherv: // sendcount recvcounts[n] [dt1 [dt2]]
		return vLayout{fixed: 1 + n, opt: 2, root: -1, dtype: 1 + n, counts: -1, flops: -1}
	case TIScatterv: // sendcounts[n] recvcount [root [dt1 [dt2]]]
		return vLayout{fixed: 1 + n, opt: 3, root: 1 + n, dtype: 2 + n, counts: 0, flops: -1}
	case TIAlltoallv: // sendbuf sendcounts[n] recvbuf recvcounts[n] [dt1 [dt2]]
		return vLayout{fixed: 2 + 2*n, opt: 2, root: -1, dtype: 2 + 2*n, counts: 1, flops: -1}
	}
	// TIReducescatter: recvcounts[n] flops [dt]
	return vLayout{fixed: 1 + n, opt: 1, root: -1, dtype: 1 + n, counts: 0, flops: n}
}

// decodeV lays a v-collective's raw numbers out by the n ranks and keeps
// what the replay needs: the root, the send size or the per-rank byte
// counts (in t.counts, from a.a), the flops.
func (p *tiParser) decodeV(a *TIAction, n int) error {
	raw := p.t.args[a.Bytes : a.Bytes+int64(a.Peer2)]
	dtype := a.Tag
	recvType := dtype // the receive counts': the second datatype, else the rank's default (SimGrid 3.32's parsers)
	a.Tag = 0
	l := vLayoutOf(a.Kind, n)
	if len(raw) < l.fixed || len(raw) > l.fixed+l.opt {
		return p.errorf("%s: want %d to %d arguments for %d ranks, found %d", a.Kind, l.fixed, l.fixed+l.opt, n, len(raw))
	}
	for i, v := range raw { // rawArgs let −1 through for MPI_DATATYPE_NULL's id only
		if v < 0 && i != l.dtype && i != l.dtype+1 {
			return p.errorf("%s: argument %d is %g: want a number ≥ 0", a.Kind, i+1, v)
		}
	}
	if l.root >= 0 && l.root < len(raw) {
		v := raw[l.root]
		if v != math.Trunc(v) || v < 0 || v >= float64(n) {
			return p.errorf("%s: root %g out of range (the trace has ranks 0..%d)", a.Kind, v, n-1)
		}
		a.Peer = int32(v)
	}
	if l.dtype < len(raw) {
		var err error
		if dtype, err = p.datatypeID(raw[l.dtype]); err != nil {
			return err
		}
	}
	if l.dtype+1 < len(raw) {
		var err error
		if recvType, err = p.datatypeID(raw[l.dtype+1]); err != nil {
			return err
		}
	}
	if l.flops >= 0 {
		a.Flops = raw[l.flops]
	}
	if l.counts < 0 { // gatherv, allgatherv: a send count, then the receive counts (RecvCounts)
		var err error
		if a.Bytes, err = p.bytes(raw[0], dtype); err != nil {
			return err
		}
		a.Flops = float64(len(p.t.counts))
		return p.appendCounts(raw[1:1+n], recvType)
	}
	if a.Kind == TIReducescatter {
		a.Tag = dtype // the element size, by which SMPI picks its algorithm
	}
	a.Bytes = int64(len(p.t.counts))
	if err := p.appendCounts(raw[l.counts:l.counts+n], dtype); err != nil {
		return err
	}
	switch a.Kind {
	case TIScatterv: // its receive count (RecvBytes)
		b, err := p.bytes(raw[n], recvType)
		a.Flops = float64(b)
		return err
	case TIAlltoallv: // its receive counts, after the send counts (RecvCounts)
		return p.appendCounts(raw[2+n:2+2*n], recvType)
	}
	return nil
}

// appendCounts appends counts of a datatype of dtype bytes to TI.counts, in bytes.
func (p *tiParser) appendCounts(counts []float64, dtype int32) error {
	for _, c := range counts {
		b, err := p.bytes(c, dtype)
		if err != nil {
			return err
		}
		p.t.counts = append(p.t.counts, b)
	}
	return nil
}
