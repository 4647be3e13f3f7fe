package hpldat

import (
	"fmt"
	"strconv"
	"strings"
)

// hplLineCut is the length from which HPL_pdinfo reads a line in two pieces:
// fgets into HPL_LINE_MAX − 2 = 254 bytes takes at most 253 characters, and a
// line of 253 or more leaves its rest (at least its newline) to the next read.
const hplLineCut = 253

// listLines are HPL.dat's lines of values (N, NB, P, Q, PFACT, NBMIN, NDIV,
// RFACT, BCAST, DEPTH), each with the line of its count and its name.
var listLines = []struct {
	line, count int
	what        string
}{{6, 5, "N"}, {8, 7, "NB"}, {linePs, 10, "P"}, {lineQs, 10, "Q"}, {15, 14, "PFACT"}, {17, 16, "NBMIN"},
	{19, 18, "NDIV"}, {21, 20, "RFACT"}, {23, 22, "BCAST"}, {25, 24, "DEPTH"}}

// CursorNotes names the list lines of a well-formed HPL.dat (one Parse
// accepted) that a real HPL 2.3 reads otherwise than Parse does, one note a
// line. Parse splits a line on white space; HPL moves its cursor by a value's
// length + 1 from where each scan began, so blanks before a line's first value
// or more than one between values leave it behind, and once two behind it
// re-reads a value's tail (shared/reference/hpl.md §1): "  10 20" is 10 and 0
// to HPL, "0   1   4" is 0, 1 and 1. A line of 253 characters or more HPL
// reads in two pieces, shifting the lines after it (hpcc's HPL then stops:
// "Value of NB less than 1"). emu keeps its reading and says so, since the
// same file gives other tests under xhpl.
//
// replaced names the lists whose values the caller replaces, by listLines'
// names ("N", "NB", "P", "Q", "PFACT", "NBMIN", "NDIV", "RFACT", "BCAST",
// "DEPTH"; emu run's --set hpl.n over an HPL.dat replaces "N"): what HPL reads
// there does not matter.
func CursorNotes(data []byte, file string, replaced map[string]bool) []string {
	raw := strings.Split(string(data), "\n")
	for n, line := range raw[:min(len(raw), significantLines)] {
		if len(line) >= hplLineCut {
			// The lines after it shift, so what HPL reads of the lists below
			// is not worth naming.
			return []string{fmt.Sprintf("%s:%d: %d characters: a real HPL 2.3 reads a line in pieces of at most %d, so it reads the rest of this one as line %d and every line after it one further down",
				file, n+1, len(line), hplLineCut, n+2)}
		}
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var notes []string
	if d, err := Parse(data, file, 0); err == nil && len(strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")) == significantLines-1 {
		notes = append(notes, fmt.Sprintf("%s:%d: the alignment line is missing; a real HPL 2.3 reads line 30 again in its place, so emu takes the alignment HPL does: %d",
			file, significantLines, d.Alignment))
	}
	for _, l := range listLines {
		if l.line > len(lines) {
			break
		}
		if replaced[l.what] {
			continue
		}
		count := strings.Fields(lines[l.count-1])
		if len(count) == 0 {
			continue
		}
		c, err := strconv.Atoi(count[0])
		if err != nil || c < 1 || c > maxHPLList {
			continue
		}
		ours := strings.Fields(lines[l.line-1])
		if len(ours) < c {
			continue
		}
		theirs := hplReads(lines[l.line-1], c)
		same := true
		for i := range c {
			v, _ := strconv.Atoi(ours[i])
			same = same && v == theirs[i]
		}
		if !same {
			notes = append(notes, fmt.Sprintf("%s:%d: a real HPL 2.3 reads %s here as %s (blanks before the first value or runs of them between values put its cursor behind, hpl.md §1); emu reads %s",
				file, l.line, l.what, joinInts(theirs), strings.Join(ours[:c], " ")))
		}
	}
	return notes
}

// hplReads is what HPL_pdinfo reads from a list line for c values: each scan
// skips white space and takes the token after it, as sscanf's %s, then the
// cursor moves the token's length + 1 from where the scan began; a value is
// the token's atoi.
func hplReads(line string, c int) []int {
	out := make([]int, 0, c)
	cursor, prev := 0, ""
	for range c {
		tok := prev // a scan that finds no token leaves HPL's buffer as it was
		if f := strings.Fields(line[min(cursor, len(line)):]); len(f) > 0 {
			tok = f[0]
		}
		out = append(out, atoi(tok))
		cursor += len(tok) + 1
		prev = tok
	}
	return out
}

// atoi is C's: an optional sign and the digits that follow, 0 without any.
func atoi(s string) int {
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	v := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9' && v < 1<<40; i++ {
		v = 10*v + int(s[i]-'0')
	}
	if neg {
		return -v
	}
	return v
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}
