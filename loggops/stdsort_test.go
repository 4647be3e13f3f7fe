package loggops

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/traceformat"
)

// TestStdSortMatchesLibstdcxx replays the inputs of testdata/stdsort.txt,
// whose "out" lines are the permutations g++ 12's std::sort produced with
// the comparator type(a) < type(b) (the generator is in the file's
// history: a 30-line C++ program sorting {type, id} records). Equal types
// come out scrambled past 16 elements, which is the point.
func TestStdSortMatchesLibstdcxx(t *testing.T) {
	f, err := os.Open("testdata/stdsort.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var kinds []traceformat.OpRec
	cases, scrambled := 0, 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch fields[0] {
		case "in":
			kinds = kinds[:0]
			for _, s := range fields[1:] {
				v, _ := strconv.Atoi(s)
				kinds = append(kinds, traceformat.OpRec{Kind: traceformat.OpKind(v)})
			}
		case "out":
			ops := make([]int32, len(kinds))
			for i := range ops {
				ops[i] = int32(i)
			}
			stdSortByKind(ops, kinds)
			stable := true
			for i, s := range fields[1:] {
				want, _ := strconv.Atoi(s)
				if int(ops[i]) != want {
					t.Fatalf("case %d (n=%d): position %d has id %d, g++ has %d", cases, len(kinds), i, ops[i], want)
				}
				if i > 0 && kinds[ops[i]].Kind == kinds[ops[i-1]].Kind && ops[i] < ops[i-1] {
					stable = false
				}
			}
			if !stable {
				scrambled++
			}
			cases++
		}
	}
	if cases < 50 || scrambled == 0 {
		t.Fatalf("%d cases, %d of them unstable: the golden file does not exercise the unstable paths", cases, scrambled)
	}
}
