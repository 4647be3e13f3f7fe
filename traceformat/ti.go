package traceformat

// TIKind is a TI action.
type TIKind uint8

const (
	TISend TIKind = iota + 1
	TIIsend
	TIRecv
	TIIrecv
	TISendrecv
	TIWait
	TITest
	TIWaitall
	TIBarrier
	TIBcast
	TIReduce
	TIAllreduce
	TIAlltoall
	TIAlltoallv
	TIGather
	TIGatherv
	TIScatter
	TIScatterv
	TIAllgather
	TIAllgatherv
	TIReducescatter
	TIScan
	TIExscan
	TICompute
	TISleep
	// Actions that change the parser's state or nothing, never stored.
	tiInit
	tiIgnored
	tiFinalize
)

// kinds maps the lower-cased action names of SimGrid 3.32's replayer.
var kinds = map[string]TIKind{
	"send": TISend, "isend": TIIsend, "recv": TIRecv, "irecv": TIIrecv, "sendrecv": TISendrecv,
	"wait": TIWait, "test": TITest, "waitall": TIWaitall, "barrier": TIBarrier,
	"bcast": TIBcast, "reduce": TIReduce, "allreduce": TIAllreduce,
	"alltoall": TIAlltoall, "alltoallv": TIAlltoallv, "gather": TIGather, "gatherv": TIGatherv,
	"scatter": TIScatter, "scatterv": TIScatterv, "allgather": TIAllgather, "allgatherv": TIAllgatherv,
	"reducescatter": TIReducescatter, "compute": TICompute, "sleep": TISleep,
	"init": tiInit, "finalize": tiFinalize,
	"comm_size": tiIgnored, "comm_split": tiIgnored, "comm_dup": tiIgnored, "location": tiIgnored,
	"scan": TIScan, "exscan": TIExscan,
}

var kindNames = func() map[TIKind]string {
	m := make(map[TIKind]string, len(kinds))
	for name, k := range kinds {
		m[k] = name
	}
	return m
}()

func (k TIKind) String() string { return kindNames[k] }

// Collective reports whether k is a collective, whose messages the World
// sends under internal tags.
func (k TIKind) Collective() bool { return k >= TIBarrier && k <= TIExscan }

// tracerOnly names the MPI calls behind the actions SMPI 3.32's tracer
// writes (smpi_pmpi_*.cpp) that its replayer does not read: a trace of a
// program that makes them can be replayed by neither.
var tracerOnly = map[string]string{
	"waitany": "MPI_Waitany", "testany": "MPI_Testany", "testall": "MPI_Testall", "testsome": "MPI_Testsome",
	"start": "MPI_Start (persistent requests)", "startall": "MPI_Startall (persistent requests)",
	"ssend": "MPI_Ssend", "issend": "MPI_Issend", "bsend": "MPI_Bsend", "ibsend": "MPI_Ibsend",
	"get": "MPI_Get (one-sided)", "put": "MPI_Put (one-sided)", "compare_and_swap": "MPI_Compare_and_swap (one-sided)",
}

// unknownHint says, for an action name (lower-cased) SimGrid's replayer
// does not read, what SMPI's tracer wrote it for, or "" if it does not.
func unknownHint(low string) string {
	call := tracerOnly[low]
	switch {
	case call != "":
	case len(low) > 4 && low[:4] == "win_":
		call = "MPI_W" + low[1:] + " (one-sided)"
	case len(low) > 1 && low[0] == 'i' && kinds[low[1:]] >= TIBarrier && kinds[low[1:]] <= TIExscan:
		call = "MPI_I" + low[1:] + ", a nonblocking collective,"
	default:
		return ""
	}
	return "SMPI's tracer writes it for " + call + " but SimGrid 3.32's replayer does not read it either; "
}

// actionList is what an unknown action's error offers.
const actionList = "init, finalize, send, isend, recv, irecv, sendrecv, wait, test, waitall, barrier, bcast, reduce, allreduce, " +
	"alltoall(v), gather(v), scatter(v), allgather(v), reducescatter, scan, exscan, compute, sleep, comm_size, comm_split, comm_dup, location: SimGrid's replayer's list"

// TIAction is one TI line in 40 bytes. Sizes are in bytes (counts ×
// datatype size) once parsed. A receive's size is its buffer's, an upper
// bound on its message's (a message's size is its sender's): a recv's and
// an irecv's in Bytes; a sendrecv's, an alltoall's, an allgather's, a
// gather's, a scatter's and a scatterv's in Flops (RecvBytes); a gatherv's,
// an allgatherv's and an alltoallv's, one per rank, in TI.counts (read them
// with TI.RecvCounts). For the v-collectives, Bytes and Peer2 locate their
// raw numbers in TI.args until finish decodes them into TI.counts (read
// them with TI.Counts).
type TIAction struct {
	Kind  TIKind
	Peer  int32   // partner, root, sendrecv's destination, wait's source
	Peer2 int32   // sendrecv's source, wait's destination; v: number of args
	Tag   int32   // p2p and wait tag (AnyTag allowed on receives); v: default datatype size, then reducescatter's element size; allreduce's element size
	Line  int32   // line in the rank's file
	Bytes int64   // bytes: p2p size, a collective's send size; v: offset into args, then into counts (TI.Counts)
	Flops float64 // compute and reductions: flops; sleep: seconds; a receive size (RecvBytes); gatherv, allgatherv: offset into counts (RecvCounts)
}

