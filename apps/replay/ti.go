package replay

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
)

// kind is a TI action.
type kind uint8

const (
	kSend kind = iota + 1
	kIsend
	kRecv
	kIrecv
	kSendrecv
	kWait
	kTest
	kWaitall
	kBarrier
	kBcast
	kReduce
	kAllreduce
	kAlltoall
	kAlltoallv
	kGather
	kGatherv
	kScatter
	kScatterv
	kAllgather
	kAllgatherv
	kReducescatter
	kCompute
	kSleep
	// Actions that change the parser's state or nothing, never stored.
	kInit
	kIgnored
	kFinalize
	kUnsupported
)

// kinds maps the lower-cased action names of SimGrid 3.32's replayer.
var kinds = map[string]kind{
	"send": kSend, "isend": kIsend, "recv": kRecv, "irecv": kIrecv, "sendrecv": kSendrecv,
	"wait": kWait, "test": kTest, "waitall": kWaitall, "barrier": kBarrier,
	"bcast": kBcast, "reduce": kReduce, "allreduce": kAllreduce,
	"alltoall": kAlltoall, "alltoallv": kAlltoallv, "gather": kGather, "gatherv": kGatherv,
	"scatter": kScatter, "scatterv": kScatterv, "allgather": kAllgather, "allgatherv": kAllgatherv,
	"reducescatter": kReducescatter, "compute": kCompute, "sleep": kSleep,
	"init": kInit, "finalize": kFinalize,
	"comm_size": kIgnored, "comm_split": kIgnored, "comm_dup": kIgnored, "location": kIgnored,
	"scan": kUnsupported, "exscan": kUnsupported,
}

var kindNames = func() map[kind]string {
	m := make(map[kind]string, len(kinds))
	for name, k := range kinds {
		m[k] = name
	}
	return m
}()

func (k kind) String() string { return kindNames[k] }

// actionList is what an unknown action's error offers.
const actionList = "init, finalize, send, isend, recv, irecv, sendrecv, wait, test, waitall, barrier, bcast, reduce, allreduce, " +
	"alltoall(v), gather(v), scatter(v), allgather(v), reducescatter, compute, sleep"

// action is one TI line in 40 bytes. Sizes are in bytes (counts ×
// datatype size) once parsed; receive sizes are not kept (a message's
// size is its sender's). For the v-collectives, a and peer2 locate their
// raw numbers in tiTrace.args until finish decodes them into
// tiTrace.counts.
type action struct {
	kind  kind
	peer  int32   // partner, root, sendrecv's destination, wait's source
	peer2 int32   // sendrecv's source, wait's destination; v: number of args
	tag   int32   // p2p and wait tag (AnyTag allowed on receives); v: default datatype size
	line  int32   // line in the rank's file
	a     int64   // bytes: p2p size, a collective's send size; v: offset into args, then into counts
	flops float64 // compute and reductions: flops; sleep: seconds
}

// tiTrace is a TI trace, rank by rank.
type tiTrace struct {
	files  []string    // files[r]: rank r's file, or files[0] for all ranks
	rank   []rankTrace // the actions and parser state of each rank
	n      int         // actions in all
	args   []float64   // raw arguments of the v-collectives
	counts []int64     // decoded per-rank byte counts of the v-collectives
}

// rankTrace is one rank's actions, in file order, and its parser state.
// The actions sit in chunks that never move: a one-file trace interleaves
// the ranks, and growing one slice per rank by append would copy (and
// allocate) four times the trace's size over its growth, or sorting one
// slice would double it.
type rankTrace struct {
	chunks    [][]action
	dtype     int32 // default datatype size: MPI_BYTE, or MPI_DOUBLE after "init X"
	init      bool
	finalized bool
	lastLine  int32
}

// Chunk sizes, actions: the first chunk of a rank holds minChunk, each
// next one twice the last, up to maxChunk (160 KiB).
const (
	minChunk = 16
	maxChunk = 4096
)

// add appends a to the rank's actions.
func (rt *rankTrace) add(a action) {
	k := len(rt.chunks)
	if k == 0 || len(rt.chunks[k-1]) == cap(rt.chunks[k-1]) {
		size := minChunk
		if k > 0 {
			size = min(2*cap(rt.chunks[k-1]), maxChunk)
		}
		rt.chunks = append(rt.chunks, make([]action, 0, size))
		k++
	}
	rt.chunks[k-1] = append(rt.chunks[k-1], a)
}

// Limits: ranks, and bytes of one message (1 TiB).
const (
	maxRanks = 1 << 20
	maxBytes = 1 << 40
)

func (t *tiTrace) ranks() int { return len(t.rank) }

func (t *tiTrace) file(r int) string {
	if len(t.files) == 1 {
		return t.files[0]
	}
	return t.files[r]
}

