package traceformat

import (
	"fmt"
	"math"
	"strconv"
)

// nargs checks that an action has between min and min+opt arguments.
func (p *tiParser) nargs(args [][]byte, min, opt int) error {
	if len(args) < min || len(args) > min+opt {
		want := fmt.Sprintf("%d", min)
		if opt > 0 {
			want = fmt.Sprintf("%d to %d", min, min+opt)
		}
		return p.errorf("want %s arguments, found %d", want, len(args))
	}
	return nil
}

// p2p parses "partner tag count [datatype]".
func (p *tiParser) p2p(a *TIAction, args [][]byte, dtype int32) error {
	if err := p.nargs(args, 3, 1); err != nil {
		return fmt.Errorf("%w (%s takes partner tag count [datatype])", err, a.Kind)
	}
	anyOK := a.Kind == TIRecv || a.Kind == TIIrecv
	peer, err := p.rank(args[0], "partner")
	if anyOK && isAnySource(args[0]) {
		peer, err = anySource, nil
	}
	if err != nil {
		return err
	}
	tag, ok := parseTag(args[1])
	if !ok || tag > math.MaxInt32 || tag < -1 || (tag == -1 && !anyOK) {
		return p.errorf("tag %q: want an integer ≥ 0 (-1 or SMPI's -444, any tag, on a receive)", clip(args[1]))
	}
	a.Peer, a.Tag = peer, int32(tag)
	a.Bytes, err = p.size(args, 2, 3, dtype)
	return err
}

// sendrecv parses "sendcount dst recvcount src [dt1 [dt2]]" (tag 0, as SimGrid's).
func (p *tiParser) sendrecv(a *TIAction, args [][]byte, dtype int32) error {
	if err := p.nargs(args, 4, 2); err != nil {
		return err
	}
	var err error
	if a.Peer, err = p.rank(args[1], "destination"); err != nil {
		return err
	}
	if a.Peer2, err = p.rank(args[3], "source"); err != nil {
		return err
	}
	if a.Bytes, err = p.size(args, 0, 4, dtype); err != nil {
		return err
	}
	recv, err := p.size(args, 2, 5, dtype)
	a.Flops = float64(recv) // RecvBytes: exact, ≤ maxBytes < 2^53
	return err
}

// waitArgs parses "src dst tag".
func (p *tiParser) waitArgs(a *TIAction, args [][]byte) error {
	if err := p.nargs(args, 3, 0); err != nil {
		return fmt.Errorf("%w (%s takes src dst tag)", err, a.Kind)
	}
	var err error
	if a.Peer, err = p.rank(args[0], "source"); isAnySource(args[0]) {
		a.Peer, err = anySource, nil
	}
	if err != nil {
		return err
	}
	if a.Peer2, err = p.rank(args[1], "destination"); err != nil {
		return err
	}
	tag, ok := parseTag(args[2])
	if !ok || tag < -1 || tag > math.MaxInt32 {
		return p.errorf("tag %q: want an integer ≥ -1", clip(args[2]))
	}
	a.Tag = int32(tag)
	return nil
}

// rawArgs keeps a v-collective's numbers for finish, which knows the
// number of ranks they are laid out by.
func (p *tiParser) rawArgs(a *TIAction, args [][]byte, dtype int32) error {
	t := p.t
	if len(args) > math.MaxInt32 {
		return p.errorf("%s: %d arguments", a.Kind, len(args))
	}
	a.Bytes, a.Peer2, a.Tag = int64(len(t.args)), int32(len(args)), dtype
	for _, s := range args {
		if v, ok := parseInt(s); ok && v == -1 { // MPI_DATATYPE_NULL's id; decodeV refuses it elsewhere
			t.args = append(t.args, -1)
			continue
		}
		v, err := p.float(s, a.Kind.String()+"'s argument")
		if err != nil {
			t.args = t.args[:a.Bytes]
			return err
		}
		t.args = append(t.args, v)
	}
	return nil
}

// smpiAnyTag is SMPI's MPI_ANY_TAG, as its tracer writes a receive's tag
// (its replayer takes it for any tag); the parser stores it as −1.
const smpiAnyTag = -444

// parseTag reads a tag, SMPI's any-tag value as −1 (AnyTag).
func parseTag(b []byte) (int64, bool) {
	tag, ok := parseInt(b)
	if ok && tag == smpiAnyTag {
		tag = -1
	}
	return tag, ok
}

// anySource is a receive's wildcard source: -1 in a trace, or SMPI's
// MPI_ANY_SOURCE, -555, as its tracer writes it.
const anySource = -1

func isAnySource(b []byte) bool {
	v, ok := parseInt(b)
	return ok && (v == -1 || v == -555)
}

// smpiUndefined is SMPI's MPI_UNDEFINED, which its tracer writes for the
// partner of a receive from MPI_ANY_SOURCE (getPid of a wildcard) or
// MPI_PROC_NULL, or of a send to MPI_PROC_NULL.
const smpiUndefined = -333

