package emu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// timeTol is the tolerance on computed event times, seconds: completion
// times come out of rate × remaining-bytes divisions.
const timeTol = 1e-15 // s

func TestTimersFireInTimeThenInsertionOrder(t *testing.T) {
	e := NewEngine(nil)
	var got []string
	at := func(d float64, name string) {
		e.After(d, func() { got = append(got, fmt.Sprintf("%s@%g", name, e.Now())) })
	}
	at(2, "a")
	at(1, "b")
	at(2, "c") // same time as a, scheduled later: fires after a
	at(0, "d")
	e.After(1, func() { at(0, "e") }) // zero delay at t=1: after everything already due at 1
	for e.Step() {
	}
	want := []string{"d@0", "b@1", "e@1", "a@2", "c@2"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	if e.Step() {
		t.Fatal("Step on an empty engine returned true")
	}
	if e.Fired() != 6 {
		t.Fatalf("Fired = %d, want 6", e.Fired())
	}
}

func TestHandlerTimers(t *testing.T) {
	e := NewEngine(nil)
	h := &countHandler{}
	e.AfterHandler(0.5, h)
	e.AfterHandler(0.25, h)
	for e.Step() {
	}
	if h.n != 2 || e.Now() != 0.5 {
		t.Fatalf("handler ran %d times, clock %g; want 2 and 0.5", h.n, e.Now())
	}
}

type countHandler struct{ n int }

func (c *countHandler) Handle() { c.n++ }

func TestAfterRejectsBadDelays(t *testing.T) {
	for _, d := range []float64{-1, math.NaN(), math.Inf(1)} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("After(%v) did not panic", d)
				}
			}()
			NewEngine(nil).After(d, func() {})
		}()
	}
}

// oneLink is a System over a single shared link of capacity 100 B/s.
func oneLink() *fluid.System {
	return fluid.NewSystem([]fluid.Link{{Name: "l", Bandwidth: 100}})
}

func TestFlowsShareALink(t *testing.T) {
	// Two flows of 100 B and 300 B start at 0 on a 100 B/s link: each gets
	// 50 B/s, so the first ends at 100/50 = 2 s; the second has 200 B left
	// and then runs alone at 100 B/s: 2 + 200/100 = 4 s.
	e := NewEngine(oneLink())
	ends := map[string]float64{}
	e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100}, func() { ends["small"] = e.Now() })
	e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 300}, func() { ends["big"] = e.Now() })
	if e.Pending() != 2 {
		t.Fatalf("Pending = %d, want 2", e.Pending())
	}
	for e.Step() {
	}
	for name, want := range map[string]float64{"small": 2, "big": 4} {
		if math.Abs(ends[name]-want) > timeTol {
			t.Errorf("%s flow ended at %g, want %g", name, ends[name], want)
		}
	}
}

func TestTimerAndFlowInterleave(t *testing.T) {
	// A 100 B flow alone would end at 1 s; a timer at 0.5 s starts a second
	// 100 B flow. From 0.5 s both run at 50 B/s: the first has 50 B left and
	// ends at 0.5 + 50/50 = 1.5 s; the second then has 50 B left and runs
	// alone: 1.5 + 50/100 = 2 s.
	e := NewEngine(oneLink())
	var first, second float64
	e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100}, func() { first = e.Now() })
	e.After(0.5, func() {
		e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100}, func() { second = e.Now() })
	})
	for e.Step() {
	}
	if math.Abs(first-1.5) > timeTol || math.Abs(second-2) > timeTol {
		t.Fatalf("flows ended at %g and %g, want 1.5 and 2", first, second)
	}
}

func TestNextAndCancelFlow(t *testing.T) {
	e := NewEngine(oneLink())
	if _, ok := e.Next(); ok {
		t.Fatal("Next on an empty engine reported an event")
	}
	called := false
	id := e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100}, func() { called = true })
	if at, ok := e.Next(); !ok || math.Abs(at-1) > timeTol {
		t.Fatalf("Next = %g, %v; want 1, true", at, ok)
	}
	e.CancelFlow(id)
	if e.Step() || called {
		t.Fatal("a cancelled flow still completed")
	}
}

