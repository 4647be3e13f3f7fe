package main

import (
	"os"
	"os/signal"
	"syscall"
)

// removeStagedOnSignal makes SIGINT, SIGTERM and SIGHUP remove the staging
// files before they end the process as they would have: a run interrupted while
// its --trace streams (Ctrl-C, a batch system's time limit) would otherwise
// leave a hidden .NAME.tmp* of up to gigabytes beside its outputs. A signal the
// process was started with ignored (nohup, a background job of a script) stays
// ignored. SIGPIPE (stdout closed by its reader: `emu run --trace t.json | head`)
// is caught too, so that the write that meets it fails with EPIPE instead of
// killing the process where it stands: the error path then discards the staging
// files and run exits 141 as the signal would have (exitBrokenPipe). The returned
// function restores the signals' default handling.
func removeStagedOnSignal() (stop func()) {
	var sigs []os.Signal
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(sig) {
			sigs = append(sigs, sig)
		}
	}
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, sigs...)
	pipe := make(chan os.Signal, 1) // never read: Notify drops what does not fit
	if !signal.Ignored(syscall.SIGPIPE) {
		signal.Notify(pipe, syscall.SIGPIPE)
	}
	go func() {
		select {
		case sig := <-ch:
			pending.removeAll()
			endBy(sig)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		signal.Stop(pipe)
		close(done)
	}
}