// RecvBytes is the receive size, bytes, of a sendrecv, an alltoall, an
// allgather, a gather, a scatter or a scatterv: an upper bound on each
// message the action takes (of an alltoall or an allgather, each rank's
// part; of a gather, each rank's at the root). It sits in Flops, which
// these actions have no other use for (an action is 40 bytes, and a trace
// holds millions).
func (a *TIAction) RecvBytes() int64 { return int64(a.Flops) }

// TI is a TI trace, rank by rank.
type TI struct {
	files  []string    // files[r]: rank r's file, or files[0] for all ranks
	rank   []rankTrace // the actions and parser state of each rank
	n      int         // actions in all
	args   []float64   // raw arguments of the v-collectives
	counts []int64     // decoded per-rank byte counts of the v-collectives
	zero   zeroSized   // lines whose counts are of a datatype of size 0
}

// zeroSized counts the lines that give elements of a datatype of size 0 —
// SMPI's tracer writes −1, MPI_DATATYPE_NULL, for every derived datatype —
// and keeps the first.
type zeroSized struct {
	lines      int
	file       string
	line, last int32
}

// ZeroSized returns how many lines give a count > 0 of a datatype of size
// 0 (the messages of a derived datatype, which SMPI's tracer writes as −1,
// carry 0 bytes, as in SimGrid's replayer), and the first such line.
func (t *TI) ZeroSized() (lines int, file string, line int) {
	return t.zero.lines, t.zero.file, int(t.zero.line)
}

// rankTrace is one rank's actions, in file order, and its parser state.
// The actions sit in chunks that never move: a one-file trace interleaves
// the ranks, and growing one slice per rank by append would copy (and
// allocate) four times the trace's size over its growth, or sorting one
// slice would double it.
type rankTrace struct {
	chunks    [][]TIAction
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
func (rt *rankTrace) add(a TIAction) {
	k := len(rt.chunks)
	if k == 0 || len(rt.chunks[k-1]) == cap(rt.chunks[k-1]) {
		size := minChunk
		if k > 0 {
			size = min(2*cap(rt.chunks[k-1]), maxChunk)
		}
		rt.chunks = append(rt.chunks, make([]TIAction, 0, size))
		k++
	}
	rt.chunks[k-1] = append(rt.chunks[k-1], a)
}

// MaxActionSeconds bounds what one action of a trace lasts: a TI sleep's
// seconds when parsed, and a compute's (or a reduction's) flops over its
// host's speed when replayed (package replay). It is a kernel call's bound
// (kernels.MaxCallSeconds, 11.6 days): a trace's action that lasts longer
// has its units wrong (a sleep of 1e300 s ran to a Time of 1e+300 s), and a
// clock past about 1e10 s no longer moves by an MPI call's microseconds.
const MaxActionSeconds = 1e6

// Limits: ranks, and bytes of one message (1 TiB).
const (
	maxRanks = 1 << 20
	maxBytes = 1 << 40
)

func (t *TI) Ranks() int { return len(t.rank) }

// Chunks returns rank r's actions in file order, in chunks (the rank's
// own storage, to be read and not changed).
func (t *TI) Chunks(r int) [][]TIAction { return t.rank[r].chunks }

// Counts returns the per-rank byte counts of a v-collective or a
// reducescatter, one per rank of the trace.
func (t *TI) Counts(a *TIAction) []int64 { return t.counts[a.Bytes : a.Bytes+int64(len(t.rank))] }

// RecvCounts returns the per-rank receive sizes, bytes, of a gatherv, an
// allgatherv or an alltoallv: element i bounds the message the action takes
// from rank i (of a gatherv, at its root). Other actions have none (nil).
func (t *TI) RecvCounts(a *TIAction) []int64 {
	n := int64(len(t.rank))
	switch a.Kind {
	case TIGatherv, TIAllgatherv:
		at := int64(a.Flops)
		return t.counts[at : at+n]
	case TIAlltoallv: // after its send counts
		return t.counts[a.Bytes+n : a.Bytes+2*n]
	}
	return nil
}

// File is the file that holds rank r's actions.
func (t *TI) File(r int) string {
	if len(t.files) == 1 {
		return t.files[0]
	}
	return t.files[r]
}
