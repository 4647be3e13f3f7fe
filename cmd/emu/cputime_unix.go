//go:build unix

package main

import "syscall"

// cpuTimes is the CPU time of this process so far, s.
type cpuTimes struct{ user, system float64 }

func (a cpuTimes) sub(b cpuTimes) cpuTimes { return cpuTimes{a.user - b.user, a.system - b.system} }

// processCPU reads getrusage(RUSAGE_SELF); zero where it fails.
func processCPU() cpuTimes {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return cpuTimes{}
	}
	sec := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)*1e-6 }
	return cpuTimes{sec(ru.Utime), sec(ru.Stime)}
}
