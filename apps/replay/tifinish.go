package replay

import (
	"fmt"
	"math"
	"strconv"
)

// finish checks what needs the number of ranks n: peers in range, the
// v-collectives' count lists, and ranks whose trace stops without the
// finalize their init promises (a truncated file).
func (t *tiTrace) finish(n int) error {
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
			return fmt.Errorf("%s:%d: rank %d's trace ends without finalize (a truncated file?)", t.file(r), st.lastLine, r)
		}
	}
	return nil
}

// check decodes a v-collective and checks that a's ranks are in 0..n−1.
func (t *tiTrace) check(a *action, r, n int) error {
	p := tiParser{t: t, name: t.file(r), line: a.line}
	peer2 := a.peer2
	switch a.kind {
	case kAlltoallv, kGatherv, kAllgatherv, kScatterv, kReducescatter:
		if err := p.decodeV(a, n); err != nil {
			return err
		}
		peer2, a.peer2 = 0, 0
	}
	if int(a.peer) >= n || int(peer2) >= n {
		return p.errorf("%s: rank %d out of range (the trace has ranks 0..%d)", a.kind, max(a.peer, peer2), n-1)
	}
	return nil
}

// decodeV lays a v-collective's raw numbers out by the n ranks
// (SimGrid 3.32's parsers) and keeps the per-rank byte counts it needs.
func (p *tiParser) decodeV(a *action, n int) error {
	raw := p.t.args[a.a : a.a+int64(a.peer2)]
	dtype := a.tag
	a.tag = 0
	// need checks that raw holds at least min and at most min+opt numbers.
	need := func(min, opt int) error {
		if len(raw) < min || len(raw) > min+opt {
			return p.errorf("%s: want %d to %d arguments for %d ranks, found %d", a.kind, min, min+opt, n, len(raw))
		}
		return nil
	}
	dt := func(i int) (int32, error) {
		if i >= len(raw) {
			return dtype, nil
		}
		return p.datatype([]byte(strconv.FormatFloat(raw[i], 'f', -1, 64)))
	}
	root := func(i int) (int32, error) {
		if i >= len(raw) {
			return 0, nil
		}
		if v := raw[i]; v != math.Trunc(v) || v >= float64(n) {
			return 0, p.errorf("%s: root %g out of range (the trace has ranks 0..%d)", a.kind, v, n-1)
		}
		return int32(raw[i]), nil
	}
	// counts appends raw[i:i+n] in bytes to t.counts and returns the offset.
	counts := func(i int, dtype int32) (int64, error) {
		off := int64(len(p.t.counts))
		for _, c := range raw[i : i+n] {
			b, err := p.bytes(c, dtype)
			if err != nil {
				return 0, err
			}
			p.t.counts = append(p.t.counts, b)
		}
		return off, nil
	}
	var err error
	var d1 int32
	switch a.kind {
	case kGatherv: // sendcount recvcounts[n] [root [dt1 [dt2]]]
		if err = need(1+n, 3); err != nil {
			return err
		}
		if a.peer, err = root(1 + n); err != nil {
			return err
		}
		if d1, err = dt(2 + n); err != nil {
			return err
		}
		a.a, err = p.bytes(raw[0], d1)
	case kAllgatherv: // sendcount recvcounts[n] [dt1 [dt2]]
		if err = need(1+n, 2); err != nil {
			return err
		}
		if d1, err = dt(1 + n); err != nil {
			return err
		}
		a.a, err = p.bytes(raw[0], d1)
	case kScatterv: // sendcounts[n] recvcount [root [dt1 [dt2]]]
		if err = need(1+n, 3); err != nil {
			return err
		}
		if a.peer, err = root(1 + n); err != nil {
			return err
		}
		if d1, err = dt(2 + n); err != nil {
			return err
		}
		a.a, err = counts(0, d1)
	case kAlltoallv: // sendbuf sendcounts[n] recvbuf recvcounts[n] [dt1 [dt2]]
		if err = need(2+2*n, 2); err != nil {
			return err
		}
		if d1, err = dt(2 + 2*n); err != nil {
			return err
		}
		a.a, err = counts(1, d1)
	case kReducescatter: // recvcounts[n] flops [dt]
		if err = need(1+n, 1); err != nil {
			return err
		}
		if d1, err = dt(1 + n); err != nil {
			return err
		}
		a.flops = raw[n]
		a.a, err = counts(0, d1)
	}
	return err
}
