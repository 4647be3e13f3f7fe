package calibration

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzMerge merges two sample files as `emu calibrate merge a b a` does: a
// refusal is one line naming one of the files; a merge that passes writes a
// file that reads back to the same rows and probes, and giving a file twice
// only adds duplicates (its every row, those without an index too).
func FuzzMerge(f *testing.F) {
	row := string(headerLine()) + "0,p,h,0,dscal,0,5,0,1e-07,2026-01-02T03:04:05Z,gonum,wall\n"
	f.Add([]byte(row), []byte(strings.Replace(row, ",h,", ",h2,", 1)))
	f.Add([]byte(row), []byte(strings.Replace(row, "1e-07", "2e-07", 1))) // one campaign measured twice
	f.Add([]byte("kernel,host,m,n,k,seconds\ndgemm,h,1,2,3,4e-6\n"), []byte("seconds,n,kernel,k,host,m\n1.5e-3,64,dgemm,128,node1,1000\n"))
	var probe bytes.Buffer
	WriteSampleFile(&probe, nil, nil)
	f.Add(probe.Bytes(), []byte("kernel,host,m,n,k,seconds\ndgemm,\"h\"\"x\",1,2,3,1\n"))
	f.Add([]byte("kernel,host,m,n,k,seconds\nsweep,n1,100,200,,2e-5\n"), []byte("kernel,host,m,n,k,seconds\nsweep,n2,100,200,,2.1e-5\ndgemm,n2,1,2,3,1e-6\n")) // one's own kernel
	f.Fuzz(func(t *testing.T, a, b []byte) {
		dir := t.TempDir()
		pa, pb := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
		for p, data := range map[string][]byte{pa: a, pb: b} {
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		merged, probes, dups, err := Merge([]string{pa, pb})
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, pa) && !strings.HasPrefix(msg, pb) {
				t.Fatalf("error %q: want one line naming a file", msg)
			}
			return
		}
		// a again adds nothing: its every row is a duplicate, those
		// without an index (other tools' rows) too.
		rowsA, _ := readAnyKernel(pa) // Merge's reading: kernels of one's own too
		again, probes2, dups2, err := Merge([]string{pa, pb, pa})
		if err != nil || !reflect.DeepEqual(again, merged) || !reflect.DeepEqual(probes2, probes) || dups2 != dups+len(rowsA) {
			t.Fatalf("a b a: %d rows, %d duplicates (%v); a b: %d rows, %d duplicates", len(again), dups2, err, len(merged), dups)
		}
		var out bytes.Buffer
		if err := WriteSampleFile(&out, merged, probes); err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return // a name that needs CSV quoting, refused with its name
		}
		own := map[string]string{} // the merged kernels, one's own among them
		for _, s := range merged {
			own[s.Kernel] = ""
		}
		back, err := ReadSamplesOf(out.Bytes(), "out.csv", own)
		if err != nil || len(back) != len(merged) {
			t.Fatalf("merged file reads back %d rows (%v), want %d:\n%s", len(back), err, len(merged), out.Bytes())
		}
		backProbes, err := ReadProbes(out.Bytes(), "out.csv")
		if err != nil || len(backProbes) != len(probes) {
			t.Fatalf("merged file reads back %d probes (%v), want %d", len(backProbes), err, len(probes))
		}
	})
}
