package traceformat

import (
	"bufio"
	"io"
	"strconv"
)

// WriteTo writes t as a TI trace in one file that ParseTI reads back into
// the same actions (the same kinds, peers, tags, sizes, counts, flops and
// seconds, in the same order; only the source lines differ). Every rank's
// lines are written together, between an "init" and a "finalize", with
// counts in bytes (MPI_BYTE, the datatype of an "init" without argument),
// but for a reducescatter of another element size, whose counts are written
// in elements of a datatype of that size, with its id.
// What a TI trace holds but TI does not keep is written as zero (an
// alltoallv's buffer sizes).
func (t *TI) WriteTo(w io.Writer) (int64, error) {
	bw := &countWriter{w: bufio.NewWriterSize(w, 1<<16)}
	var buf []byte
	for r := range t.rank {
		rank := strconv.Itoa(r)
		bw.line(append(append(buf[:0], rank...), " init"...))
		for _, chunk := range t.rank[r].chunks {
			for i := range chunk {
				bw.line(t.appendAction(append(append(buf[:0], rank...), ' '), &chunk[i]))
			}
		}
		bw.line(append(append(buf[:0], rank...), " finalize"...))
	}
	if bw.err == nil {
		bw.err = bw.w.Flush()
	}
	return bw.n, bw.err
}

// appendAction appends a's action name and arguments.
func (t *TI) appendAction(b []byte, a *TIAction) []byte {
	b = append(b, a.Kind.String()...)
	num := func(v int64) { b = strconv.AppendInt(append(b, ' '), v, 10) }
	flt := func(v float64) { b = strconv.AppendFloat(append(b, ' '), v, 'g', -1, 64) }
	counts := func(cs []int64) {
		for _, c := range cs {
			num(c)
		}
	}
	switch a.Kind {
	case TISend, TIIsend, TIRecv, TIIrecv: // partner tag count
		num(int64(a.Peer))
		num(int64(a.Tag))
		num(a.Bytes)
	case TISendrecv: // sendcount dst recvcount src
		num(a.Bytes)
		num(int64(a.Peer))
		num(a.RecvBytes())
		num(int64(a.Peer2))
	case TIWait, TITest: // src dst tag
		num(int64(a.Peer))
		num(int64(a.Peer2))
		num(int64(a.Tag))
	case TIBcast: // count root
		num(a.Bytes)
		num(int64(a.Peer))
	case TIReduce: // count flops root
		num(a.Bytes)
		flt(a.Flops)
		num(int64(a.Peer))
	case TIAllreduce, TIScan, TIExscan: // count flops [dt]
		if a.Kind != TIAllreduce || a.Tag <= 1 { // MPI_BYTE, the written trace's (size 0: no bytes)
			num(a.Bytes)
			flt(a.Flops)
			break
		}
		// an allreduce keeps its element size (SMPI's allreduce__rab_rdb
		// cuts the vector by it): the count in elements, and its id
		num(a.Bytes / max(int64(a.Tag), 1))
		flt(a.Flops)
		num(datatypeOfSize(a.Tag))
	case TIAlltoall, TIAllgather: // send recv
		num(a.Bytes)
		num(a.RecvBytes())
	case TIGather, TIScatter: // send recv root
		num(a.Bytes)
		num(a.RecvBytes())
		num(int64(a.Peer))
	case TIGatherv: // sendcount recvcounts[n] root
		num(a.Bytes)
		counts(t.RecvCounts(a))
		num(int64(a.Peer))
	case TIAllgatherv: // sendcount recvcounts[n]
		num(a.Bytes)
		counts(t.RecvCounts(a))
	case TIScatterv: // sendcounts[n] recvcount root
		counts(t.Counts(a))
		num(a.RecvBytes())
		num(int64(a.Peer))
	case TIAlltoallv: // sendbuf sendcounts[n] recvbuf recvcounts[n]
		num(0)
		counts(t.Counts(a))
		num(0)
		counts(t.RecvCounts(a))
	case TIReducescatter: // recvcounts[n] flops [dt]
		if a.Tag == 1 { // the element size of the written trace's MPI_BYTE
			counts(t.Counts(a))
			flt(a.Flops)
			break
		}
		// The element size (by which SMPI picks its algorithm) kept: the
		// counts in elements of a datatype of that size, and its id.
		for _, c := range t.Counts(a) {
			num(c / max(int64(a.Tag), 1))
		}
		flt(a.Flops)
		num(datatypeOfSize(a.Tag))
	case TICompute, TISleep: // flops, or seconds
		flt(a.Flops)
	}
	return b
}

// datatypeOfSize is the first SimGrid datatype id of the given size
// (MPI_DATATYPE_NULL's −1 for 0).
func datatypeOfSize(size int32) int64 {
	if size == 0 {
		return -1
	}
	for id, s := range datatypeSizes {
		if s == size {
			return int64(id)
		}
	}
	return -1 // no such size: sizes come from datatypeSizes
}
