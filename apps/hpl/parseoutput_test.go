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
		{"N = 0 with a rate", "WR11C2R4  0  64  1  2  0.00  8.0e+01\n", `out:1: HPL result WR11C2R4 of N = 0: want Time ≥ 0 and Gflops 0, have "0.00" and "8.0e+01"`},
		{"N = 0, bad time", "WR11C2R4  0  64  1  2  -1  0.0000e+00\n", `out:1: HPL result WR11C2R4 of N = 0: want Time ≥ 0`},
		{"negative N", "WR11C2R4  -1  64  1  2  0.53  8.0e+01\n", `out:1: HPL result WR11C2R4: "-1" is not a positive integer`},
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
			if r.N < 0 || r.NB < 1 || r.P < 1 || r.Q < 1 || !(r.Time > 0 || r.N == 0 && r.Time == 0) || math.IsInf(r.Time, 0) {
				t.Errorf("row %+v accepted", r)
			}
		}
	})
}

// TestParseOutputNZero: xhpl prints the row of a test of N = 0 when its
// clock moved (Time 0.00, Gflops 0: HPL_pdtest's rate is 0 for N = 0), as a
// site's HPL.dat of Ns "0 4000" gives. Such a file was refused whole, row 1
// "not a positive integer", so emu explain --real could not read the 4000.
func TestParseOutputNZero(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		rows int
		time []float64
	}{
		{"N = 0 first", "WR11C2R4           0    64     1     2               0.00             0.0000e+00\n" +
			"WR11C2R4        4000    64     1     2               1.44             2.9648e+01\n", 2, []float64{0, 1.4400}},
		{"N = 0 alone, hpcc's %18.3e", "WR00L2L2           0     1     2     2               0.01          0.000e+00\n", 1, []float64{0.01}},
	} {
		rows, err := ParseOutput([]byte(c.in), "xhpl.out")
		if err != nil || len(rows) != c.rows {
			t.Errorf("%s: %d rows, %v; want %d", c.name, len(rows), err, c.rows)
			continue
		}
		for i, r := range rows {
			if math.Abs(r.Time-c.time[i]) > 1e-3 {
				t.Errorf("%s: row %d time %g, want %g", c.name, i, r.Time, c.time[i])
			}
		}
		if rows[0].N != 0 || rows[0].Gflops != 0 {
			t.Errorf("%s: first row %+v", c.name, rows[0])
		}
	}
}
