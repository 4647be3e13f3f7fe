//go:build !unix

package main

type cpuTimes struct{ user, system float64 }

func (a cpuTimes) sub(b cpuTimes) cpuTimes { return cpuTimes{a.user - b.user, a.system - b.system} }

// processCPU is not measured off Unix.
func processCPU() cpuTimes { return cpuTimes{} }
