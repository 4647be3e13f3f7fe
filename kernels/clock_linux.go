package kernels

import "golang.org/x/sys/unix"

// cpuClockWorks is decided once: a system without the process CPU clock
// falls back to the wall clock.
var cpuClockWorks = func() bool {
	var ts unix.Timespec
	return unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts) == nil
}()

// cpuNanos is the CPU time consumed by all threads of the process, ns.
func cpuNanos() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		panic("kernels: process CPU clock failed after working: " + err.Error())
	}
	return ts.Nano()
}