func TestDeterministicEventSequence(t *testing.T) {
	run := func() string {
		e := NewEngine(oneLink())
		var log []string
		for i := 0; i < 20; i++ {
			i := i
			e.After(float64(i%4)*0.25, func() {
				e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: float64(10 + i)}, func() {
					log = append(log, fmt.Sprintf("%d@%.17g", i, e.Now()))
				})
			})
		}
		for e.Step() {
		}
		return fmt.Sprint(log)
	}
	if a, b := run(), run(); a != b {
		t.Fatalf("two runs differ:\n%s\n%s", a, b)
	}
}

func ExampleEngine() {
	// One 1000-byte flow on a 1000 B/s link, and a timer half-way.
	e := NewEngine(fluid.NewSystem([]fluid.Link{{Name: "wire", Bandwidth: 1000}}))
	e.After(0.5, func() { fmt.Printf("timer at %gs\n", e.Now()) })
	e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 1000}, func() { fmt.Printf("flow done at %gs\n", e.Now()) })
	for e.Step() {
	}
	// Output:
	// timer at 0.5s
	// flow done at 1s
}

func BenchmarkTimers(b *testing.B) {
	// Steady state of a queue holding 1024 timers: fire one, schedule one.
	e := NewEngine(nil)
	h := &countHandler{}
	for i := 0; i < 1024; i++ {
		e.AfterHandler(float64(i)*1e-6, h)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Step()
		e.AfterHandler(1024e-6, h)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkLatencyTimers is the timer traffic of an SPMD run's messages:
// 1024 timers queued; each step fires one and schedules its successor with
// one of four delays (a latency phase per route length), and every fifth
// with a delay seen once (a compute time).
func BenchmarkLatencyTimers(b *testing.B) {
	e := NewEngine(nil)
	h := &countHandler{}
	delays := []float64{1.3e-6, 2.7e-6, 1.3e-6, 4.1e-6, 2.7e-6, 0.9e-6}
	for i := 0; i < 1024; i++ {
		e.AfterHandler(float64(i)*1e-9, h)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Step()
		d := delays[i%len(delays)]
		if i%5 == 0 {
			d = 1e-3 + float64(i)*1e-12
		}
		e.AfterHandler(d, h)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkNoisyTimers is the timer traffic of ranks whose every sleep has
// a delay of its own (kernels with per-call noise, SimGrid's growing probe
// costs): 1024 timers queued; each step fires one and schedules its
// successor with a delay drawn anew, so no lane takes it.
func BenchmarkNoisyTimers(b *testing.B) {
	e := NewEngine(nil)
	h := &countHandler{}
	rng := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 1024; i++ {
		e.AfterHandler(rng.Float64()*1e-3, h)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Step()
		e.AfterHandler(rng.Float64()*1e-3, h)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// TestManyFlowsBookkeeping: one long flow stays while 1,000 short ones come
// and go on their own links (some cancelled); every done function runs
// exactly once, cancelled ones never, and Pending drops to zero.
func TestManyFlowsBookkeeping(t *testing.T) {
	links := make([]fluid.Link, 1001)
	for i := range links {
		links[i] = fluid.Link{Name: "l", Bandwidth: 100}
	}
	e := NewEngine(fluid.NewSystem(links))
	calls := make([]int, 1001)
	e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{1000}, Bytes: 1e6}, func() { calls[1000]++ })
	for i := 0; i < 1000; i++ {
		i := i
		e.After(float64(i)*0.01, func() {
			id := e.StartFlow(fluid.FlowSpec{Links: []fluid.LinkID{fluid.LinkID(i)}, Bytes: float64(1 + i%7)}, func() { calls[i]++ })
			if i%10 == 3 {
				e.CancelFlow(id)
			}
		})
	}
	for e.Step() {
	}
	for i, n := range calls {
		want := 1
		if i < 1000 && i%10 == 3 {
			want = 0
		}
		if n != want {
			t.Fatalf("flow %d completed %d times, want %d", i, n, want)
		}
	}
	if e.Pending() != 0 {
		t.Fatalf("Pending = %d after the run", e.Pending())
	}
}

// timeHandler records when it fires.
type timeHandler struct {
	e  *Engine
	at *float64
}

func (h timeHandler) Handle() { *h.at = h.e.Now() }

// TestBatchedFlowsMatchOneByOne: flows handed to StartFlowHandler at one
// instant enter the System together; their completion times equal those of
// the same flows started one by one with StartFlow (three flows of 100, 200
// and 300 B on one 100 B/s link: 3, 5 and 6 s — each gets a third, then a
// half, then all).
func TestBatchedFlowsMatchOneByOne(t *testing.T) {
	sizes := []float64{100, 200, 300}
	want := []float64{3, 5, 6}
	for _, batched := range []bool{false, true} {
		e := NewEngine(oneLink())
		got := make([]float64, len(sizes))
		e.After(0, func() {
			for i, b := range sizes {
				spec := fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: b}
				if batched {
					e.StartFlowHandler(spec, timeHandler{e, &got[i]})
				} else {
					i := i
					e.StartFlow(spec, func() { got[i] = e.Now() })
				}
			}
			if e.Pending() != 3 {
				t.Errorf("Pending = %d, want 3", e.Pending())
			}
		})
		for e.Step() {
		}
		for i := range want {
			if math.Abs(got[i]-want[i]) > timeTol*want[i]*10 {
				t.Errorf("batched=%v: flow %d ended at %g, want %g", batched, i, got[i], want[i])
			}
		}
	}
}

// TestSkip: the clock jumps only when nothing is due at or before the end.
func TestSkip(t *testing.T) {
	e := NewEngine(nil)
	e.After(2, func() {})
	if !e.Skip(1.5) || e.Now() != 1.5 {
		t.Fatalf("Skip(1.5) refused or clock %g", e.Now())
	}
	if e.Skip(0.5) || e.Now() != 1.5 {
		t.Fatalf("Skip onto a due timer jumped to %g", e.Now())
	}
	if !e.Step() || e.Now() != 2 {
		t.Fatalf("timer did not fire at 2 (clock %g)", e.Now())
	}
}

// TestAtAndSkipTo: a timer set for a time fires then, in insertion order
// among the timers due then, on and off the lanes; SkipTo jumps only when
// nothing is due at or before its time; both refuse a time in the past.
func TestAtAndSkipTo(t *testing.T) {
	e := NewEngine(nil)
	var got []string
	mark := func(name string) func() {
		return func() { got = append(got, fmt.Sprintf("%s@%g", name, e.Now())) }
	}
	e.After(1, mark("a"))
	e.After(1, mark("b"))
	e.AtHandler(1, handlerFunc(mark("at")))
	e.After(1, mark("c"))
	e.AtHandler(0.5, handlerFunc(mark("early")))
	if e.SkipTo(0.5) || e.Now() != 0 {
		t.Fatalf("SkipTo onto a due timer jumped to %g", e.Now())
	}
	if !e.SkipTo(0.25) || e.Now() != 0.25 {
		t.Fatalf("SkipTo(0.25) refused or clock %g", e.Now())
	}
	for e.Step() {
	}
	if want := "[early@0.5 a@1 b@1 at@1 c@1]"; fmt.Sprint(got) != want {
		t.Fatalf("order %v, want %v", got, want)
	}
	for _, bad := range []float64{0.5, math.NaN(), math.Inf(1)} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("AtHandler(%v) at time 1 did not panic", bad)
				}
			}()
			e.AtHandler(bad, handlerFunc(func() {}))
		}()
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("SkipTo(%v) at time 1 did not panic", bad)
				}
			}()
			e.SkipTo(bad)
		}()
	}
}

