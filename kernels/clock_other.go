//go:build !linux

package kernels

// Without a per-thread CPU clock, ThreadClock measures wall time.
const threadClockWorks = false

func threadNanos() int64 { return 0 }
