//go:build linux

package fluid_test

import "syscall"

// processCPU returns the CPU time this process has used so far, in
// nanoseconds (user + system, all threads). Benchmarks report it beside
// wall time because the machine they run on is shared: waiting for a core
// inflates ns/op, not CPU time.
func processCPU() int64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}
