package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/emu-hpc/emu/internal/jsonout"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// The seam between `emu run` (run.go) and its ensemble: each method does what
// a single run does when the ensemble is nil.

// runWith runs plan with opt alone, or as member 0 of the ensemble beside
// the other members, with a count of finished runs on a terminal's stderr.
func (e *ensemble) runWith(cmd *cobra.Command, plan *scenario.Plan, opt runner.Options) (*runner.Result, error) {
	if e == nil {
		return runner.Run(plan, opt)
	}
	bar := ensembleBar(cmd.ErrOrStderr(), e.spec.runs(), isQuiet(cmd))
	var mu sync.Mutex
	res, err := e.run(plan, opt, func(done int) {
		if bar != nil {
			mu.Lock()
			bar.Set(done)
			mu.Unlock()
		}
	})
	if bar != nil {
		bar.Finish()
	}
	return res, err
}

// writeTable prints the ensemble's table after the report (nothing alone).
func (e *ensemble) writeTableAfter(w io.Writer) error {
	if e == nil {
		return nil
	}
	return e.writeTable(w)
}

// writeJSON writes --json: the run's result, with the ensemble's figures.
func (e *ensemble) writeJSON(w io.Writer, res *runner.Result) error {
	if e == nil {
		return jsonout.Encode(w, res)
	}
	return e.encodeJSON(w, res)
}

// noteAfter says on stderr how the ensemble ran (nothing alone).
func (e *ensemble) noteAfter(cmd *cobra.Command) {
	if e != nil && !isQuiet(cmd) {
		e.note(cmd.ErrOrStderr())
	}
}

// ensembleBar counts finished runs on stderr, only on a terminal.
func ensembleBar(w io.Writer, total int, quiet bool) *progressbar.ProgressBar {
	f, ok := w.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription("ensemble"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(f) }),
	)
}
