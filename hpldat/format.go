package hpldat

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/apps/hpl"
)

// Format writes d as an HPL.dat file (shared/reference/hpl.md §1) that
// Parse reads back to d: the 31 lines in HPL's order, each value followed
// by HPL's own comment. The threshold is written with as many digits as it needs,
// so nothing is rounded. `emu tune --write-hpl-dat` writes the best point with it.
func Format(d hpl.Dat) []byte {
	var b bytes.Buffer
	line := func(value, comment string) { fmt.Fprintf(&b, "%-12s %s\n", value, comment) }
	ints := func(xs []int) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = strconv.Itoa(x)
		}
		return strings.Join(s, " ")
	}
	codes := func(n int, code func(int) int) string {
		s := make([]string, n)
		for i := range s {
			s[i] = strconv.Itoa(code(i))
		}
		return strings.Join(s, " ")
	}
	flag := func(ok bool) string { // HPL's 0 = transposed / no, 1 = the other
		if ok {
			return "1"
		}
		return "0"
	}
	b.WriteString("HPLinpack benchmark input file\n")
	b.WriteString("written by emu\n")
	if d.OutFile == "" { // a comment here would read as the name
		b.WriteString("\n")
	} else {
		line(d.OutFile, "output file name (if any)")
	}
	line(strconv.Itoa(d.Device), "device out (6=stdout,7=stderr,file)")
	line(strconv.Itoa(len(d.Ns)), "# of problems sizes (N)")
	line(ints(d.Ns), "Ns")
	line(strconv.Itoa(len(d.NBs)), "# of NBs")
	line(ints(d.NBs), "NBs")
	line(strconv.Itoa(int(d.PMap)), "PMAP process mapping (0=Row-,1=Column-major)")
	line(strconv.Itoa(len(d.Grids)), "# of process grids (P x Q)")
	line(codes(len(d.Grids), func(i int) int { return d.Grids[i].P }), "Ps")
	line(codes(len(d.Grids), func(i int) int { return d.Grids[i].Q }), "Qs")
	line(strconv.FormatFloat(d.Threshold, 'g', -1, 64), "threshold")
	line(strconv.Itoa(len(d.PFacts)), "# of panel fact")
	line(codes(len(d.PFacts), func(i int) int { return int(d.PFacts[i]) }), "PFACTs (0=left, 1=Crout, 2=Right)")
	line(strconv.Itoa(len(d.NBMins)), "# of recursive stopping criterium")
	line(ints(d.NBMins), "NBMINs (>= 1)")
	line(strconv.Itoa(len(d.NDivs)), "# of panels in recursion")
	line(ints(d.NDivs), "NDIVs")
	line(strconv.Itoa(len(d.RFacts)), "# of recursive panel fact.")
	line(codes(len(d.RFacts), func(i int) int { return int(d.RFacts[i]) }), "RFACTs (0=left, 1=Crout, 2=Right)")
	line(strconv.Itoa(len(d.BCasts)), "# of broadcast")
	line(codes(len(d.BCasts), func(i int) int { return int(d.BCasts[i]) }), "BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)")
	line(strconv.Itoa(len(d.Depths)), "# of lookahead depth")
	line(ints(d.Depths), "DEPTHs (>=0)")
	line(strconv.Itoa(int(d.Swap)), "SWAP (0=bin-exch,1=long,2=mix)")
	line(strconv.Itoa(d.SwapThreshold), "swapping threshold")
	line(flag(!d.L1Transposed), "L1 in (0=transposed,1=no-transposed) form")
	line(flag(!d.UTransposed), "U  in (0=transposed,1=no-transposed) form")
	line(flag(d.Equilibration), "Equilibration (0=no,1=yes)")
	line(strconv.Itoa(d.Alignment), "memory alignment in double (> 0)")
	return b.Bytes()
}
