package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/term"

	"github.com/emu-hpc/emu/ranks"
)

// progressEvery is how often the progress line is redrawn, in wall time.
const progressEvery = 500 * time.Millisecond

// progress draws one status line on stderr while a run goes, only on a terminal:
// simulated time, events (MPI and compute) and events per second of wall time. Its
// hook runs inside the simulation; the drawing goroutine reads atomics only.
type progress struct {
	w       io.Writer
	start   time.Time
	events  atomic.Int64
	simTime atomic.Uint64 // float64 bits, s
	done    chan struct{}
	stopped chan struct{}
}

// newProgress returns nil (no progress) unless w is a terminal and quiet is off.
func newProgress(w io.Writer, quiet bool) *progress {
	f, ok := w.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return &progress{w: w, start: time.Now(), done: make(chan struct{}), stopped: make(chan struct{})}
}

// hook counts events and follows simulated time.
func (p *progress) hook(ev *ranks.Event) {
	p.events.Add(1)
	p.simTime.Store(floatBits(ev.Time))
}

func (p *progress) run() {
	defer close(p.stopped)
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	for {
		select {
		case <-p.done:
			fmt.Fprint(p.w, "\r\033[K")
			return
		case <-tick.C:
			wall := time.Since(p.start).Seconds()
			ev := p.events.Load()
			fmt.Fprintf(p.w, "\r\033[Kemu: simulated %.6f s, %d events, %.0f events/s, wall %.1f s",
				floatFrom(p.simTime.Load()), ev, float64(ev)/wall, wall)
		}
	}
}

func floatBits(f float64) uint64 { return math.Float64bits(f) }
func floatFrom(b uint64) float64 { return math.Float64frombits(b) }

func (p *progress) stop() {
	close(p.done)
	<-p.stopped
}
