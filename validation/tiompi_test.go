package validation

import (
	"errors"
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/emu-hpc/emu/ranks"
)

// ompiDir holds TI traces of every collective emu's ompi set decides, at
// 2 to 64 ranks and sizes across every band of SMPI's decisions, with
// SimGrid 3.32's replayer's times under smpi/coll-selector:ompi
// (testdata/tiompi/README.md says how they were made).
const ompiDir = "testdata/tiompi"

// ompiUnimplemented are the algorithms of SMPI's ompi selector that emu
// refuses (ranks.UnsupportedCollectiveError) rather than run another in
// their place. A case SMPI runs with one of them is skipped; a refusal
// naming any other algorithm fails the test. SimGrid 3.32's replayer
// crashes on bcast__mvapich2_knomial_intra_node (smpi_times.csv says
// "failed"; an MPI program runs it): emu must refuse those cases.
var ompiUnimplemented = map[string]bool{
	"bcast__ompi_split_bintree": true, "bcast__mvapich2_knomial_intra_node": true, "bcast__scatter_rdb_allgather": true,
	"allreduce__lr": true, "allreduce__ompi_ring_segmented": true,
	"alltoall__pair": true, "alltoallv__pair": true,
}

// TestTIOmpiAgainstSMPI replays every trace of testdata/tiompi with
// network.collectives = "ompi" and requires SimGrid 3.32's replayer's time
// under smpi/coll-selector:ompi to tiTolerance, except where a call's
// algorithm is one emu refuses (ompiUnimplemented).
func TestTIOmpiAgainstSMPI(t *testing.T) {
	rows := readSMPITimes(t, filepath.Join(ompiDir, "smpi_times.csv"), "trace,platform,ranks,smpi_time_s")
	matched, refused := 0, 0
	t.Run("cases", func(t *testing.T) {
		for i, r := range rows {
			smpi, err := strconv.ParseFloat(r[3], 64)
			if err != nil && r[3] != "failed" {
				t.Fatalf("smpi_times.csv:%d: time %q", i+2, r[3])
			}
			failed := err != nil
			trace, platform := r[0], r[1]
			t.Run(trace+"/"+platform, func(t *testing.T) {
				got, err := replaySMPIErr(t, filepath.Join(ompiDir, "platforms", platform+".xml"), filepath.Join(ompiDir, "traces", trace+".txt"),
					"platform.hostfile="+strconv.Quote(filepath.Join(ompiDir, "hostfile.txt")), "network.collectives=ompi")
				var u *ranks.UnsupportedCollectiveError
				switch {
				case errors.As(err, &u):
					if !ompiUnimplemented[u.Algo] {
						t.Fatalf("refused %s, which emu implements: %v", u.Algo, err)
					}
					refused++
					t.Skipf("emu refuses %s", u.Algo)
				case err != nil:
					t.Fatal(err)
				case failed:
					t.Fatalf("SMPI failed, emu gave %g s", got)
				}
				matched++
				if math.Abs(got-smpi) > tiTolerance {
					t.Errorf("emu %.15f s, SMPI %.15f s: %+.3g s (%+.3g%%)", got, smpi, got-smpi, 100*(got-smpi)/smpi)
				}
			})
		}
	})
	// the example of docs/library.md: SMPI 2.000148447716682 s
	// (smpirun -np 8 -platform examples/cluster.xml -replay with the
	// trace's name in an index file, --cfg=smpi/coll-selector:ompi)
	got, err := replaySMPIErr(t, "../examples/cluster.xml", "../examples/replay-ompi.txt", "network.collectives=ompi")
	if err != nil || math.Abs(got-2.000148447716682) > tiTolerance {
		t.Errorf("examples/replay-ompi.txt: emu %.15f s (%v), SMPI 2.000148447716682 s", got, err)
	}
	// Open MPI's in-order binary reduce, its pick on 256 to 511 ranks
	// from 8 to 16 KiB: 256 ranks reduce 12,000 B to rank 0 (the tree's
	// root, rank 255, hands the result on), then 9,000 B to rank 255
	// (testdata/tiompi/README.md, "inorder/")
	in := filepath.Join(ompiDir, "inorder")
	got, err = replaySMPIErr(t, filepath.Join(in, "flat256.xml"), filepath.Join(in, "reduce_256.txt"),
		"platform.hostfile="+strconv.Quote(filepath.Join(in, "hostfile256.txt")), "network.collectives=ompi")
	if err != nil || math.Abs(got-0.000113965995457) > tiTolerance {
		t.Errorf("inorder/reduce_256.txt: emu %.15f s (%v), SMPI 0.000113965995457 s", got, err)
	}
	// the segmented reduces on datatypes of 8, 4 and 16 B: SMPI cuts
	// segments in elements, emu in bytes (ranks/ompireduce.go); and
	// allreduce__rab_rdb, whose blocks are count/pof2 elements
	for _, c := range []struct {
		trace string
		smpi  float64
	}{
		{"reduce_16_double", 0.000297364664703},    // binomial, 1 KiB segments
		{"reduce_33_int", 0.000355515755947},       // binomial, 1 KiB segments
		{"reduce_3_longdouble", 0.000407446382326}, // pipeline, 32 KiB; chain, 64 KiB
		{"allreduce_7_double", 0.000085681682465},  // 1,101 and 5,003 doubles: rab_rdb
		{"allreduce_33_int", 0.000210094935489},    // 1,001 and 30,007 ints: rab_rdb
	} {
		got, err := replaySMPIErr(t, filepath.Join(ompiDir, "platforms", "flat.xml"), filepath.Join(ompiDir, "datatypes", c.trace+".txt"),
			"platform.hostfile="+strconv.Quote(filepath.Join(ompiDir, "hostfile.txt")), "network.collectives=ompi")
		if err != nil || math.Abs(got-c.smpi) > tiTolerance {
			t.Errorf("datatypes/%s.txt: emu %.15f s (%v), SMPI %.15f s", c.trace, got, err, c.smpi)
		}
	}
	t.Logf("%d cases replayed as SMPI, %d refused", matched, refused)
	if matched == 0 {
		t.Error("no case replayed")
	}
}
