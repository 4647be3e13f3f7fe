package ranks

import "fmt"

// SMPI 3.32's "ompi" collective selector (smpi/coll-selector:ompi,
// smpi_openmpi_selector.cpp): Open MPI's fixed decision rules, which pick
// an algorithm for each call by the number of ranks and the message's size
// in bytes; ompialgos.go runs the algorithms they pick, as SMPI does (read
// for what they send, to whom, blocking or not, in which order). Every reduction
// emu runs is commutative (Sum, Max, Min) and SMPI's TI replayer reduces
// with MPI_OP_NULL, so only the rules of commutative operations apply.
// An algorithm emu does not run stops the run with an
// UnsupportedCollectiveError rather than running another one.

// The algorithms of the ompi selector, by SMPI's names.
const (
	ompiBarrierLinear  = "barrier__ompi_basic_linear"
	ompiBarrierRDB     = "barrier__ompi_recursivedoubling"
	ompiBarrierBruck   = "barrier__ompi_bruck"
	ompiBarrierTree    = "barrier__ompi_tree"
	ompiBcastBinomial  = "bcast__binomial_tree"
	ompiBcastNTSL      = "bcast__NTSL"
	ompiBcastNTSB      = "bcast__NTSB"
	ompiBcastPipeline  = "bcast__ompi_pipeline"
	ompiReduceLinear   = "reduce__ompi_basic_linear"
	ompiAllreduceRDB   = "allreduce__rdb"
	ompiAllreduceRB    = "allreduce__redbcast"
	ompiAllreduceRab   = "allreduce__rab_rdb"
	ompiGatherLinear   = "gather__ompi_basic_linear"
	ompiGatherBinomial = "gather__ompi_binomial"
	ompiGatherSync     = "gather__ompi_linear_sync"
	ompiScatterLinear  = "scatter__ompi_basic_linear"
	ompiScatterBinom   = "scatter__ompi_binomial"
	ompiScatterNB      = "scatter__ompi_linear_nb"
	ompiAllgatherPair  = "allgather__pair"
	ompiAllgatherRDB   = "allgather__rdb"
	ompiAllgatherRing  = "allgather__ring"
	ompiAllgatherNE    = "allgather__ompi_neighborexchange"
	ompiAllgatherBruck = "allgather__bruck"
	ompiAlltoallvLin   = "alltoallv__ompi_basic_linear"
	ompiAllgathervGB   = "allgatherv__GB"
	ompiAllgathervRing = "allgatherv__mpich_ring"
	ompiAllgathervBrk  = "allgatherv__ompi_bruck"
	ompiAllgathervNE   = "allgatherv__ompi_neighborexchange"
	ompiAllgathervPair = "allgatherv__pair"
	ompiAlltoallvPair  = "alltoallv__pair"
)

// UnsupportedCollectiveError stops a run at a collective call for which
// SMPI's selector picks an algorithm emu does not run: emu never runs
// another algorithm in its place, whose time would differ from SMPI's.
type UnsupportedCollectiveError struct {
	Rank     int    // world rank that made the call
	Call     string // "MPI_Bcast", ...
	Ranks    int    // communicator size
	Bytes    int    // the size the decision read (the count times the datatype's size)
	Selector string // "ompi"
	Algo     string // SMPI's algorithm, e.g. "bcast__NTSB"
	Why      string // optional: why emu does not run it
}

// InputFault marks the error as the input's: the scenario chose the
// collective set.
func (e *UnsupportedCollectiveError) InputFault() {}

func (e *UnsupportedCollectiveError) Error() string {
	why := "which emu does not implement"
	if e.Why != "" {
		why = e.Why
	}
	return fmt.Sprintf("rank %d: %s of %d bytes on %d ranks: SMPI 3.32's %q collective selector runs %s there, %s (network.collectives = \"smpi\" runs SMPI's default selector)",
		e.Rank, e.Call, e.Bytes, e.Ranks, e.Selector, e.Algo, why)
}

