package traceformat

import "math"

// OpKind is the type of a GOAL operation. The numbering is LogGOPSim's
// (send 1, recv 2, calc 3): its sort of ready ops orders by this number.
type OpKind uint8

const (
	OpSend OpKind = 1
	OpRecv OpKind = 2
	OpCalc OpKind = 3
)

func (k OpKind) String() string {
	switch k {
	case OpSend:
		return "send"
	case OpRecv:
		return "recv"
	case OpCalc:
		return "calc"
	}
	return "op?"
}

// AnySource and AnyTag are GOAL's "-1" wildcards (stored as 2³²−1 by
// txt2bin). A −1 tag matches any tag on either side, send or recv.
const (
	AnySource = -1
	AnyTag    = -1
)

// Schedule is a parsed GOAL file in struct-of-arrays form. Ops are numbered
// globally, rank by rank, in file order; the ops of rank r are
// RankOps(r). An op's offset inside its rank (LogGOPSim's "offset") is its
// index minus the rank's first index.
type Schedule struct {
	Name string

	rankStart []int32 // ops of rank r: rankStart[r] .. rankStart[r+1]-1

	// ops holds what the replay reads of each op in one 32-byte record:
	// replaying an op then costs one cache miss instead of one per field
	// (on the 11.5 M-event stencil, twice as fast as one array per field).
	ops  []OpRec
	line []int32 // source line of each op, for messages

	// Successors: "A requires B" makes A a successor of B in succ;
	// "A irequires B" in isucc. Both keep the order of the dependency lines
	// (LogGOPSim releases ready ops in that order). Op i's lists start at
	// ops[i].succ and ops[i].isucc and end where op i+1's start.
	succ, isucc []int32

	// Predecessors, for the recorder and the pending counts: op i's are
	// pred[predStart[i]:predStart[i+1]], p for "i requires p" and −1−p for
	// "i irequires p", in increasing p, requires before irequires.
	predStart []int32
	pred      []int32

	maxCPU, maxNIC uint8
}

// OpRec is one op in the compact form simulators read (Schedule.Ops).
// Fields as in Op; succ and isucc index Schedule.succ and Schedule.isucc.
type OpRec struct {
	Kind      OpKind
	CPU, NIC  uint8
	Rank      int32
	Peer, Tag int32 // tag: the int32 bit pattern of txt2bin's uint32, so -1 is AnyTag
	succ      int32
	isucc     int32
	Size      int64 // bytes, or ns for calc
}

// Ops returns every op's record, indexed by global op number. The slice
// is the Schedule's own, to be read and not changed: simulators index it in
// their inner loops (one 32-byte record per op, one cache miss).
func (s *Schedule) Ops() []OpRec { return s.ops }

// NumRanks is the num_ranks of the file.
func (s *Schedule) NumRanks() int { return len(s.rankStart) - 1 }

// NumOps is the number of send, recv and calc statements.
func (s *Schedule) NumOps() int { return len(s.ops) }

// RankOps returns the global indices [first, end) of rank r's ops.
func (s *Schedule) RankOps(r int) (first, end int) {
	return int(s.rankStart[r]), int(s.rankStart[r+1])
}

// Op describes one operation.
type Op struct {
	Kind OpKind
	Rank int
	Peer int   // destination (send), source or AnySource (recv), 0 (calc)
	Tag  int   // tag or AnyTag; 0 for calc
	Size int64 // bytes, or ns for calc
	CPU  int
	NIC  int
	Line int // line of the statement in the file
}

// Op returns op i (a global index).
func (s *Schedule) Op(i int) Op {
	o := &s.ops[i]
	return Op{
		Kind: o.Kind, Rank: int(o.Rank), Peer: int(o.Peer), Tag: int(o.Tag),
		Size: o.Size, CPU: int(o.CPU), NIC: int(o.NIC), Line: int(s.line[i]),
	}
}

// Requires returns the ops that wait for op i to complete, and IRequires
// those that wait for it to start, in file order.
func (s *Schedule) Requires(i int) []int32 {
	end := int32(len(s.succ))
	if i+1 < len(s.ops) {
		end = s.ops[i+1].succ
	}
	return s.succ[s.ops[i].succ:end]
}

func (s *Schedule) IRequires(i int) []int32 {
	end := int32(len(s.isucc))
	if i+1 < len(s.ops) {
		end = s.ops[i+1].isucc
	}
	return s.isucc[s.ops[i].isucc:end]
}

// Preds returns op i's predecessors (see Schedule.pred).
func (s *Schedule) Preds(i int) []int32 { return s.pred[s.predStart[i]:s.predStart[i+1]] }

// NumPreds is op i's number of dependencies, of both kinds.
func (s *Schedule) NumPreds(i int) int32 { return s.predStart[i+1] - s.predStart[i] }

// NumMessages is the number of send ops.
func (s *Schedule) NumMessages() int {
	n := 0
	for i := range s.ops {
		if s.ops[i].Kind == OpSend {
			n++
		}
	}
	return n
}

// CPUs and NICs are the number of CPUs and NICs per host: one more than the
// largest index used anywhere in the file, as txt2bin computes them.
func (s *Schedule) CPUs() int { return int(s.maxCPU) + 1 }
func (s *Schedule) NICs() int { return int(s.maxNIC) + 1 }

// maxOps bounds the number of ops so that global indices fit in int32,
// and maxDeps the dependencies so that list offsets do.
const (
	maxOps  = math.MaxInt32 - 1
	maxDeps = math.MaxInt32 - 1
)
