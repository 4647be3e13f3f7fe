package observe

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/units"
)

// TraceWriter is a ranks hook that streams the run as Chrome trace-event JSON (the
// format Perfetto and chrome://tracing load): one process per rank ("rank N") with a
// "compute" thread (one slice per kernel call, and the CPU time MPI charges: Iprobe
// costs, overheads) and an "mpi" thread (one slice per send, from its post to its
// completion, and per receive, from its post to the arrival of the data), and a flow
// arrow from each send to its receive. Times are in
// microseconds of simulated time. Only what overlaps [From, To] is written.
//
// Events are written as they happen, so the trace costs no memory beyond the
// messages in flight; the first write error is kept and returned by Close.
type TraceWriter struct {
	From, To float64 // window, s; To = +Inf for no bound

	w     *bufio.Writer
	err   error
	first bool
	named []bool // process names written, per rank
	sent  map[uint64]float64
	posts [][]tracePost
	recvd map[uint64]float64 // receive post times of matched messages
	arrow map[uint64]bool    // messages whose arrow start was written
	buf   []byte             // scratch for one event
	busy  []float64          // as GraphRecorder.busy: where each rank's timeline is explained
	// names, if set, names each rank's process (jobs: "job NAME, rank r");
	// else "rank N".
	names []string
}

type tracePost struct {
	peer, tag int
	at        float64
}

// NewTraceWriter starts a trace of a run of n ranks on w.
func NewTraceWriter(w io.Writer, n int, from, to float64) *TraceWriter {
	t := &TraceWriter{From: from, To: to, w: bufio.NewWriterSize(w, 1<<16), first: true,
		named: make([]bool, n), sent: map[uint64]float64{}, posts: make([][]tracePost, n), recvd: map[uint64]float64{},
		arrow: map[uint64]bool{}, busy: make([]float64, n)}
	t.printf(`{"displayTimeUnit":"ns","traceEvents":[`)
	return t
}

// Hook is the ranks.Hook to add to the World.
func (t *TraceWriter) Hook(ev *ranks.Event) {
	switch ev.Kind {
	case ranks.ComputeStart:
		t.local(ev.Rank, ev.Time)
	case ranks.ComputeEnd:
		t.slice(ev.Rank, 0, ev.Kernel, "compute", ev.Time-ev.Seconds, ev.Time)
		t.busy[ev.Rank] = math.Max(t.busy[ev.Rank], ev.Time)
	case ranks.SendPost:
		t.local(ev.Rank, ev.Time)
		if p := ev.Peer; p >= 0 && p < len(t.busy) {
			t.busy[p] = math.Max(t.busy[p], ev.Time) // the envelope can end a probe
		}
		t.sent[ev.MsgID] = ev.Time
		if t.visible(ev.Time, ev.Time) {
			t.flow("s", ev.Rank, ev.MsgID, ev.Time) // binds to the send slice written at completion
			t.arrow[ev.MsgID] = true
		}
	case ranks.Finished:
		t.local(ev.Rank, ev.Time)
	case ranks.RecvPost:
		t.local(ev.Rank, ev.Time)
		t.posts[ev.Rank] = append(t.posts[ev.Rank], tracePost{peer: ev.Peer, tag: ev.Tag, at: ev.Time})
	case ranks.Match:
		t.recvd[ev.MsgID] = t.takePost(ev.Rank, ev.Peer, ev.Tag, ev.Time)
	case ranks.SendDone:
		start, ok := t.sent[ev.MsgID]
		if !ok {
			return
		}
		if ev.Rendezvous {
			t.busy[ev.Rank] = math.Max(t.busy[ev.Rank], ev.Time)
		}
		delete(t.sent, ev.MsgID)
		t.slice(ev.Rank, 1, "send to "+strconv.Itoa(ev.Peer), "mpi", start, ev.Time)
	case ranks.RecvDone:
		t.busy[ev.Rank] = math.Max(t.busy[ev.Rank], ev.Time)
		start, ok := t.recvd[ev.MsgID]
		if !ok {
			start = ev.Time
		}
		if t.slice(ev.Rank, 1, "recv from "+strconv.Itoa(ev.Peer), "mpi", start, ev.Time) && t.arrow[ev.MsgID] {
			t.flow("f", ev.Rank, ev.MsgID, ev.Time)
		}
		// The send's record stays until its own completion (rendezvous: same time).
		delete(t.recvd, ev.MsgID)
		delete(t.arrow, ev.MsgID)
	}
}

