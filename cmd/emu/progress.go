package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/scenario"
)

// progressEvery is how often the progress line is redrawn, in wall time.
const progressEvery = 500 * time.Millisecond

// progress shows one status line on stderr (progressbar's spinner) while a run goes, only on a terminal:
// simulated time, messages per second of wall time and, for HPL, the panel reached
// and an ETA. The simulation does not say which panel HPL is on, so the panel is
// estimated from the dgemm time charged so far against the dgemm time the whole run
// will charge under the kernel model (the trailing updates hold nearly all of
// HPL's flops: Σ over panels of (N−j)²·NB multiply-adds); the ETA assumes the
// remaining panels go at the pace of those done. The hook runs inside the simulation, for
// message posts and compute ends only (at Stampede's scale, hearing every event cost a few
// percent of the run); the drawing goroutine reads atomics only.
type progress struct {
	w       io.Writer
	start   time.Time
	sends   atomic.Int64  // messages posted
	simTime atomic.Uint64 // float64 bits, s
	dgemm   atomic.Uint64 // float64 bits: dgemm seconds charged so far, all ranks
	total   float64       // dgemm seconds the run will charge (0: unknown, no ETA)
	panels  int           // panels of the run's tests (as emulated)
	bar     *progressbar.ProgressBar
	done    chan struct{}
	stopped chan struct{}
}

// newProgress returns nil (no progress) unless w is a terminal and quiet is off.
// Given the plan of an HPL run, the line also shows the panel reached and an ETA.
func newProgress(w io.Writer, quiet bool, plan ...*scenario.Plan) *progress {
	f, ok := w.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	p := &progress{w: w, start: time.Now(), done: make(chan struct{}), stopped: make(chan struct{})}
	// The same progress bar as calibrate's, as a spinner whose description is
	// the status line: a run's length is not known in messages.
	p.bar = progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionSetElapsedTime(false),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionThrottle(progressEvery),
		progressbar.OptionClearOnFinish(),
	)
	if len(plan) > 0 && plan[0] != nil {
		p.total, p.panels = hplWork(plan[0])
	}
	return p
}

// hplWork is the dgemm time the plan's HPL tests will charge under the dgemm model
// (every rank together), and their number of panels; zeros when not known.
func hplWork(plan *scenario.Plan) (seconds float64, panels int) {
	if plan.App != scenario.AppHPL || plan.Kernels.Models == nil {
		return 0, 0
	}
	m := plan.Kernels.Models.For("dgemm", "")
	if m == nil {
		return 0, 0
	}
	// Seconds per multiply-add, from a large call where the intercept is negligible.
	const dim = 1000
	perMAC := m.Mean(models.Vars{M: dim, N: dim, K: dim, W: dim * dim * dim}) / (dim * dim * dim)
	for _, t := range plan.HPL {
		n, nb := float64(t.N), t.NB
		count := (t.N + nb - 1) / nb
		if plan.MaxIterations > 0 {
			count = min(count, plan.MaxIterations)
		}
		panels += count
		for k := range count {
			rest := math.Max(0, n-float64((k+1)*nb)) // trailing columns after panel k
			seconds += perMAC * rest * rest * float64(nb)
		}
	}
	return seconds, panels
}

// listener is the hook that feeds the status line and the kinds it hears.
func (p *progress) listener() ranks.Listener {
	return ranks.Listener{Kinds: ranks.KindsOf(ranks.SendPost, ranks.ComputeEnd), Hook: p.hook}
}

// hook counts messages, follows simulated time and adds up dgemm time.
func (p *progress) hook(ev *ranks.Event) {
	if ev.Kind == ranks.SendPost {
		p.sends.Add(1)
	}
	p.simTime.Store(math.Float64bits(ev.Time))
	if ev.Kind == ranks.ComputeEnd && ev.Kernel == "dgemm" {
		p.dgemm.Store(math.Float64bits(math.Float64frombits(p.dgemm.Load()) + ev.Seconds))
	}
}

// line is the status text at wall time wall (s).
func (p *progress) line(wall float64) string {
	sends := p.sends.Load()
	var b strings.Builder
	fmt.Fprintf(&b, "emu: simulated %.6f s, %d messages, %.0f messages/s", math.Float64frombits(p.simTime.Load()), sends, float64(sends)/wall)
	if done := math.Float64frombits(p.dgemm.Load()); p.total > 0 && done > 0 {
		f := math.Min(1, done/p.total)
		// Remaining work after panel k ∝ (N − k·NB)³: invert for k.
		panel := max(1, int(math.Ceil(float64(p.panels)*(1-math.Cbrt(1-f)))))
		// Late panels hold little work but as many messages: pace the ETA by panels.
		eta := wall * float64(p.panels-panel) / float64(panel)
		fmt.Fprintf(&b, ", HPL panel ≈ %d of %d, ETA %.0f s", panel, p.panels, eta)
	}
	fmt.Fprintf(&b, ", wall %.1f s", wall)
	return b.String()
}

func (p *progress) run() {
	defer close(p.stopped)
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	for {
		select {
		case <-p.done:
			p.bar.Finish()
			return
		case <-tick.C:
			p.bar.Describe(p.line(time.Since(p.start).Seconds()))
			p.bar.Add(1)
		}
	}
}

func (p *progress) stop() {
	close(p.done)
	<-p.stopped
}
