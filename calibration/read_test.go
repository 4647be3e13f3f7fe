package calibration

import (
	"strings"
	"testing"
)

func TestReadSamplesAnyColumnOrder(t *testing.T) {
	// A file from another tool: columns shuffled, extra column, dimension
	// cells a kernel does not use left empty, a comment, no trailing newline.
	const file = "# measured with my own harness\n" +
		"seconds,n,extra,kernel,k,host,m\n" +
		"1.5e-3,64,x,dgemm,128,node1,1000\n" +
		"2e-7,100,y,daxpy,,node2,\n" +
		"4e-6,32,z,dtrsm,32,node1,32"
	got, err := ReadSamples([]byte(file), "other.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []Sample{
		{Index: -1, Core: -1, Host: "node1", Kernel: "dgemm", M: 1000, N: 64, K: 128, Seconds: 1.5e-3},
		{Index: -1, Core: -1, Host: "node2", Kernel: "daxpy", N: 100, Seconds: 2e-7},
		{Index: -1, Core: -1, Host: "node1", Kernel: "dtrsm", M: 32, N: 32, K: 32, Seconds: 4e-6},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d samples, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestReadSamplesErrors(t *testing.T) {
	cases := []struct {
		name, file, want string
	}{
		{"empty", "", "s.csv: empty file"},
		{"missing column", "kernel,host,m,n,seconds\ndgemm,h,1,2,3\n", `s.csv:1: missing column "k"`},
		// a spreadsheet's CSV of ';' or tabs said only: missing column "kernel"
		{"semicolons", "kernel;host;m;n;k;seconds\ndgemm;h;1;2;3;1e-6\n", `s.csv:1: the header is one column separated by ";", want commas`},
		{"tabs", "kernel\thost\tm\tn\tk\tseconds\n", `s.csv:1: the header is one column separated by "\t", want commas`},
		{"duplicate column", "kernel,host,m,n,k,seconds,m\n", `s.csv:1: column "m" appears twice`},
		{"non-numeric seconds", "kernel,host,m,n,k,seconds\ndgemm,h,1,2,3,4e-6\ndgemm,h,1,2,3,fast\n", `s.csv:3: column seconds: "fast" is not a number`},
		{"negative duration", "kernel,host,m,n,k,seconds\ndgemm,h,1,2,3,-1e-6\n", "s.csv:2: column seconds: negative duration"},
		{"infinite duration", "kernel,host,m,n,k,seconds\ndgemm,h,1,2,3,Inf\n", "s.csv:2: column seconds: \"Inf\" is not a finite duration"},
		{"unknown kernel", "kernel,host,m,n,k,seconds\nzgemm,h,1,2,3,1\n", `s.csv:2: unknown kernel "zgemm"`},
		{"negative dimension", "kernel,host,m,n,k,seconds\ndgemm,h,-1,2,3,1\n", "s.csv:2: column m: negative dimension -1"},
		{"fractional dimension", "kernel,host,m,n,k,seconds\ndgemm,h,1.5,2,3,1\n", `s.csv:2: column m: "1.5" is not a non-negative integer`},
		{"short row", "kernel,host,m,n,k,seconds\ndgemm,h,1\n", `s.csv:2: row has 3 fields, column "n" missing`},
		{"bad quote", "kernel,host,m,n,k,seconds\ndgemm,\"h,1,2,3,1\n", "s.csv:2:"},
		// a quote never closed ran to the end: the error named the file's last line (49 of 49)
		{"quote never closed", "kernel,host,m,n,k,seconds\ndgemm,\"h,1,2,3,1\ndgemm,h,1,2,3,1\ndgemm,h,1,2,3,1\n",
			"s.csv:2: extraneous or missing \" in quoted-field (a quoted field of the record that starts there is still open at line 4)"},
		{"implausible duration", "kernel,host,m,n,k,seconds\ndgemm,h,1,2,3,1e300\n", "s.csv:2: column seconds: 1e+300 s for one call, more than 1e+06 s"},
		{"extra field", "kernel,host,m,n,k,seconds\ndgemm,h,1,2,3,1\ndgemm,h,1,2,3,1,5\n", "s.csv:3: row has 7 fields, the header 6 columns"},
		{"unquoted comma", "kernel,host,m,n,k,seconds\ndgemm,node,1,1,2,3,1\n", "s.csv:2: row has 7 fields"},
		{"bad timestamp", "kernel,host,m,n,k,seconds,timestamp\ndgemm,h,1,2,3,1,yesterday\n", `s.csv:2: column timestamp`},
		// emu fit --per-host could not key such a host's model (HOST/cpuS is a CPU's);
		// before, fit measured every kernel and failed at the end, naming no line.
		{"host with a slash", "kernel,host,m,n,k,seconds\ndgemm,h,1,2,3,1\ndgemm,rack1/n1,1,2,3,1\n", `s.csv:3: column host: "rack1/n1": a host name holds no "/"`},
		{"host of an empty socket", "kernel,host,m,n,k,seconds\ndgemm,h/cpu,1,2,3,1\n", `s.csv:2: column host: "h/cpu"`},
	}
	for _, c := range cases {
		_, err := ReadSamples([]byte(c.file), "s.csv")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

// Trailing empty cells, as spreadsheets write them, are not extra fields.
func TestReadSamplesTrailingCommas(t *testing.T) {
	got, err := ReadSamples([]byte("kernel,host,m,n,k,seconds,\ndgemm,h,1,2,3,1e-6,,\n"), "s.csv")
	if err != nil || len(got) != 1 || got[0].Seconds != 1e-6 || got[0].K != 3 {
		t.Fatalf("got %+v, %v; want one dgemm row", got, err)
	}
}

// TestReadDropsTornRow: in a campaign file (index column) a last line
// without its newline was cut by an interrupted write and is ignored even if
// it parses ("0.00" may be the start of "0.0012").
func TestReadDropsTornRow(t *testing.T) {
	whole := twoRowCampaign(t)
	torn := whole[:strings.LastIndex(whole, "0.0012")+4]
	got, err := ReadSamples([]byte(torn), "c.csv")
	if err != nil || len(got) != 1 || got[0].Index != 0 {
		t.Fatalf("torn file: %+v, %v; want only row 0", got, err)
	}
	got, err = ReadSamples([]byte(whole), "c.csv")
	if err != nil || len(got) != 2 || got[1].Seconds != 0.0012 {
		t.Fatalf("whole file: %+v, %v", got, err)
	}
}

// twoRowCampaign is a campaign file (index column) of two dscal rows, the
// second's seconds 0.0012, whose first digits "0.00" a torn write may keep
// alone and still parse.
func twoRowCampaign(t *testing.T) string {
	t.Helper()
	rows := []Sample{
		{Index: 0, Plan: "p", Host: "h", Core: 0, Kernel: "dscal", N: 5, Seconds: 1e-7},
		{Index: 1, Plan: "p", Host: "h", Core: 0, Kernel: "dscal", N: 6, Seconds: 0.0012},
	}
	var b strings.Builder
	if err := WriteSamples(&b, rows); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestTornLine: TornLine names the line of the torn row ReadSamples drops
// (so that emu fit can say it left one out), and 0 where it drops none: a
// whole file, a file of no index column (a torn row there is read, and
// refused if it does not parse), a torn comment line, a header alone.
func TestTornLine(t *testing.T) {
	whole := twoRowCampaign(t) // header, row 0 (line 2), row 1 (line 3)
	for _, tc := range []struct {
		name string
		data string
		line int // the torn row's line, 0 for none
		rows int // rows ReadSamples returns
	}{
		{"whole", whole, 0, 2},
		{"torn last row", whole[:strings.LastIndex(whole, "0.0012")+4], 3, 1},
		{"torn after a comment", whole + "# probe {}\n2,p,h,0,dsc", 5, 2},
		{"torn comment", whole + "# probe {\"host\"", 0, 2},
		{"no index column", "kernel,host,m,n,k,seconds\ndscal,h,0,5,0,1e-7", 0, 1},
		{"header alone", strings.TrimSuffix(string(headerLine()), "\n"), 0, 0},
		{"comment before the header", "# mine\n" + whole[:len(whole)-3], 4, 1},
		{"byte-order mark", "\xef\xbb\xbf" + whole[:len(whole)-3], 3, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := TornLine([]byte(tc.data)); got != tc.line {
				t.Errorf("TornLine = %d, want %d", got, tc.line)
			}
			got, err := ReadSamples([]byte(tc.data), "c.csv")
			if err != nil || len(got) != tc.rows {
				t.Errorf("ReadSamples: %d rows, %v; want %d", len(got), err, tc.rows)
			}
		})
	}
}

func FuzzReadSamples(f *testing.F) {
	f.Add([]byte("kernel,host,m,n,k,seconds\ndgemm,h,1,2,3,4e-6\n"))
	f.Add([]byte("seconds,n,kernel,k,host,m\n1.5e-3,64,dgemm,128,node1,1000\n2e-7,100,daxpy,,node2,\n"))
	f.Add([]byte(string(headerLine()) + "0,p,h,0,dscal,0,5,0,1e-07,2026-01-02T03:04:05Z,gonum,wall\n1,p,h,0,dsc"))
	f.Add([]byte("kernel,host,m,n,k,seconds\ndgemm,\"h\"\"x\",1,2,3,-0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ReadSamples(data, "fuzz.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, s := range got {
			if s.Seconds < 0 || s.M < 0 || s.N < 0 || s.K < 0 {
				t.Fatalf("accepted a negative value: %+v", s)
			}
			if _, _, err := varsOf(s, nil); err != nil {
				t.Fatalf("accepted a sample it cannot model: %+v: %v", s, err)
			}
		}
	})
}
