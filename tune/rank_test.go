package tune

import (
	"bytes"
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
