package kernels

import "golang.org/x/sys/unix"

// threadClockWorks is decided once: a kernel without the thread CPU clock
// falls back to the wall clock.
var threadClockWorks = func() bool {
	var ts unix.Timespec
	return unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) == nil
}()

// threadNanos is the CPU time consumed by the calling thread, ns.
func threadNanos() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic("kernels: thread CPU clock failed after working: " + err.Error())
	}
	return ts.Nano()
}