// parseTI reads a one-file TI trace.
func parseTI(r io.Reader, name string) (*tiTrace, error) {
	t := &tiTrace{files: []string{name}}
	if err := t.parse(r, name, -1, 0); err != nil {
		return nil, err
	}
	if err := t.finish(len(t.rank)); err != nil {
		return nil, err
	}
	return t, nil
}

// parse reads lines into t.rank. only is the rank of a per-rank file
// (whose lines belong to it whatever rank they start with), or -1 for a
// one-file trace; n is the number of ranks when known (per-rank files),
// else 0.
func (t *tiTrace) parse(r io.Reader, name string, only, n int) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	var fields [][]byte
	var lineNo int32
	p := tiParser{t: t, name: name}
	for sc.Scan() {
		lineNo++
		if lineNo == math.MaxInt32 {
			return fmt.Errorf("%s:%d: more than %d lines", name, lineNo, math.MaxInt32-1)
		}
		fields = splitFields(fields[:0], sc.Bytes())
		if len(fields) == 0 || fields[0][0] == '#' {
			continue
		}
		p.line = lineNo
		if err := p.line1(fields, only, n); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, lineNo+1, err)
	}
	return nil
}

// splitFields appends the blank-separated fields of line to dst.
func splitFields(dst [][]byte, line []byte) [][]byte {
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' {
			j++
		}
		if j > i {
			dst = append(dst, line[i:j])
		}
		i = j
	}
	return dst
}

// tiParser parses one line at a time.
type tiParser struct {
	t    *tiTrace
	name string
	line int32
	low  [32]byte // the lower-cased action name
}

func (p *tiParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.name, p.line, fmt.Sprintf(format, args...))
}

