package validation

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// hplTraceDir holds HPL.dat files (dats/) and, for each, the point-to-point
// MPI calls HPL 2.3 itself made on every rank when SimGrid 3.32's smpirun ran
// it (ops/, digested from its -trace-ti and Paje traces: README.md there).
const hplTraceDir = "testdata/hpltrace"

// hplOp is one point-to-point MPI call of one rank: op is send, isend,
// ssend, issend, recv, irecv or wait; peer is the other side's world rank;
// bytes the message's size (0 for a wait).
type hplOp struct {
	op              string
	peer, tag, byts int
}

func (o hplOp) String() string {
	if o.op == "wait" {
		return fmt.Sprintf("wait %d %d", o.peer, o.tag)
	}
	return fmt.Sprintf("%s %d %d %d", o.op, o.peer, o.tag, o.byts)
}

// loadHPLOps reads an ops digest (plain or gzipped): lines "RANK OP PEER TAG
// BYTES", "RANK wait PEER TAG", each rank's in its order.
func loadHPLOps(path string) ([][]hplOp, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		r = z
	}
	var out [][]hplOp
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		w := strings.Fields(sc.Text())
		if len(w) == 0 {
			continue
		}
		v := make([]int, 0, 4)
		for i, s := range w {
			if i == 1 {
				continue
			}
			x, err := strconv.Atoi(s)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %q is not a number", path, n, s)
			}
			v = append(v, x)
		}
		want := 4
		if w[1] == "wait" {
			want = 3
		}
		if len(v) != want {
			return nil, fmt.Errorf("%s:%d: want %d numbers", path, n, want)
		}
		for len(out) <= v[0] {
			out = append(out, nil)
		}
		o := hplOp{op: w[1], peer: v[1], tag: v[2]}
		if want == 4 {
			o.byts = v[3]
		}
		out[v[0]] = append(out[v[0]], o)
	}
	return out, sc.Err()
}

// hplCalls are the MPI calls whose point-to-point operations the digests
// hold, by emu's names.
var hplCalls = map[string]string{
	"MPI_Send": "send", "MPI_Isend": "isend", "MPI_Ssend": "ssend", "MPI_Issend": "issend",
	"MPI_Recv": "recv", "MPI_Irecv": "irecv", "MPI_Wait": "wait",
}

// hplOpRecorder listens to a World and keeps each rank's point-to-point
// calls as the digests write them: the call a rank is in names the
// operation of its SendPost or RecvPost; a receive's size is its match's; a
// wait is on the rank's oldest request not yet waited for (HPL 2.3 has one
// request pending when it waits: HPL_sdrv's or a roll step's Irecv, a long
// broadcast step's Issend).
type hplOpRecorder struct {
	ops     [][]hplOp
	call    []string
	pending [][]int           // per rank: indices in ops of requests not yet waited for
	recvAt  map[uint64][2]int // RecvID → (rank, index in ops)
	err     error
}

func newHPLOpRecorder(n int) *hplOpRecorder {
	return &hplOpRecorder{ops: make([][]hplOp, n), call: make([]string, n), pending: make([][]int, n), recvAt: map[uint64][2]int{}}
}

func (h *hplOpRecorder) fail(format string, a ...any) {
	if h.err == nil {
		h.err = fmt.Errorf(format, a...)
	}
}

func (h *hplOpRecorder) hook(e *ranks.Event) {
	r := e.Rank
	switch e.Kind {
	case ranks.CallStart:
		h.call[r] = e.Kernel
		if e.Kernel == "MPI_Wait" {
			if len(h.pending[r]) == 0 {
				h.fail("rank %d: MPI_Wait with no request pending", r)
				return
			}
			q := h.ops[r][h.pending[r][0]]
			h.pending[r] = h.pending[r][1:]
			h.ops[r] = append(h.ops[r], hplOp{op: "wait", peer: q.peer, tag: q.tag})
		}
	case ranks.CallEnd:
		h.call[r] = ""
	case ranks.SendPost, ranks.RecvPost:
		op, ok := hplCalls[h.call[r]]
		if !ok || op == "wait" {
			h.fail("rank %d: a message in %q", r, h.call[r])
			return
		}
		if (e.Kind == ranks.SendPost) != strings.HasSuffix(op, "send") {
			h.fail("rank %d: %v in %s", r, e.Kind, h.call[r])
			return
		}
		h.ops[r] = append(h.ops[r], hplOp{op: op, peer: e.Peer, tag: e.Tag, byts: e.Bytes})
		if e.Kind == ranks.RecvPost {
			h.recvAt[e.RecvID] = [2]int{r, len(h.ops[r]) - 1}
		}
		if op[0] == 'i' {
			h.pending[r] = append(h.pending[r], len(h.ops[r])-1)
		}
	case ranks.Match:
		at, ok := h.recvAt[e.RecvID]
		if !ok {
			h.fail("rank %d: a match for receive %d, never posted", r, e.RecvID)
			return
		}
		delete(h.recvAt, e.RecvID)
		h.ops[at[0]][at[1]].byts = e.Bytes
	}
}

