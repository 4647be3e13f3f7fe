package validation

import (
	"fmt"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/runner"
)

const csvHeader = "scenario,P,Q,N,NB,BCAST,DEPTH,topology,hpl_time_s,hpl_gflops,wall_s,peak_rss_mb,notes\n"

func TestReadPeerRowsNotes(t *testing.T) {
	data := csvHeader +
		"a,4,4,20000,128,1,1,flat,2.062403,2586.3,2.53,3406,variant=MR; net=cm02; shm_block=16MiB; smpi/iprobe:1e-6; sim_time_s=2.0625; peak_pss_mb=54\n" +
		"b,2,2,5000,128,0,0,fattree,0.15,1,0.3,266,variant=M; net=smpi-default; smpi/grow-injected-times:no\n"
	rows, err := ReadPeerRows(strings.NewReader(data), "r.csv")
	if err != nil {
		t.Fatal(err)
	}
	a, b := rows[0], rows[1]
	if a.Line != 2 || a.Variant != "MR" || a.Net != "cm02" || a.IprobeCost != 1e-6 || !a.IprobeGrowth || a.PeakPSSMB != 54 || a.Cells() != 16*157 {
		t.Errorf("row a: %+v", a)
	}
	if b.Line != 3 || b.IprobeCost != smpiDefaultIprobe || b.IprobeGrowth || b.PeakPSSMB != 0 || b.Unreproducible() == "" {
		t.Errorf("row b: %+v", b)
	}
	if got, want := a.HPLDat(), "HPL_4x4_N20000_bcast1_depth1.dat"; got != want {
		t.Errorf("HPL.dat %s, want %s", got, want)
	}
}

// TestReadPeerRowsErrors: bad data names the file, the line and the column.
func TestReadPeerRowsErrors(t *testing.T) {
	good := "a,4,4,20000,128,1,1,flat,2.06,2586.3,2.53,3406,variant=MR; net=cm02"
	cases := []struct{ line, want string }{
		{strings.Replace(good, ",4,4,", ",0,4,", 1), "r.csv:3: a: column P"},
		{strings.Replace(good, ",1,1,flat", ",6,1,flat", 1), "column BCAST"},
		{strings.Replace(good, "flat", "torus", 1), "column topology"},
		{strings.Replace(good, "2.06,", "-1,", 1), "column hpl_time_s"},
		{strings.Replace(good, "variant=MR", "variant=X", 1), "notes: variant"},
		{strings.Replace(good, "net=cm02", "net=ib", 1), "notes: net"},
		{strings.Replace(good, "; net=cm02", "", 1), "lack variant= or net="},
		{good + "; smpi/iprobe:abc", "notes: smpi/iprobe"},
		{good + "; junk", "not key=value"},
		{"a,4", "wrong number of fields"},
	}
	for _, c := range cases {
		_, err := ReadPeerRows(strings.NewReader(csvHeader+good+"\n"+c.line+"\n"), "r.csv")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "r.csv:") {
			t.Errorf("%q: error %v, want one naming %q", c.line, err, c.want)
		}
	}
	if _, err := ReadPeerRows(strings.NewReader("scenario,P\n"), "r.csv"); err == nil || !strings.HasPrefix(err.Error(), "r.csv:1:") {
		t.Errorf("bad header: %v", err)
	}
}

// TestScenarioRefusesUnreproducible: rows of rules M, MO and REAL get no scenario.
func TestScenarioRefusesUnreproducible(t *testing.T) {
	for _, v := range []string{"M", "MO", "REAL"} {
		row := PeerRow{Name: "x", Variant: v, Net: "cm02", Topology: "flat", P: 2, Q: 2, N: 5000, NB: 128, BCast: 1, Depth: 1}
		if _, err := row.Scenario("testdata"); err == nil || !strings.Contains(err.Error(), "not reproducible") {
			t.Errorf("variant %s: %v", v, err)
		}
	}
}

func FuzzReadPeerRows(f *testing.F) {
	f.Add(csvHeader + "a,4,4,20000,128,1,1,flat,2.06,2586.3,2.53,3406,variant=MR; net=cm02; smpi/iprobe:1e-6\n")
	f.Add(csvHeader + "b,2,2,5000,128,0,0,fattree,0.15,1,0.3,266,variant=MD; net=smpi-default; smpi/grow-injected-times:no; peak_pss_mb=1\n")
	f.Add(csvHeader + "\"q,\"\"\",1\n")
	f.Fuzz(func(t *testing.T, data string) {
		rows, err := ReadPeerRows(strings.NewReader(data), "f.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.csv") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error without the file name, or on several lines: %q", err)
			}
			return
		}
		for _, r := range rows {
			if r.P < 1 || r.Q < 1 || r.N < 1 || r.NB < 1 || r.BCast > 5 || !(r.HPLTime > 0) || r.Variant == "" {
				t.Errorf("accepted %+v", r)
			}
		}
	})
}

func ExamplePeerRow_Scenario() {
	rows, err := ReadPeerRows(strings.NewReader(csvHeader+
		"mr_ip6_flat_2x2_5000,2,2,5000,128,1,1,flat,0.136811,609.4,0.32,266,variant=MR; net=cm02; smpi/iprobe:1e-6\n"), "results.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := rows[0].Scenario("testdata")
	if err != nil {
		fmt.Println(err)
		return
	}
	plan, err := s.Validate()
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := runner.Run(plan, runOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("emu %.6f s, SMPI %.6f s\n", res.HPL[0].Time, rows[0].HPLTime)
	// Output: emu 0.136811 s, SMPI 0.136811 s
}
