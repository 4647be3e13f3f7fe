package runner

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// realMemory is the most bytes a real- or timed-mode HPL test's matrices may take,
// all ranks together (they live in this one process): beyond it the test is
// skipped as HPL skips a test whose malloc fails, where Go would abort the whole
// run with "fatal error: out of memory". It is this machine's physical memory, or
// 0 (no limit) where that is unknown; tests replace it.
var realMemory = physicalMemory

// physicalMemory reads MemTotal from /proc/meminfo (Linux), in bytes; 0 if the
// file is missing or unreadable.
func physicalMemory() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	return parseMemTotal(data)
}

// parseMemTotal finds "MemTotal: N kB" in meminfo's text; 0 when absent.
func parseMemTotal(data []byte) int64 {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || kb <= 0 {
			return 0
		}
		return kb << 10
	}
	return 0
}
