package models

import (
	"fmt"
	"strconv"
	"strings"
)

// locate returns "file:line" for a dotted key of models.toml, or just "file"
// when the line cannot be found. BurntSushi/toml gives lines for syntax
// errors only, so for validation errors we look the key up in the text:
// find the table header that holds it, then the key's own line below it.
// This is best effort (dotted keys and inline tables are matched loosely);
// the key itself is always named in the message.
func locate(data []byte, file string, key []string) string {
	text := strings.TrimPrefix(string(data), "\ufeff") // an editor's byte order mark hides line 1's header
	if line := findLine(strings.Split(text, "\n"), key); line > 0 {
		return file + ":" + strconv.Itoa(line)
	}
	return file
}

// splitKey splits "kernels.dgemm.piece[1].coef" into
// ["kernels", "dgemm", "piece[1]", "coef"].
func splitKey(k string) []string { return strings.Split(k, ".") }

// findLine returns the 1-based line of key, 0 if not found.
func findLine(lines []string, key []string) int {
	line, start := 0, 0 // the innermost header found so far, and the line after it
	var table []string
	for _, part := range key {
		name, index := splitIndex(part)
		hdr := strings.Join(append(table, name), ".")
		if l := findHeader(lines, start, hdr, index, false); l > 0 {
			table = append(table, name)
			line, start = l, l
			continue
		}
		if findHeader(lines, start, hdr, -1, true) > 0 { // implicit table: [kernels.dgemm] without [kernels]
			table = append(table, name)
			continue
		}
		// Otherwise it is a key of the current table.
		for j := start; j < len(lines); j++ {
			t := strings.TrimSpace(lines[j])
			if strings.HasPrefix(t, "[") {
				break
			}
			if k, _, ok := strings.Cut(t, "="); ok && unquote(strings.TrimSpace(k)) == name {
				return j + 1
			}
		}
		return line
	}
	return line
}

// findHeader finds the index-th "[hdr]" or "[[hdr]]" line at or after start
// (index -1 for a plain table), or with prefix the first header below hdr.
func findHeader(lines []string, start int, hdr string, index int, prefix bool) int {
	seen := 0
	for j := start; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if c := strings.IndexByte(t, '#'); c >= 0 {
			t = strings.TrimSpace(t[:c])
		}
		if !strings.HasPrefix(t, "[") {
			continue
		}
		inner := strings.Trim(t, "[] \t")
		parts := strings.Split(inner, ".")
		for p := range parts {
			parts[p] = unquote(strings.TrimSpace(parts[p]))
		}
		got := strings.Join(parts, ".")
		if prefix {
			if strings.HasPrefix(got, hdr+".") {
				return j + 1
			}
			continue
		}
		if got != hdr {
			continue
		}
		if index < 0 || seen == index {
			return j + 1
		}
		seen++
	}
	return 0
}

// splitIndex splits "piece[2]" into ("piece", 2); a plain name gives -1.
func splitIndex(s string) (string, int) {
	open := strings.IndexByte(s, '[')
	if open < 0 || !strings.HasSuffix(s, "]") {
		return s, -1
	}
	var i int
	if _, err := fmt.Sscanf(s[open:], "[%d]", &i); err != nil {
		return s, -1
	}
	return s[:open], i
}

func unquote(s string) string { return strings.Trim(s, `"'`) }

// Locate returns "file:line" for a dotted key of the models.toml document
// data ("kernels.dgemm"), or just "file" when its line cannot be found.
func Locate(data []byte, file, key string) string { return locate(data, file, splitKey(key)) }
