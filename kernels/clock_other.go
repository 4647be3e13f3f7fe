//go:build !linux

package kernels

// Without a process CPU clock, CPUClock measures wall time.
const cpuClockWorks = false

func cpuNanos() int64 { return 0 }