// emuHPLOps runs the HPL.dat at dat in emu's real mode on the corpus's
// platform (one rank a host) and returns each rank's point-to-point calls.
func emuHPLOps(t *testing.T, dat string, sets ...string) [][]hplOp {
	t.Helper()
	s := scenario.Default()
	if err := s.UsePlatformXML(filepath.Join(hplTraceDir, "platform.xml")); err != nil {
		t.Fatal(err)
	}
	if err := s.UseHPLDat(dat); err != nil {
		t.Fatal(err)
	}
	plan := plantest.Validated(t, s, append([]string{"kernels.mode=real"}, sets...)...)
	rec := newHPLOpRecorder(plan.Ranks)
	kinds := ranks.KindsOf(ranks.CallStart, ranks.CallEnd, ranks.SendPost, ranks.RecvPost, ranks.Match)
	res, err := runner.Run(plan, runner.Options{Listeners: []ranks.Listener{{Kinds: kinds, Hook: rec.hook}}})
	if err != nil {
		t.Fatal(err)
	}
	if rec.err != nil {
		t.Fatal(rec.err)
	}
	for i, r := range res.HPL {
		if r != nil && !r.Passed {
			t.Fatalf("test %d: emu's residual %g failed", i+1, r.Residual)
		}
	}
	return rec.ops
}

// hplStreams splits a rank's calls into streams that each keep their
// order under any timing: by peer (a channel's calls are in program order),
// and by HPL's message-id range (tag ÷ 1000: 1 the pivot search's and the
// row swaps' messages on the column communicator, 2 the panel broadcasts on
// the row communicator, 3 the back substitution's, 9 HPL's tree collectives:
// within a range HPL calls in program order across peers too). What is not
// kept is the interleaving of different ranges on a rank: a ring broadcast
// forwards a panel when HPL's Iprobe, made between the swaps' and the
// update's steps, finds it, so when depends on timing.
func hplStreams(ops []hplOp) map[string][]hplOp {
	m := map[string][]hplOp{}
	for _, o := range ops {
		p := fmt.Sprintf("peer %d", o.peer)
		c := fmt.Sprintf("tags %d000s", o.tag/1000)
		m[p] = append(m[p], o)
		m[c] = append(m[c], o)
	}
	return m
}

// compareHPLOps compares HPL's calls with emu's rank by rank, stream by
// stream (hplStreams). It returns the number of calls compared and the
// first departures (at most max), each the first of its stream.
func compareHPLOps(hpl, emu [][]hplOp, max int) (int, []string) {
	var diffs []string
	n := 0
	for len(hpl) < len(emu) {
		hpl = append(hpl, nil)
	}
	for len(emu) < len(hpl) {
		emu = append(emu, nil)
	}
	for r := range hpl {
		n += len(hpl[r])
		hs, es := hplStreams(hpl[r]), hplStreams(emu[r])
		keys := map[string]bool{}
		for k := range hs {
			keys[k] = true
		}
		for k := range es {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			h, e := hs[k], es[k]
			for i := 0; i < len(h) || i < len(e); i++ {
				hc, ec := "(none)", "(none)"
				if i < len(h) {
					hc = h[i].String()
				}
				if i < len(e) {
					ec = e[i].String()
				}
				if hc != ec {
					if len(diffs) < max {
						diffs = append(diffs, fmt.Sprintf("rank %d, %s, call %d of %d: HPL %s, emu %s (emu has %d)", r, k, i+1, len(h), hc, ec, len(e)))
					}
					break
				}
			}
		}
	}
	return n, diffs
}

// TestHPLMessagesAgainstHPL23 runs every HPL.dat of testdata/hpltrace in
// emu's real mode and requires, rank by rank, the point-to-point calls HPL
// 2.3 made under SMPI: the call (blocking or not, synchronous or not), the
// peer, the tag, the size in bytes, and the order within each peer's calls
// and within each message-id range (hplStreams); and each wait on the
// request HPL waited for.
func TestHPLMessagesAgainstHPL23(t *testing.T) {
	dats, err := filepath.Glob(filepath.Join(hplTraceDir, "dats", "*.dat"))
	if err != nil || len(dats) == 0 {
		t.Fatalf("no HPL.dat in %s: %v", hplTraceDir, err)
	}
	total, ranksSeen, sameOrder := 0, 0, 0
	for _, dat := range dats {
		name := strings.TrimSuffix(filepath.Base(dat), ".dat")
		t.Run(name, func(t *testing.T) {
			want, err := loadHPLOps(filepath.Join(hplTraceDir, "ops", name+".ops.gz"))
			if err != nil {
				t.Fatal(err)
			}
			got := emuHPLOps(t, dat)
			n, diffs := compareHPLOps(want, got, 8)
			total += n
			for r := range want {
				if r < len(got) && len(want[r]) > 0 {
					ranksSeen++
					if slices.Equal(want[r], got[r]) {
						sameOrder++
					}
				}
			}
			for _, d := range diffs {
				t.Error(d)
			}
		})
	}
	t.Logf("%d HPL.dat files, %d operations compared; %d of %d ranks' calls in the same order across peers too",
		len(dats), total, sameOrder, ranksSeen)
}
