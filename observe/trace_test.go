package observe_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// traceEvent is the subset of the trace-event format we write.
type traceEvent struct {
	Ph   string          `json:"ph"`
	Pid  *int            `json:"pid"`
	Tid  *int            `json:"tid"`
	Name *string         `json:"name"`
	Cat  string          `json:"cat"`
	Ts   *float64        `json:"ts"`
	Dur  *float64        `json:"dur"`
	ID   *uint64         `json:"id"`
	Bp   string          `json:"bp"`
	Args json.RawMessage `json:"args"`
}

// checkTrace validates a trace against the trace-event format's rules for the
// phases we use (X complete, M metadata, s/f flow) and returns its events.
func checkTrace(t *testing.T, data []byte) []traceEvent {
	t.Helper()
	var doc struct {
		TraceEvents []traceEvent `json:"traceEvents"`
		Unit        string       `json:"displayTimeUnit"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not trace-event JSON: %v", err)
	}
	starts := map[uint64]bool{}
	for i, e := range doc.TraceEvents {
		if e.Pid == nil || e.Tid == nil || e.Name == nil {
			t.Fatalf("event %d lacks pid, tid or name: %+v", i, e)
		}
		switch e.Ph {
		case "X":
			if e.Ts == nil || e.Dur == nil || *e.Dur < 0 || math.IsNaN(*e.Ts) {
				t.Errorf("event %d: complete event needs ts and dur ≥ 0", i)
			}
		case "M":
			if e.Args == nil {
				t.Errorf("event %d: metadata without args", i)
			}
		case "s", "f":
			if e.ID == nil || e.Ts == nil || e.Cat == "" {
				t.Errorf("event %d: flow event needs id, ts and cat", i)
			}
			if e.Ph == "s" {
				starts[*e.ID] = true
			}
		default:
			t.Errorf("event %d: phase %q", i, e.Ph)
		}
	}
	for _, e := range doc.TraceEvents {
		if e.Ph == "f" && !starts[*e.ID] {
			t.Errorf("flow end %d without a start", *e.ID)
		}
	}
	return doc.TraceEvents
}

func TestTraceWriter(t *testing.T) {
	ring := func(r *ranks.Rank) {
		c := r.World()
		next, prev := (r.ID()+1)%c.Size(), (r.ID()+c.Size()-1)%c.Size()
		for i := range 3 {
			q := c.Irecv(prev, i)
			c.Send(next, i, ranks.Msg{Bytes: 100000 * (i + 1)}) // 300 kB: rendezvous
			r.Compute(1e-4, "dgemm")
			q.Wait()
		}
	}
	var buf bytes.Buffer
	tw := observe.NewTraceWriter(&buf, 4, 0, math.Inf(1))
	end, _ := recordRun(t, 4, ring, tw.Hook)
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	events := checkTrace(t, buf.Bytes())
	var compute, sends, recvs, arrows int
	for _, e := range events {
		switch {
		case e.Ph == "X" && e.Cat == "compute":
			compute++
			if *e.Ts+*e.Dur > end*1e6*(1+1e-12) {
				t.Errorf("slice ends after the run: %+v", e)
			}
		case e.Ph == "X" && *e.Name == "send to "+string(rune('0'+(*e.Pid+1)%4)):
			sends++
		case e.Ph == "X" && e.Cat == "mpi":
			recvs++
		case e.Ph == "f":
			arrows++
		}
	}
	// 4 ranks × 3 rounds: 12 compute slices, 12 sends, 12 receives, 12 arrows.
	if compute != 12 || sends != 12 || recvs != 12 || arrows != 12 {
		t.Errorf("compute %d, sends %d, receives %d, arrows %d; want 12 each", compute, sends, recvs, arrows)
	}

	// A window keeps only what overlaps it.
	buf.Reset()
	tw = observe.NewTraceWriter(&buf, 4, 0, 1e-5)
	recordRun(t, 4, ring, tw.Hook)
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	for _, e := range checkTrace(t, buf.Bytes()) {
		if e.Ph == "X" && *e.Ts > 10 {
			t.Errorf("slice at %g us outside the 10 us window", *e.Ts)
		}
	}
}

func TestParseTraceWindow(t *testing.T) {
	for _, tt := range []struct {
		in       string
		from, to float64
		ok       bool
	}{{"0:5ms", 0, 5e-3, true}, {"1s:", 1, math.Inf(1), true}, {":100us", 0, 1e-4, true}, {"", 0, math.Inf(1), true},
		{"5ms", 0, 0, false}, {"2s:1s", 0, 0, false}, {"a:b", 0, 0, false},
		// A time without its unit (meant as ms, taken as s) is refused but 0.
		{"0:5", 0, 0, false}, {"1:", 0, 0, false}, {":2.5", 0, 0, false}, {"0:1e-3", 0, 0, false}, {"0:5ms", 0, 5e-3, true},
		// An empty window is refused: 0:0 traced the whole run (to = 0 is "no bound" downstream).
		{"0:0", 0, 0, false}, {":0", 0, 0, false}, {"0:-0", 0, 0, false}, {"1ms:1ms", 0, 0, false}, {"1ms:1000us", 0, 0, false},
		{"-1ms:2ms", 0, 0, false}, {"0:5ms:7ms", 0, 0, false}, {"0:1e400s", 0, 0, false}, {"NaNs:", 0, 0, false}, {"0:", 0, math.Inf(1), true}} {
		from, to, err := observe.ParseTraceWindow(tt.in)
		if (err == nil) != tt.ok || tt.ok && (!close(from, tt.from) || to != tt.to && !close(to, tt.to)) {
			t.Errorf("%q: %g, %g, %v", tt.in, from, to, err)
		}
	}
}

// TestTraceShowsTheBroadcast runs HPL on a 1×4 grid (N = 512, NB = 32: 16 panels)
// with 1ring and with 2ring and reads the broadcast pattern off the trace's arrows
// (hpl.md §6). 1ring sends each panel root→r+1→r+2→r+3: three hops to the next
// rank. 2ring splits the other three ranks in halves {r+1} and {r+2, r+3}: the root
// sends to r+1 and to r+2, which passes to r+3 — one hop to the next rank fewer and
// one hop two ranks ahead more, per panel. Everything else (set-up collectives, back
// substitution) is the same in both runs, so the differences are exactly ±16.
func TestTraceShowsTheBroadcast(t *testing.T) {
	arrows := func(bcast string) map[[2]int]int {
		s, err := scenario.Parse([]byte(`
[platform]
hosts = 4
link_bandwidth = "10GBps"
link_latency = "1us"
[network]
model = "cm02"
[kernels.dgemm]
terms = ["m*n*k"]
coef = [1e-11]
[hpl]
n = 512
nb = 32
grids = [[1, 4]]
depth = 0
bcast = "`+bcast+`"
`), "bcast.toml")
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Validate()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := runner.Run(p, runner.Options{Trace: &buf}); err != nil {
			t.Fatal(err)
		}
		events := checkTrace(t, buf.Bytes())
		from := map[uint64]int{}
		pairs := map[[2]int]int{}
		for _, e := range events {
			switch e.Ph {
			case "s":
				from[*e.ID] = *e.Pid
			case "f":
				pairs[[2]int{from[*e.ID], *e.Pid}]++
			}
		}
		return pairs
	}
	count := func(pairs map[[2]int]int, ahead int) int {
		n := 0
		for pair, c := range pairs {
			if pair[1] == (pair[0]+ahead)%4 {
				n += c
			}
		}
		return n
	}
	const panels = 512 / 32
	one, two := arrows("1ring"), arrows("2ring")
	if d := count(one, 1) - count(two, 1); d != panels {
		t.Errorf("messages to the next rank: 1ring %d, 2ring %d; want %d fewer with 2ring", count(one, 1), count(two, 1), panels)
	}
	if d := count(two, 2) - count(one, 2); d != panels {
		t.Errorf("messages two ranks ahead: 1ring %d, 2ring %d; want %d more with 2ring", count(one, 2), count(two, 2), panels)
	}
}