// local draws the time a rank spent in MPI without waiting for anything the events
// show (Iprobe/Test costs, overheads, a probe loop's notice delay; see
// GraphRecorder) as an "mpi local" slice on its compute thread, the CPU it used.
func (t *TraceWriter) local(r int, now float64) {
	if now-t.busy[r] > gapTol {
		t.slice(r, 0, "MPI (polling, overheads)", "mpi", t.busy[r], now)
	}
	t.busy[r] = math.Max(t.busy[r], now)
}

func (t *TraceWriter) takePost(r, peer, tag int, now float64) float64 {
	for i, p := range t.posts[r] {
		if (p.peer == ranks.AnySource || p.peer == peer) && (p.tag == ranks.AnyTag || p.tag == tag) {
			t.posts[r] = append(t.posts[r][:i], t.posts[r][i+1:]...)
			return p.at
		}
	}
	return now
}

func (t *TraceWriter) visible(start, end float64) bool { return end >= t.From && start <= t.To }

// appendUs appends simulated seconds as the trace's microseconds.
func appendUs(b []byte, s float64) []byte { return strconv.AppendFloat(b, s*1e6, 'f', -1, 64) }

// slice writes a complete ("X") event on thread tid of rank r's process if it
// overlaps the window, and reports whether it did. It formats by hand: a trace can
// hold millions of events, and fmt would double the run's cost.
func (t *TraceWriter) slice(r, tid int, name, cat string, start, end float64) bool {
	if !t.visible(start, end) {
		return false
	}
	t.process(r)
	b := append(t.buf[:0], `{"ph":"X","pid":`...)
	b = strconv.AppendInt(b, int64(r), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, `,"name":`...)
	b = strconv.AppendQuote(b, name)
	b = append(b, `,"cat":`...)
	b = strconv.AppendQuote(b, cat)
	b = append(b, `,"ts":`...)
	b = appendUs(b, start)
	b = append(b, `,"dur":`...)
	b = appendUs(b, math.Max(0, end-start))
	t.buf = append(b, '}')
	t.raw(t.buf)
	return true
}

// flow writes one end of a message arrow, bound to the enclosing mpi slice.
func (t *TraceWriter) flow(ph string, r int, id uint64, at float64) {
	b := append(t.buf[:0], `{"ph":"`...)
	b = append(b, ph...)
	b = append(b, `","pid":`...)
	b = strconv.AppendInt(b, int64(r), 10)
	b = append(b, `,"tid":1,"name":"message","cat":"message","id":`...)
	b = strconv.AppendUint(b, id, 10)
	b = append(b, `,"ts":`...)
	b = appendUs(b, at)
	t.buf = append(b, `,"bp":"e"}`...)
	t.raw(t.buf)
}

// raw writes one formatted event.
func (t *TraceWriter) raw(ev []byte) {
	if t.err != nil {
		return
	}
	if t.first {
		t.w.WriteByte('\n')
	} else {
		t.w.WriteString(",\n")
	}
	t.first = false
	_, t.err = t.w.Write(ev)
}