type handlerFunc func()

func (f handlerFunc) Handle() { f() }

// TestStepWithinDifference: the precision test is SimGrid's double_equals,
// date − now < d, not date < now + d. At now = 1.718165697 ms, the event one
// float below the rounded sum now + 1 ns is 1 ns minus a rounding after
// now: SimGrid finishes it at now (in SMPI's replay of a CG loop, a compute
// ending so close after a message ends 1 ns early), and so does StepWithin;
// the event at the rounded sum itself is 1 ns after now and waits.
func TestStepWithinDifference(t *testing.T) {
	const now = 0.0017181656969357978
	sum := now + 1e-9
	for _, tc := range []struct {
		at   float64
		want bool
	}{
		{math.Nextafter(sum, 0), true}, // date − now < 1e-9 < the rounded sum − now
		{sum, false},
	} {
		if got := tc.at-now < 1e-9; got != tc.want {
			t.Fatalf("the case is wrong: %.20g − now < 1e-9 is %v", tc.at, got)
		}
		e := NewEngine(nil)
		var fired []float64
		e.AtHandler(now, handlerFunc(func() {}))
		e.AtHandler(tc.at, handlerFunc(func() { fired = append(fired, e.Now()) }))
		e.Step()
		for e.StepWithin(1e-9) {
		}
		if got := len(fired) == 1; got != tc.want || got && fired[0] != now {
			t.Errorf("event at %.20g: fired %v, want fired at now %v", tc.at, fired, tc.want)
		}
	}
}

