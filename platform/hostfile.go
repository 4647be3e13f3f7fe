package platform

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ParseHostfile reads an smpirun hostfile (shared/reference/smpi-model.md §4.8)
// against platform p: one host name a line, blank lines and "#" comments ignored
// (SMPI has none, MPICH and Open MPI do), "name:N" standing for N lines of name,
// as smpirun unrolls it (its last colon splits; "name:0" stands for no line). A
// line that is a host's whole name is that host, even where the name holds a
// '#' or a ':' (a cluster's prefix may; sensitivity --place writes names as they
// are). It returns the host index of each line; rank i runs on line i mod lines
// (Platform.Placement). Errors name the file and the line.
func ParseHostfile(data []byte, file string, p *Platform) ([]int, error) {
	index := make(map[string]int, p.Hosts)
	for h := range p.Hosts {
		index[p.HostName(h)] = h
	}
	var out []int
	// zero is the line of the first name:0 read, 0 if none.
	zero := 0
	text := strings.TrimPrefix(string(data), "\ufeff") // an editor's byte order mark
	for i, raw := range strings.Split(text, "\n") {
		if h, ok := index[strings.TrimSpace(raw)]; ok && strings.TrimSpace(raw) != "" { // a whole host name, even one holding '#' or ':'
			if len(out)+1 > MaxRanks {
				return nil, fmt.Errorf("%s:%d: more than %d lines", file, i+1, MaxRanks)
			}
			out = append(out, h)
			continue
		}
		line, _, _ := strings.Cut(raw, "#") // a comment, as MPICH's and Open MPI's hostfiles have them
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.ContainsAny(line, " \t") && !strings.Contains(line, ":") {
			return nil, fmt.Errorf("%s:%d: %q: want one host name a line, or name:N for N slots (not Open MPI's \"name slots=N\")", file, i+1, line)
		}
		name, count := line, 1
		if colon := strings.LastIndexByte(line, ':'); colon >= 0 {
			v, err := strconv.Atoi(strings.TrimSpace(line[colon+1:]))
			if ne := (*strconv.NumError)(nil); errors.As(err, &ne) && ne.Err == strconv.ErrRange && !strings.HasPrefix(ne.Num, "-") {
				return nil, fmt.Errorf("%s:%d: %q: N is more than the %d ranks emu runs at most", file, i+1, line, MaxRanks)
			}
			if err != nil || v < 0 {
				return nil, fmt.Errorf("%s:%d: %q: want name or name:N with N ≥ 0", file, i+1, line)
			}
			name, count = strings.TrimSpace(line[:colon]), v
		}
		h, ok := index[name]
		if !ok {
			return nil, fmt.Errorf("%s:%d: host %q is not in the platform (%s … %s)", file, i+1, name, p.HostName(0), p.HostName(p.Hosts-1))
		}
		if count > MaxRanks-len(out) { // not len+count: a count near MaxInt wrapped past the check
			return nil, fmt.Errorf("%s:%d: more than %d lines", file, i+1, MaxRanks)
		}
		for range count {
			out = append(out, h)
		}
		if count == 0 && zero == 0 {
			zero = i + 1
		}
	}
	if len(out) == 0 && zero > 0 { // it said "no host names" of a file that names one
		return nil, fmt.Errorf("%s:%d: every host given has :0 slots: no rank has a host to run on", file, zero)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no host names", file)
	}
	return out, nil
}