// process names rank r's process and threads once.
func (t *TraceWriter) process(r int) {
	if t.named[r] {
		return
	}
	t.named[r] = true
	name := "rank " + strconv.Itoa(r)
	if r < len(t.names) {
		name = t.names[r]
	}
	t.event(`{"ph":"M","pid":%d,"tid":0,"name":"process_name","args":{"name":%s}}`, r, strconv.Quote(name))
	t.event(`{"ph":"M","pid":%d,"tid":0,"name":"process_sort_index","args":{"sort_index":%d}}`, r, r)
	t.event(`{"ph":"M","pid":%d,"tid":0,"name":"thread_name","args":{"name":"compute"}}`, r)
	t.event(`{"ph":"M","pid":%d,"tid":1,"name":"thread_name","args":{"name":"mpi"}}`, r)
}

func (t *TraceWriter) event(format string, args ...any) {
	if !t.first {
		t.printf(",\n")
	} else {
		t.printf("\n")
	}
	t.first = false
	t.printf(format, args...)
}

func (t *TraceWriter) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

// Close ends the JSON document and flushes it; it returns the first write error.
func (t *TraceWriter) Close() error {
	t.printf("\n]}\n")
	if t.err == nil {
		t.err = t.w.Flush()
	}
	return t.err
}

// ParseTraceWindow reads --trace-window "t0:t1" in time units ("0:5ms", "1s:",
// ":100us"); an empty side is unbounded, and t1 must be after t0 (from < to).
func ParseTraceWindow(s string) (from, to float64, err error) {
	to = math.Inf(1)
	if s == "" {
		return 0, to, nil
	}
	a, b, ok := cutColon(s)
	if !ok {
		return 0, 0, fmt.Errorf("--trace-window %q: want t0:t1, e.g. 0:5ms", s)
	}
	for _, side := range []struct {
		text string
		dst  *float64
	}{{a, &from}, {b, &to}} {
		if side.text == "" {
			continue
		}
		if *side.dst, err = units.ParseTime(side.text); err != nil {
			return 0, 0, fmt.Errorf("--trace-window %q: %v", s, err)
		}
		// A bare number is seconds to units.ParseTime, but "0:5" meant
		// as 5 ms is easy to write: as --L, --range and --delay, a time
		// other than 0 needs its unit.
		if x, bare := strconv.ParseFloat(strings.TrimSpace(side.text), 64); bare == nil && x != 0 {
			return 0, 0, fmt.Errorf("--trace-window %q: %q has no unit (ps, ns, us, ms, s), e.g. 0:5ms", s, side.text)
		}
	}
	if to < from {
		return 0, 0, fmt.Errorf("--trace-window %q: ends before it starts", s)
	}
	// An empty window would trace nothing, and 0:0 (to = 0) was taken
	// downstream as no bound at all: the whole run.
	if to == from {
		return 0, 0, fmt.Errorf("--trace-window %q: empty (ends where it starts); want t0 < t1, or leave t1 out for no end", s)
	}
	return from, to, nil
}

func cutColon(s string) (string, string, bool) {
	for i := range len(s) {
		if s[i] == ':' {
			return s[:i], s[i+1:], true
		}
	}
	return "", "", false
}

// JobHook is the hook of job number job of a [[jobs]] machine trace whose
// ranks start at global rank first (the jobs' ranks one after the other):
// its ranks become processes first…first+n−1, named after the job, and its
// message identities are made distinct from the other jobs' (each World
// numbers its own messages). Jobs are numbered from 0, fewer than 256.
func (t *TraceWriter) JobHook(job int, name string, first, n int) ranks.Hook {
	for r := range n {
		for len(t.names) <= first+r {
			t.names = append(t.names, "")
		}
		t.names[first+r] = fmt.Sprintf("job %s, rank %d", name, r)
	}
	return func(ev *ranks.Event) {
		e := *ev
		e.Rank += first
		if e.Peer >= 0 {
			e.Peer += first
		}
		if e.MsgID != 0 {
			e.MsgID = e.MsgID<<8 | uint64(job)
		}
		if e.RecvID != 0 {
			e.RecvID = e.RecvID<<8 | uint64(job)
		}
		t.Hook(&e)
	}
}
