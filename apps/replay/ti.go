package replay

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
	kScan
	kExscan
	kCompute
	kSleep
	// Actions that change the parser's state or nothing, never stored.
	kInit
	kIgnored
	kFinalize
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
	"scan": kScan, "exscan": kExscan,
}

var kindNames = func() map[kind]string {
	m := make(map[kind]string, len(kinds))
	for name, k := range kinds {
		m[k] = name
	}
	return m
}()

func (k kind) String() string { return kindNames[k] }

// collective reports whether k is a collective, whose messages the World
// sends under internal tags.
func (k kind) collective() bool { return k >= kBarrier && k <= kExscan }

// actionList is what an unknown action's error offers.
const actionList = "init, finalize, send, isend, recv, irecv, sendrecv, wait, test, waitall, barrier, bcast, reduce, allreduce, " +
	"alltoall(v), gather(v), scatter(v), allgather(v), reducescatter, scan, exscan, compute, sleep"

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
