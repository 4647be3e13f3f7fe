package loggops

import (
	"fmt"
	"github.com/emu-hpc/emu/traceformat"
	"math"
	"strconv"
)

// Params are the LogGOPS parameters of a replay (shared/reference/
// goal-and-llamp.md §3, §5). All times are in seconds.
type Params struct {
	L        float64 // end-to-end latency of a message's first byte, s
	O        float64 // o: CPU overhead per message, charged at the sender and at the receiver, s
	Gap      float64 // g: gap between two messages on one NIC (send and receive side apart), s
	G        float64 // G: gap per byte on the NIC, s/byte; a message of s bytes costs (s−1)·G
	OPerByte float64 // O: CPU overhead per byte (LogGOPS), s/byte; 0 in LogGOPSim's default
	S        int64   // eager limit, bytes: s ≤ S is eager, s > S rendezvous
}

// PsPerSecond converts seconds to the replay's integer time unit.
const PsPerSecond = 1e12

// maxParamSeconds bounds each time parameter so that sums of millions of
// them stay far from int64's 106 days of picoseconds.
const maxParamSeconds = 1e3

func (p Params) check() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"L", p.L}, {"o", p.O}, {"g", p.Gap}, {"G", p.G}, {"O", p.OPerByte}} {
		if !(f.v >= 0) || f.v > maxParamSeconds {
			return fmt.Errorf("goal: parameter %s = %v s, want 0..%v", f.name, f.v, maxParamSeconds)
		}
	}
	if p.S < 0 {
		return fmt.Errorf("goal: eager limit S = %d bytes, want ≥ 0", p.S)
	}
	return nil
}

// maxMessagePs bounds the time of one message, (s−1)·max(G, O) + o + g,
// so that the replay's int64 picoseconds (106 days) cannot overflow on any
// schedule of fewer than 10⁶ messages in sequence.
const maxMessagePs = 1e13 // 10 s

// checkScale refuses parameters that would make one message of the
// schedule take longer than maxMessagePs (a *ScaleError).
func checkScale(s *traceformat.Schedule, p Params) error {
	var largest int64
	at := -1
	for i, op := range s.Ops() {
		if op.Kind != traceformat.OpCalc && (at < 0 || op.Size > largest) {
			largest, at = op.Size, i
		}
	}
	perByte := max(float64(ps(p.G)), float64(ps(p.OPerByte)))
	if t := float64(largest)*perByte + float64(ps(p.O)+ps(p.Gap)); at >= 0 && t > maxMessagePs {
		return &ScaleError{Schedule: s.Name, Line: s.Op(at).Line, Size: largest, Seconds: t / PsPerSecond, Params: p}
	}
	return nil
}

// ScaleError refuses a schedule whose largest message would take longer
// than the replay's integer time allows for one message (10 s) with the
// replay's G or O.
type ScaleError struct {
	Schedule string
	Line     int   // GOAL line of the largest message's first op
	Size     int64 // bytes
	Seconds  float64
	Params   Params
}

func (e *ScaleError) Error() string {
	return fmt.Sprintf("%s:%d: a %d-byte message would take %.3g s with G = %g s/B, O = %g s/B; the loggops replay allows %g s a message",
		e.Schedule, e.Line, e.Size, e.Seconds, e.Params.G, e.Params.OPerByte, maxMessagePs/PsPerSecond)
}

// ps rounds seconds to whole picoseconds.
func ps(sec float64) int64 { return int64(math.Round(sec * PsPerSecond)) }

// Result is the outcome of a replay.
type Result struct {
	Runtime   float64   // max over ranks of the rank's finishing time, s
	RankTimes []float64 // per rank: latest time any of its CPUs is busy until, s (LogGOPSim's host time)
	Events    int64     // ops started plus messages sent: LogGOPSim's "Events"
	Messages  int64     // messages sent
	// Unstarted counts ops that never ran although no queue is left
	// non-empty: in LogGOPSim this happens when a rendezvous message is
	// received by a recv whose own size is ≤ S (its send never completes).
	Unstarted int
	// UnstartedLine is the GOAL line of the first op that never ran (0: none).
	UnstartedLine int
}

