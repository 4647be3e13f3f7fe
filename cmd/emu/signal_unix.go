//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// endBy ends the process as sig's default action would, so that a shell sees
// 128+sig as it did before emu caught it.
func endBy(sig os.Signal) {
	signal.Reset(sig)
	if s, ok := sig.(syscall.Signal); ok {
		syscall.Kill(os.Getpid(), s)
		time.Sleep(time.Second) // the signal ends the process here
		os.Exit(128 + int(s))
	}
	os.Exit(1)
}
