package calibration

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// defaultLastLevelCache is assumed where the system does not say: larger
// than the last-level cache of most servers' sockets, so a sweep of twice
// it still evicts.
const defaultLastLevelCache = 64 << 20

// maxLastLevelCache bounds what a misreading could make evictCaches write.
const maxLastLevelCache = 1 << 30

// lastLevelCache returns the size in bytes of the largest data or unified
// cache of CPU 0 as Linux's sysfs describes it, or defaultLastLevelCache;
// sysfs is read once, when a measurer first needs it.
var lastLevelCache = sync.OnceValue(readLastLevelCache)

func readLastLevelCache() int {
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	best := 0
	for _, d := range dirs {
		typ, err := os.ReadFile(filepath.Join(d, "type"))
		if err != nil || strings.TrimSpace(string(typ)) == "Instruction" {
			continue
		}
		size, err := os.ReadFile(filepath.Join(d, "size"))
		if err != nil {
			continue
		}
		if b, ok := parseCacheSize(strings.TrimSpace(string(size))); ok {
			best = max(best, b)
		}
	}
	if best == 0 {
		return defaultLastLevelCache
	}
	return min(best, maxLastLevelCache)
}

// parseCacheSize reads sysfs's cache sizes: "32768K", "2M", "512".
func parseCacheSize(s string) (int, bool) {
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	v, err := strconv.Atoi(s)
	if err != nil || v <= 0 {
		return 0, false
	}
	return v * mult, true
}
