package calibration

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// signalContext is cancelled by SIGINT or SIGTERM, the way emu calibrate
// stops a campaign so it can be resumed.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// SignalContext returns a context cancelled by SIGINT or SIGTERM, and its
// stop function (call it to restore default signal handling).
func SignalContext() (context.Context, context.CancelFunc) { return signalContext() }