// refuse stops the run at a collective whose algorithm emu does not run.
func (c *Comm) refuse(call string, bytes int, algo, why string) {
	panic(&UnsupportedCollectiveError{Rank: c.r.id, Call: call, Ranks: c.Size(), Bytes: bytes, Selector: CollectivesOMPI, Algo: algo, Why: why})
}

// band is one row of a decision: below a bound, the algorithm; past the
// last bound, else.
type band struct {
	under int
	algo  string
}

// pick returns the algorithm of the first band whose bound exceeds size,
// or else.
func pick(size int, bands []band, otherwise string) string {
	for _, b := range bands {
		if size < b.under {
			return b.algo
		}
	}
	return otherwise
}

// ompiBarrier is barrier__ompi's decision on the number of ranks.
func ompiBarrier(p int) string {
	return pick(p, []band{{4, ompiBarrierRDB}, {8, ompiBarrierLinear}, {64, ompiBarrierRDB}, {256, ompiBarrierBruck},
		{512, ompiBarrierTree}, {1024, ompiBarrierBruck}, {4096, ompiBarrierTree}}, ompiBarrierBruck)
}

// ompiBcast is bcast__ompi's decision.
func ompiBcast(p, n int) string {
	const (
		ntsl     = ompiBcastNTSL
		pipeline = ompiBcastPipeline
		split    = "bcast__ompi_split_bintree"
		ntsb     = ompiBcastNTSB
		binomial = ompiBcastBinomial
		knomial  = "bcast__mvapich2_knomial_intra_node"
		scatRDB  = "bcast__scatter_rdb_allgather"
	)
	switch {
	case p < 4:
		return pick(n, []band{{32, pipeline}, {256, ntsb}, {512, pipeline}, {1024, knomial}, {32768, ntsl}, {131072, ntsb},
			{262144, pipeline}, {524288, ntsl}, {1048576, binomial}}, ntsb)
	case p < 8:
		return pick(n, []band{{64, ntsb}, {128, binomial}, {2048, ntsb}, {8192, binomial}, {1048576, ntsl}}, pipeline)
	case p < 16:
		return pick(n, []band{{8, knomial}, {64, ntsb}, {4096, knomial}, {16384, ntsb}, {32768, binomial}}, ntsl)
	case p < 32:
		return pick(n, []band{{4096, knomial}, {1048576, binomial}}, scatRDB)
	case p < 64:
		return pick(n, []band{{2048, binomial}}, knomial)
	case p < 128:
		return knomial
	case p < 256:
		return pick(n, []band{{2, binomial}, {16384, ntsb}, {32768, ntsl}, {65536, ntsb}}, knomial)
	case p < 1024:
		return pick(n, []band{{16384, knomial}, {32768, split}}, knomial)
	case p < 2048:
		return pick(n, []band{{524288, knomial}}, scatRDB)
	case p < 4096:
		return pick(n, []band{{262144, knomial}}, scatRDB)
	}
	return pick(n, []band{{8192, knomial}, {16384, ntsb}, {262144, knomial}}, scatRDB)
}

// ompiReduce is reduce__ompi's decision for a commutative operation.
func ompiReduce(p, n int) string {
	const (
		linear   = ompiReduceLinear
		chain    = ompiReduceChain
		pipeline = ompiReducePipeline
		binary   = ompiReduceBinary
		binomial = ompiReduceBinomial
		inorder  = ompiReduceInOrder
	)
	switch {
	case p < 4:
		return pick(n, []band{{8, linear}, {16, binary}, {32, pipeline}, {262144, linear}, {524288, pipeline}, {1048576, chain}}, pipeline)
	case p < 8:
		return pick(n, []band{{4096, binary}, {65536, chain}, {262144, binomial}, {524288, linear}, {1048576, binomial}}, linear)
	case p < 16:
		return pick(n, []band{{8192, binary}}, binomial)
	case p < 32:
		return pick(n, []band{{4096, binary}}, binomial)
	case p < 256:
		return binomial
	case p < 512:
		return pick(n, []band{{8192, binomial}, {16384, inorder}}, binomial)
	case p < 2048:
		return binomial
	case p < 4096:
		return pick(n, []band{{512, binomial}, {1024, inorder}, {8192, binomial}, {16384, inorder}}, binomial)
	}
	return pick(n, []band{{16, binomial}, {32, inorder}, {1024, binomial}, {2048, inorder}, {8192, binomial}, {16384, inorder}}, binomial)
}