// line1 parses one non-blank line.
func (p *tiParser) line1(f [][]byte, only, n int) error {
	rank, ok := parseInt(f[0])
	switch {
	case !ok:
		return p.errorf("want a rank number first, found %q", clip(f[0]))
	case only >= 0:
		// A per-rank file's lines are its rank's whatever they say, as in
		// SimGrid's replayer (which never reads the field there).
		rank = int64(only)
	case rank < 0 || rank >= maxRanks:
		return p.errorf("rank %d out of range%s", rank, p.rangeHint(n))
	}
	switch {
	case len(f) < 2:
		return p.errorf("rank %d: want an action after the rank", rank)
	}
	name := f[1]
	if len(name) > len(p.low) {
		return p.errorf("unknown action %q (want %s)", clip(name), actionList)
	}
	low := p.low[:len(name)]
	for i, c := range name {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	k, ok := kinds[string(low)]
	if !ok {
		return p.errorf("unknown action %q (want %s)", clip(name), actionList)
	}
	t := p.t
	for int(rank) >= len(t.rank) {
		t.rank = append(t.rank, rankTrace{dtype: 1})
	}
	st := &t.rank[rank]
	if st.finalized {
		return p.errorf("rank %d: %s after finalize", rank, low)
	}
	st.lastLine = p.line
	args := f[2:]
	a := action{kind: k, line: p.line}
	var err error
	switch k {
	case kInit:
		if err = p.nargs(args, 0, 1); err == nil {
			st.init = true
			if len(args) == 1 {
				st.dtype = 8 // MPI_DOUBLE, as SimGrid's InitAction
			}
		}
		return err
	case kFinalize:
		st.finalized = true
		return nil
	case kIgnored:
		return nil
	case kUnsupported:
		return p.errorf("action %s is not supported by emu's replay yet", low)
	case kSend, kIsend, kRecv, kIrecv:
		err = p.p2p(&a, args, st.dtype)
	case kSendrecv:
		err = p.sendrecv(&a, args, st.dtype)
	case kWait, kTest:
		err = p.waitArgs(&a, args)
	case kWaitall, kBarrier:
		err = p.nargs(args, 0, 0)
	case kBcast: // count [root [dt]]
		if err = p.nargs(args, 1, 2); err == nil {
			a.peer, err = p.optRank(args, 1)
		}
		if err == nil {
			a.a, err = p.size(args, 0, 2, st.dtype)
		}
	case kReduce, kAllreduce: // count flops [root [dt]] | count flops [dt]
		opt, dt := 2, 3
		if k == kAllreduce {
			opt, dt = 1, 2
		}
		if err = p.nargs(args, 2, opt); err == nil && k == kReduce {
			a.peer, err = p.optRank(args, 2)
		}
		if err == nil {
			a.a, err = p.size(args, 0, dt, st.dtype)
		}
		if err == nil {
			a.flops, err = p.float(args[1], "flops")
		}
	case kAlltoall, kAllgather, kGather, kScatter: // send recv [root] [dt1 [dt2]]
		dt := 2
		if k == kGather || k == kScatter {
			dt = 3
		}
		if err = p.nargs(args, 2, dt); err == nil && dt == 3 {
			a.peer, err = p.optRank(args, 2)
		}
		if err == nil {
			a.a, err = p.size(args, 0, dt, st.dtype)
		}
		if err == nil {
			_, err = p.size(args, 1, dt+1, st.dtype) // checked, not kept
		}
	case kAlltoallv, kGatherv, kAllgatherv, kScatterv, kReducescatter:
		err = p.rawArgs(&a, args, st.dtype)
	case kCompute, kSleep:
		if err = p.nargs(args, 1, 0); err == nil {
			a.flops, err = p.float(args[0], k.String()+"'s amount")
		}
	}
	if err != nil {
		return err
	}
	st.add(a)
	t.n++
	return nil
}

func (p *tiParser) rangeHint(n int) string {
	if n > 0 {
		return fmt.Sprintf(" (the trace has ranks 0..%d)", n-1)
	}
	return fmt.Sprintf(" (0..%d)", maxRanks-1)
}

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
func (p *tiParser) p2p(a *action, args [][]byte, dtype int32) error {
	if err := p.nargs(args, 3, 1); err != nil {
		return fmt.Errorf("%w (%s takes partner tag count [datatype])", err, a.kind)
	}
	peer, err := p.rank(args[0], "partner")
	if err != nil {
		return err
	}
	tag, ok := parseInt(args[1])
	anyOK := a.kind == kRecv || a.kind == kIrecv
	if !ok || tag > math.MaxInt32 || tag < -1 || (tag == -1 && !anyOK) {
		return p.errorf("tag %q: want an integer ≥ 0 (-1, any tag, on a receive)", clip(args[1]))
	}
	a.peer, a.tag = peer, int32(tag)
	a.a, err = p.size(args, 2, 3, dtype)
	return err
}

// sendrecv parses "sendcount dst recvcount src [dt1 [dt2]]" (tag 0, as SimGrid's).
func (p *tiParser) sendrecv(a *action, args [][]byte, dtype int32) error {
	if err := p.nargs(args, 4, 2); err != nil {
		return err
	}
	var err error
	if a.peer, err = p.rank(args[1], "destination"); err != nil {
		return err
	}
	if a.peer2, err = p.rank(args[3], "source"); err != nil {
		return err
	}
	if a.a, err = p.size(args, 0, 4, dtype); err != nil {
		return err
	}
	_, err = p.size(args, 2, 5, dtype) // checked, not kept
	return err
}

// waitArgs parses "src dst tag".
func (p *tiParser) waitArgs(a *action, args [][]byte) error {
	if err := p.nargs(args, 3, 0); err != nil {
		return fmt.Errorf("%w (%s takes src dst tag)", err, a.kind)
	}
	var err error
	if a.peer, err = p.rank(args[0], "source"); err != nil {
		return err
	}
	if a.peer2, err = p.rank(args[1], "destination"); err != nil {
		return err
	}
	tag, ok := parseInt(args[2])
	if !ok || tag < -1 || tag > math.MaxInt32 {
		return p.errorf("tag %q: want an integer ≥ -1", clip(args[2]))
	}
	a.tag = int32(tag)
	return nil
}

// rawArgs keeps a v-collective's numbers for finish, which knows the
// number of ranks they are laid out by.
func (p *tiParser) rawArgs(a *action, args [][]byte, dtype int32) error {
	t := p.t
	if len(args) > math.MaxInt32 {
		return p.errorf("%s: %d arguments", a.kind, len(args))
	}
	a.a, a.peer2, a.tag = int64(len(t.args)), int32(len(args)), dtype
	for _, s := range args {
		v, err := p.float(s, a.kind.String()+"'s argument")
		if err != nil {
			t.args = t.args[:a.a]
			return err
		}
		t.args = append(t.args, v)
	}
	return nil
}

// rank reads a rank argument (range checked by finish).
func (p *tiParser) rank(b []byte, what string) (int32, error) {
	v, ok := parseInt(b)
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
	b := math.Trunc(count) * float64(dtype)
	if !(b >= 0 && b <= maxBytes) {
		return 0, p.errorf("count %g: want 0 to %d bytes", count, int64(maxBytes))
	}
	return int64(b), nil
}

// datatypeSizes are the sizes of SimGrid's datatype ids in TI traces
// (shared/reference/smpi-model.md §6.3): MPI_DOUBLE, INT, CHAR, SHORT,
// LONG, FLOAT, BYTE.
var datatypeSizes = [...]int32{8, 4, 1, 2, 8, 4, 1}

func (p *tiParser) datatype(b []byte) (int32, error) {
	v, ok := parseInt(b)
	if !ok || v < 0 || v >= int64(len(datatypeSizes)) {
		return 0, p.errorf("datatype %q: want an id 0..%d (MPI_DOUBLE, INT, CHAR, SHORT, LONG, FLOAT, BYTE)", clip(b), len(datatypeSizes)-1)
	}
	return datatypeSizes[v], nil
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

// clip shortens a piece of input for an error message.
func clip(b []byte) string {
	if len(b) > 24 {
		return string(b[:24]) + "…"
	}
	return string(b)
}

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
