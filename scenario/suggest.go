package scenario

import (
	"reflect"
	"sort"
	"strings"
)

// knownKeys lists every dotted key of the schema, from the toml tags of Scenario's
// tables (and [kernels]' settings), sorted; kernel model tables are open-ended and
// not listed.
var knownKeys = func() []string {
	keys := tableKeys(reflect.TypeOf(Scenario{}))
	for k := range kernelScalars {
		keys = append(keys, "kernels."+k)
	}
	sort.Strings(keys)
	return keys
}()

// jobKeys lists the keys of a [[jobs]] entry, as knownKeys.
var jobKeys = func() []string {
	keys := tableKeys(reflect.TypeOf(JobTable{}))
	sort.Strings(keys)
	return keys
}()

// tableKeys are the dotted keys of a table's struct type t, from its toml tags.
func tableKeys(t reflect.Type) []string {
	var keys []string
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if tag == "" || !f.IsExported() {
				continue
			}
			key := joinKey(prefix, tag)
			ft := f.Type
			if ft.Kind() == reflect.Struct && strings.HasSuffix(ft.Name(), "Table") && ft.Name() != "KernelsTable" {
				walk(key, ft)
				continue
			}
			keys = append(keys, key)
		}
	}
	walk("", t)
	return keys
}

// suggest returns " (did you mean K?)" for the known key closest to an unknown one,
// when it is a likely typo (edit distance ≤ 2), or for a key given without its
// table (`--set nb=64`, the short names emu tune's sweeps take: hpl.nb; `grid`:
// hpl.grids), or "".
func suggest(key string) string { return suggestAmong(key, knownKeys, "") }

// suggestAmong is suggest over keys, each suggestion spelt after prefix (a
// [[jobs]] entry's "jobs.N.").
func suggestAmong(key string, keys []string, prefix string) string {
	best, bestD := "", 3
	for _, k := range keys {
		if d := editDistance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" {
		return " (did you mean " + prefix + best + "?)"
	}
	if key == "" || strings.Contains(key, ".") {
		return ""
	}
	var tabled []string
	for _, k := range keys {
		if last := k[strings.LastIndex(k, ".")+1:]; k != last && (last == key || last == key+"s") {
			tabled = append(tabled, prefix+k)
		}
	}
	if len(tabled) == 0 || len(tabled) > 3 {
		return ""
	}
	last := len(tabled) - 1
	if last == 0 {
		return " (did you mean " + tabled[0] + "?)"
	}
	return " (did you mean " + strings.Join(tabled[:last], ", ") + " or " + tabled[last] + "?)"
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
