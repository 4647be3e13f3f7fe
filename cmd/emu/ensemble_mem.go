package main

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// memAvailable is the memory the system can give without swapping, bytes:
// MemAvailable of /proc/meminfo (Linux); 0 where unknown, and then an
// ensemble's runs are bounded by GOMAXPROCS alone.
func memAvailable() uint64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	return parseMemAvailable(data)
}

// parseMemAvailable finds "MemAvailable: N kB" in meminfo's text; 0 when absent.
func parseMemAvailable(data []byte) uint64 {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0
		}
		kb, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}