// TestStepWithin: an event due less than the precision after now fires
// without moving the clock; one at or past it does not fire.
func TestStepWithin(t *testing.T) {
	e := NewEngine(nil)
	var got []float64
	for _, d := range []float64{1, 1 + 5e-10, 1 + 1e-9, 2} {
		e.After(d, func() { got = append(got, e.Now()) })
	}
	e.Step()
	for e.StepWithin(1e-9) {
	}
	if fmt.Sprint(got) != "[1 1]" || e.Now() != 1 {
		t.Fatalf("fired at %v, clock %v; want [1 1] and 1", got, e.Now())
	}
	for e.Step() {
	}
	if fmt.Sprint(got) != "[1 1 1.000000001 2]" {
		t.Fatalf("fired at %v", got)
	}
}

// TestSimGridClock: SimGrid moves its clock by the delay to the next date,
// now += date − now, which is not always the date itself when the delay
// is large against now (b − a is rounded once b > 2a). Under Options.
// SimGrid the engine's clock takes the same path, bit for bit.
func TestSimGridClock(t *testing.T) {
	a, b := 0.00016189957807444255, 1.5018256178447797 // float64: constants would be exact
	if a+(b-a) == b {
		t.Fatal("the example no longer rounds: pick another pair")
	}
	for _, simgrid := range []bool{false, true} {
		e := NewEngineOptions(nil, Options{SimGrid: simgrid, Precision: 1e-9})
		var at []float64
		e.After(a, func() { at = append(at, e.Now()) })
		e.After(b, func() { at = append(at, e.Now()) })
		for e.Step() {
		}
		want := b
		if simgrid {
			want = a + (b - a)
		}
		if len(at) != 2 || at[0] != a || at[1] != want {
			t.Errorf("SimGrid %v: clock read %v, want [%v %v]", simgrid, at, a, want)
		}
	}
}

// TestSimGridSkipKeepsInstants: under Options.SimGrid a sleep may not jump
// the clock to a time that another event follows by less than Precision
// (SimGrid would handle both at the earlier date); otherwise it may.
func TestSimGridSkipKeepsInstants(t *testing.T) {
	for _, tc := range []struct {
		gap  float64 // how long after the sleep's end the timer is due
		skip bool
	}{{0.5e-9, false}, {2e-9, true}} {
		e := NewEngineOptions(nil, Options{SimGrid: true, Precision: 1e-9})
		e.After(1+tc.gap, func() {})
		if got := e.Skip(1); got != tc.skip {
			t.Errorf("timer %v after the end: Skip = %v, want %v", tc.gap, got, tc.skip)
		}
	}
}

// TestBatchFlowHandlerRefuses: BatchFlowHandler panics, rather than batch a
// flow that would never start, on an engine without a fluid.System and on
// a SimGrid engine (which starts its flows at once); on a batching engine
// the flow completes as StartFlowHandler's would: 100 bytes at 100 B/s.
func TestBatchFlowHandlerRefuses(t *testing.T) {
	links := []fluid.Link{{Name: "l", Bandwidth: 100}}
	for _, tc := range []struct {
		name   string
		e      *Engine
		panics bool
	}{
		{"no system", NewEngine(nil), true},
		{"simgrid", NewEngineOptions(fluid.NewSystem(links), Options{SimGrid: true}), true},
		{"batching", NewEngine(fluid.NewSystem(links)), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := -1.0
			panicked := func() (p bool) {
				defer func() { p = recover() != nil }()
				tc.e.BatchFlowHandler(&fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 100},
					handlerFunc(func() { done = tc.e.Now() }))
				return false
			}()
			if panicked != tc.panics {
				t.Fatalf("panicked %v, want %v", panicked, tc.panics)
			}
			if tc.panics {
				return
			}
			for tc.e.Step() {
			}
			if done != 1 {
				t.Fatalf("flow done at %g, want 1", done)
			}
		})
	}
}
