package tune

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteCSVColumnsPerSweptKey(t *testing.T) {
	rs := Rank([]Result{
		{ID: "hpl.nb=64", Overrides: []Override{{"hpl.nb", "64"}}, Gflops: 10, TimeS: 2},
		{ID: "hpl.nb=128", Overrides: []Override{{"hpl.nb", "128"}}, Gflops: 20, TimeS: 1},
		{ID: "hpl.nb=256", Overrides: []Override{{"hpl.nb", "256"}}, Error: "boom"},
	})
	var b bytes.Buffer
	if err := WriteCSV(&b, rs); err != nil {
		t.Fatal(err)
	}
	want := "rank,hpl.nb,gflops,time_s,simulated_time_s,wall_time_s,error\n" +
		"1,128,20,1,0,0,\n" +
		"2,64,10,2,0,0,\n" +
		"3,256,0,0,0,0,boom\n"
	if b.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestEnvelopeTakesBestPerValueInNumericOrder(t *testing.T) {
	rs := []Result{
		{Overrides: []Override{{"hpl.nb", "256"}, {"hpl.depth", "0"}}, Gflops: 5},
		{Overrides: []Override{{"hpl.nb", "64"}, {"hpl.depth", "0"}}, Gflops: 3},
		{Overrides: []Override{{"hpl.nb", "64"}, {"hpl.depth", "1"}}, Gflops: 4},
		{Overrides: []Override{{"hpl.nb", "128"}, {"hpl.depth", "1"}}, Error: "x", Gflops: 99},
	}
	vals, best := envelope(rs, "hpl.nb")
	if strings.Join(vals, ",") != "64,256" || best[0] != 4 || best[1] != 5 {
		t.Errorf("envelope = %v %v, want [64 256] [4 5] (failed point left out)", vals, best)
	}
	dir := t.TempDir()
	if err := WritePlots(dir, rs); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gflops_vs_hpl_nb.svg", "gflops_vs_hpl_depth.svg"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Contains(b, []byte("<svg")) {
			t.Errorf("%s: not an SVG (%v)", name, err)
		}
	}
}