// ompiAllreduce is allreduce__ompi's decision for a commutative operation
// (its basic_linear and nonoverlapping are both redbcast in SMPI).
func ompiAllreduce(p, n int) string {
	const (
		rb   = ompiAllreduceRB
		rdb  = ompiAllreduceRDB
		lr   = "allreduce__lr"
		seg  = "allreduce__ompi_ring_segmented"
		rabr = ompiAllreduceRab
	)
	switch {
	case p < 4:
		return pick(n, []band{{8, lr}, {4096, rdb}, {8192, lr}, {16384, rdb}, {65536, lr}, {262144, seg}}, rabr)
	case p < 8:
		return pick(n, []band{{16, lr}, {8192, rdb}}, rabr)
	case p < 16:
		return pick(n, []band{{8192, rdb}}, rabr)
	case p < 32:
		return pick(n, []band{{64, seg}, {4096, rdb}}, rabr)
	case p < 64:
		return pick(n, []band{{128, seg}}, rabr)
	case p < 128:
		return pick(n, []band{{262144, rdb}}, rabr)
	case p < 256:
		return pick(n, []band{{131072, rb}, {262144, rdb}}, rabr)
	case p < 512:
		return pick(n, []band{{4096, rb}}, rabr)
	case p < 2048:
		return pick(n, []band{{2048, rb}, {16384, rdb}}, rabr)
	case p < 4096:
		return pick(n, []band{{2048, rb}, {4096, seg}, {16384, rdb}}, rabr)
	}
	return pick(n, []band{{2048, rb}, {16384, seg}, {32768, rdb}}, rabr)
}

// ompiGather is gather__ompi's decision.
func ompiGather(p, n int) string {
	const lin, bin, sync = ompiGatherLinear, ompiGatherBinomial, ompiGatherSync
	switch {
	case p < 4:
		return pick(n, []band{{2, sync}, {4, lin}, {32768, bin}, {65536, lin}, {131072, bin}}, sync)
	case p < 8:
		return pick(n, []band{{1024, bin}, {8192, lin}, {32768, bin}, {262144, lin}}, sync)
	case p < 256:
		return bin
	case p < 512:
		return pick(n, []band{{2048, bin}, {8192, lin}}, bin)
	}
	return bin
}

// ompiScatter is scatter__ompi's decision.
func ompiScatter(p, n int) string {
	const lin, bin, nb = ompiScatterLinear, ompiScatterBinom, ompiScatterNB
	switch {
	case p < 4:
		return pick(n, []band{{2, nb}, {131072, lin}, {262144, nb}}, lin)
	case p < 8:
		return pick(n, []band{{2048, bin}, {4096, lin}, {8192, bin}, {32768, lin}, {1048576, nb}}, lin)
	case p < 16:
		return pick(n, []band{{16384, bin}, {1048576, nb}}, lin)
	case p < 32:
		return pick(n, []band{{16384, bin}, {32768, lin}}, nb)
	case p < 64:
		return pick(n, []band{{512, bin}, {8192, nb}, {16384, bin}}, nb)
	}
	return pick(n, []band{{512, bin}}, nb)
}

// ompiAllgather is allgather__ompi's decision.
func ompiAllgather(p, n int) string {
	const rdb, bruck, ring, ne = ompiAllgatherRDB, ompiAllgatherBruck, ompiAllgatherRing, ompiAllgatherNE
	switch {
	case p == 2:
		return ompiAllgatherPair
	case p < 32:
		return rdb
	case p < 64:
		return pick(n, []band{{1024, rdb}, {65536, ne}}, ring)
	case p < 128:
		return pick(n, []band{{512, rdb}, {65536, ne}}, ring)
	case p < 256:
		return pick(n, []band{{512, rdb}, {131072, ne}, {524288, ring}, {1048576, ne}}, ring)
	case p < 512:
		return pick(n, []band{{32, rdb}, {128, bruck}, {1024, rdb}, {131072, ne}, {524288, ring}, {1048576, ne}}, ring)
	case p < 1024:
		return pick(n, []band{{64, rdb}, {256, bruck}, {2048, rdb}}, ne)
	case p < 2048:
		return pick(n, []band{{4, rdb}, {8, bruck}, {16, rdb}, {32, bruck}, {256, rdb}, {512, bruck}, {4096, rdb}}, ne)
	case p < 4096:
		return pick(n, []band{{32, bruck}, {128, rdb}, {512, bruck}, {4096, rdb}}, ne)
	}
	return pick(n, []band{{2, rdb}, {8, bruck}, {16, rdb}, {512, bruck}, {4096, rdb}}, ne)
}

