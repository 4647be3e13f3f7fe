package hpl

import (
	"math"
	"os"
	"strings"
	"testing"
)

func TestParseOutputReadsRowsAndPhases(t *testing.T) {
	// A real xhpl 2.3 run (built with -DHPL_DETAILED_TIMING and the phase
	// times printed with five decimals) of four tests.
	data, err := os.ReadFile("testdata/xhpl_detailed.txt")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ParseOutput(data, "xhpl.out")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	r := rows[0]
	if r.Variant != "WR11C2R4" || r.N != 4000 || r.NB != 64 || r.P != 1 || r.Q != 2 || r.Line != 47 {
		t.Errorf("first row %+v", r)
	}
	// Time from Gflops, HPL_pdtest's formula: within the printed Time's rounding.
	if math.Abs(r.Time-1.44019) > 1e-4*1.44019 {
		t.Errorf("time %.6f from %g Gflops, printed 1.44019", r.Time, r.Gflops)
	}
	want := Phases{RFact: 0.02724, PFact: 0.02001, MxSwp: 0.01154, Update: 1.39716, Laswp: 0.12518, UpTrsv: 0.00708}
	if r.Phases == nil || *r.Phases != want {
		t.Errorf("phases %+v, want %+v", r.Phases, want)
	}
	if rows[2].P != 2 || rows[2].Q != 1 || rows[2].Phases == nil || rows[2].Phases.RFact != 0.81193 {
		t.Errorf("third row %+v (phases %+v)", rows[2], rows[2].Phases)
	}

	// Without detailed timing the rows come alone.
	var plain []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.Contains(l, "aggregated") {
			plain = append(plain, l)
		}
	}
	rows, err = ParseOutput([]byte(strings.Join(plain, "\n")), "plain.out")
	if err != nil || len(rows) != 4 || rows[0].Phases != nil {
		t.Errorf("plain output: %d rows, %v, phases %v", len(rows), err, rows[0].Phases)
	}
}

func TestParseOutputErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "out: no HPL result row"},
		{"banner only", "HPLinpack 2.3\nN      :    4000\n", "out: no HPL result row"},
		{"bad N", "WR11C2R4  4x00  64  1  2  0.53  8.0e+01\n", `out:1: HPL result WR11C2R4: "4x00" is not a positive integer`},
		{"zero Q", "x\nWR11C2R4  4000  64  1  0  0.53  8.0e+01\n", `out:2: HPL result WR11C2R4: "0" is not a positive integer`},
		{"bad Gflops", "WR11C2R4  4000  64  1  2  0.53  -8\n", `out:1: HPL result WR11C2R4: Gflops "-8" is not a positive number`},
		{"bad phase", "WR11C2R4  4000  64  1  2  0.53  8.0e+01\nMax aggregated wall time rfact . . . : x\n", `out:2: detailed timing of "rfact": "x" is not a time`},
	} {
		_, err := ParseOutput([]byte(c.in), "out")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

func FuzzParseOutput(f *testing.F) {
	data, _ := os.ReadFile("testdata/xhpl_detailed.txt")
	f.Add(data)
	f.Add([]byte("WR11C2R4  4000  64  1  2  0.53  8.0e+01\nMax aggregated wall time laswp . . : 0.1\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		rows, err := ParseOutput(in, "f")
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "f") {
				t.Errorf("error over several lines, or without the file: %q", err)
			}
			return
		}
		for _, r := range rows {
			if r.N < 1 || r.NB < 1 || r.P < 1 || r.Q < 1 || !(r.Time > 0) || math.IsInf(r.Time, 0) {
				t.Errorf("row %+v accepted", r)
			}
		}
	})
}