// rank reads a rank argument (range checked by finish).
func (p *tiParser) rank(b []byte, what string) (int32, error) {
	v, ok := parseInt(b)
	if ok && v == smpiUndefined {
		return 0, p.errorf("%s -333 is MPI_UNDEFINED: SMPI's tracer writes it for a receive from MPI_ANY_SOURCE or MPI_PROC_NULL and a send to MPI_PROC_NULL, "+
			"not saying which, and SimGrid 3.32's replayer cannot replay it either", what)
	}
	if !ok || v < 0 || v >= maxRanks {
		return 0, p.errorf("%s %q: want a rank 0..%d", what, clip(b), maxRanks-1)
	}
	return int32(v), nil
}

// optRank reads the optional root at args[i] (0 when absent).
func (p *tiParser) optRank(args [][]byte, i int) (int32, error) {
	if i >= len(args) {
		return 0, nil
	}
	return p.rank(args[i], "root")
}

// size reads the count args[i] and the optional datatype args[dt] into bytes.
func (p *tiParser) size(args [][]byte, i, dt int, dtype int32) (int64, error) {
	count, err := p.float(args[i], "count")
	if err != nil {
		return 0, err
	}
	if dt < len(args) {
		if dtype, err = p.datatype(args[dt]); err != nil {
			return 0, err
		}
	}
	return p.bytes(count, dtype)
}

func (p *tiParser) bytes(count float64, dtype int32) (int64, error) {
	if z := &p.t.zero; dtype == 0 && count >= 1 && !(z.file == p.name && z.last == p.line) {
		if z.lines == 0 {
			z.file, z.line = p.name, p.line
		}
		z.lines++
		z.last = p.line
	}
	b := math.Trunc(count) * float64(dtype)
	if !(b >= 0 && b <= maxBytes) {
		return 0, p.errorf("count %g: want 0 to %d bytes", count, int64(maxBytes))
	}
	return int64(b), nil
}

// datatypeSizes are the sizes, in bytes on LP64 Linux, of SimGrid's
// predefined datatype ids as its TI tracer writes them (smpi_datatype.cpp's
// table, ids 0..59): 0–6 MPI_DOUBLE, INT, CHAR, SHORT, LONG, FLOAT, BYTE;
// 7–16 LONG_LONG, SIGNED_CHAR, UNSIGNED_CHAR, UNSIGNED_SHORT, UNSIGNED,
// UNSIGNED_LONG, UNSIGNED_LONG_LONG, LONG_DOUBLE, WCHAR, C_BOOL; 17–24 the
// INTn_T and UINTn_T; 25–27 the C complex types; 28–29 AINT, OFFSET; 30–37
// the pair types (FLOAT_INT ... 2LONG, C structs with their padding); 38–49
// Fortran's REAL*, COMPLEX*, INTEGER* (INTEGER1 is an int in SMPI, COMPLEX32
// two doubles); 50 LONG_DOUBLE_INT; 51–54 the C++ bool and complex types;
// 55–56 UB and LB (size 0); 57 PACKED; 58 PTR; 59 COUNT. MPI_DATATYPE_NULL,
// id −1, has size 0 (datatypeSize).
var datatypeSizes = [...]int32{
	8, 4, 1, 2, 8, 4, 1, // 0–6
	8, 1, 1, 2, 4, 8, 8, 16, 4, 1, // 7–16
	1, 2, 4, 8, 1, 2, 4, 8, // 17–24
	8, 16, 32, // 25–27
	8, 8, // 28–29
	8, 16, 16, 8, 8, 8, 16, 16, // 30–37: FLOAT_INT, LONG_INT, DOUBLE_INT, SHORT_INT, 2INT, 2FLOAT, 2DOUBLE, 2LONG
	4, 4, 8, 16, 8, 16, 16, 4, 2, 4, 8, 16, // 38–49
	32,           // 50
	1, 8, 16, 32, // 51–54
	0, 0, 1, 8, 8, // 55–59
}

// datatypeHint is what a bad datatype's error offers.
var datatypeHint = fmt.Sprintf("want a SimGrid datatype id -1..%d (0 MPI_DOUBLE, 1 INT, 2 CHAR, 3 SHORT, 4 LONG, 5 FLOAT, 6 BYTE, ...)", len(datatypeSizes)-1)

// datatypeSize is the size of datatype id v, ok false when v is no id.
func datatypeSize(v int64) (int32, bool) {
	switch {
	case v == -1: // MPI_DATATYPE_NULL
		return 0, true
	case v < 0 || v >= int64(len(datatypeSizes)):
		return 0, false
	}
	return datatypeSizes[v], true
}

func (p *tiParser) datatype(b []byte) (int32, error) {
	v, ok := parseInt(b)
	size, known := datatypeSize(v)
	if !ok || !known {
		return 0, p.errorf("datatype %q: %s", clip(b), datatypeHint)
	}
	return size, nil
}

// datatypeID is datatype for an id read as a number.
func (p *tiParser) datatypeID(v float64) (int32, error) {
	size, known := datatypeSize(int64(v))
	if v != math.Trunc(v) || math.Abs(v) > 1e9 || !known {
		return 0, p.errorf("datatype %g: %s", v, datatypeHint)
	}
	return size, nil
}

// float reads a non-negative finite number (C's strtod forms).
func (p *tiParser) float(b []byte, what string) (float64, error) {
	if v, ok := parseInt(b); ok && v >= 0 {
		return float64(v), nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return 0, p.errorf("%s %q: want a number ≥ 0", what, clip(b))
	}
	return v, nil
}

// parseInt reads a decimal integer of up to 18 digits, with an optional '-'.
func parseInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}