// ompiAlltoallv is alltoallv__ompi's decision, on the number of ranks only.
func ompiAlltoallv(p int) string {
	return pick(p, []band{{4, ompiAlltoallvPair}, {64, ompiAlltoallvLin}, {128, ompiAlltoallvPair}, {256, ompiAlltoallvLin},
		{1024, ompiAlltoallvPair}}, ompiAlltoallvLin)
}

// ompiAllgatherv is allgatherv__ompi's decision on the mean block size.
func ompiAllgatherv(p, n int) string {
	const gb, bruck, ring, ne, pair = ompiAllgathervGB, ompiAllgathervBrk, ompiAllgathervRing, ompiAllgathervNE, ompiAllgathervPair
	switch {
	case p == 2:
		return pick(n, []band{{2048, ring}, {4096, pair}, {8192, ring}}, pair)
	case p < 8:
		return pick(n, []band{{256, gb}, {4096, ne}, {8192, ring}, {16384, ne}, {262144, bruck}}, ne)
	case p < 16:
		return pick(n, []band{{1024, gb}}, bruck)
	case p < 32:
		return pick(n, []band{{128, gb}, {262144, bruck}}, ring)
	case p < 64:
		return pick(n, []band{{256, gb}, {8192, bruck}}, ring)
	case p < 128:
		return pick(n, []band{{256, gb}, {4096, bruck}}, ring)
	case p < 256:
		return pick(n, []band{{1024, bruck}, {65536, ne}}, ring)
	case p < 512:
		return pick(n, []band{{1024, bruck}}, ring)
	case p < 1024:
		return pick(n, []band{{512, bruck}, {1024, gb}, {4096, bruck}, {1048576, ne}}, ring)
	}
	return pick(n, []band{{4096, bruck}}, ne)
}

// ompiReduceScatter is reduce_scatter__ompi's decision on the total size
// for a commutative operation, which emu names when it refuses it.
func ompiReduceScatter(p, n int) string {
	const def, halving, ring, butterfly = "reduce_scatter__default", "reduce_scatter__ompi_basic_recursivehalving", "reduce_scatter__ompi_ring", "reduce_scatter__ompi_butterfly"
	switch {
	case p < 4:
		return pick(n, []band{{65536, ring}, {131072, butterfly}}, ring)
	case p < 8:
		return pick(n, []band{{8, def}, {262144, halving}}, ring)
	case p < 32:
		return pick(n, []band{{262144, halving}}, ring)
	case p < 64:
		return pick(n, []band{{64, def}, {2048, halving}, {524288, butterfly}}, ring)
	case p < 128:
		return pick(n, []band{{256, def}, {512, halving}, {2048, butterfly}, {4096, halving}}, butterfly)
	case p < 256:
		return pick(n, []band{{256, def}, {512, halving}}, butterfly)
	case p < 512:
		return pick(n, []band{{256, def}, {1024, halving}}, butterfly)
	case p < 1024:
		return pick(n, []band{{512, def}, {2048, halving}, {8192, butterfly}, {16384, halving}}, butterfly)
	case p < 2048:
		return pick(n, []band{{512, def}, {4096, halving}, {16384, butterfly}, {32768, halving}}, butterfly)
	case p < 4096:
		return pick(n, []band{{512, def}, {4096, halving}}, butterfly)
	}
	return pick(n, []band{{1024, def}, {8192, halving}}, butterfly)
}