// Options select how a replay runs.
type Options struct {
	// Reference runs LogGOPSim's own data structures (linear matching
	// lists, retries through the event queue) instead of the fast ones: a
	// plain reference for tests and benchmarks, with the same results.
	Reference bool
}

// Replay runs the schedule under LogGOPSim's semantics and returns the
// runtime. It fails if messages or receives are left unmatched.
func Replay(s *traceformat.Schedule, p Params) (*Result, error) {
	e, err := New(s, p, Options{})
	if err != nil {
		return nil, err
	}
	return e.Run()
}

// New checks the parameters against the schedule and makes an engine
// ready to Run; SetHooks, before Run, gives it a listener (which may read
// the engine: its States, its costs).
func New(s *traceformat.Schedule, p Params, opt Options) (*Engine, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if err := checkScale(s, p); err != nil {
		return nil, err
	}
	e := newEngine(s, p)
	e.params = p
	e.reference = opt.Reference
	e.rq.linear, e.uq.linear = opt.Reference, opt.Reference
	return e, nil
}

// SetHooks sets what hears the loop's decisions; call it before Run.
func (e *Engine) SetHooks(h Hooks) { e.hooks = h }

// Run runs LogGOPSim's loop to its end, once.
func (e *Engine) Run() (*Result, error) {
	s := e.s
	e.run()
	for c, t := range e.nexto { // LogGOPSim prints a CPU's time as unsigned
		if t < 0 {
			e.readWrapped(e.cpuRes(c), -1)
		}
	}
	if e.wrapped {
		return nil, e.wrapError()
	}
	if err := e.leftovers(); err != nil {
		return nil, err
	}
	res := &Result{RankTimes: make([]float64, s.NumRanks()), Events: e.ts, Messages: e.msgs}
	ncpu := s.CPUs()
	for h := range res.RankTimes {
		var t int64
		for c := 0; c < ncpu; c++ {
			t = max(t, e.nexto[h*ncpu+c])
		}
		res.RankTimes[h] = float64(t) / PsPerSecond
		res.Runtime = max(res.Runtime, res.RankTimes[h])
	}
	for i := range e.st {
		if e.st[i].pending > 0 {
			if res.Unstarted == 0 {
				res.UnstartedLine = s.Op(i).Line
			}
			res.Unstarted++
		}
	}
	return res, nil
}

// WrapError reports a replay in which a message of 0 bytes took a CPU's or
// a NIC's next free time below 0 and that time was then read: LogGOPSim
// charges (s−1)·G and (s−1)·O in unsigned 64-bit arithmetic, so for s = 0
// it subtracts G or O, and where that goes below 0 (g < G, or o < G or O,
// early in the run) its time wraps to near 2⁶⁴ and what it prints from
// there is an artefact. The replay refuses the schedule instead of printing
// a figure.
type WrapError struct {
	Schedule string
	Line     int  // GOAL line of the send
	Rank     int  // rank whose CPU or NIC wrapped
	Receipt  bool // at the message's receipt (else at the send)
	Params   Params
}

func (e *WrapError) Error() string {
	where := "sending it"
	if e.Receipt {
		where = "receiving it at rank " + strconv.Itoa(e.Rank)
	}
	p := e.Params
	return fmt.Sprintf("%s:%d: this 0-byte message's (s−1)·G or (s−1)·O (−G or −O) takes LogGOPSim's unsigned time below 0 %s, and the run reads it (o = %.6g s, g = %.6g s, G = %.6g s/B, O = %.6g s/B): LogGOPSim's figures would wrap around 2⁶⁴; give o ≥ max(G, O) and g ≥ G, or the message a byte",
		e.Schedule, e.Line, where, p.O, p.Gap, p.G, p.OPerByte)
}

func (e *Engine) wrapError() *WrapError {
	op, receipt := e.wrapOp, false
	if op < 0 {
		op, receipt = -1-op, true
	}
	rank := int(e.ops[op].Rank)
	if receipt {
		rank = int(e.ops[op].Peer)
	}
	return &WrapError{Schedule: e.s.Name, Line: e.s.Op(int(op)).Line, Rank: rank, Receipt: receipt, Params: e.params}
}
