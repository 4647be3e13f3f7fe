package tune

import (
	"bytes"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/stats"
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
	// Envelopes: one per swept key in the order the keys first appear; a key
	// whose points all failed has none.
	rs = append(rs, Result{Overrides: []Override{{"hpl.bcast", `"1ring"`}}, Error: "y"})
	envs := Envelopes(rs)
	if len(envs) != 2 || envs[0].Key != "hpl.nb" || envs[1].Key != "hpl.depth" {
		t.Fatalf("envelopes %+v, want hpl.nb then hpl.depth", envs)
	}
	if d := envs[1]; strings.Join(d.Values, ",") != "0,1" || d.Best[0] != 5 || d.Best[1] != 4 {
		t.Errorf("hpl.depth's envelope = %v %v, want [0 1] [5 4]", d.Values, d.Best)
	}
}

// TestRankOnEnsembleMeansAndOverlaps: three points run several times each are
// ranked on their mean Gflops; the first two's bands (9–12 and 8–10.5) overlap,
// so the table marks the first with ≈ and says ranks 1 and 2 are undecided; the
// third's (5–6) lies apart.
func TestRankOnEnsembleMeansAndOverlaps(t *testing.T) {
	ens := func(p05, p95 float64) *Ensemble {
		return &Ensemble{Runs: 5, Gflops: stats.Summary{P05: p05, P95: p95, Mean: (p05 + p95) / 2}}
	}
	rs := Rank([]Result{
		{ID: "c", Label: "nb=64", Overrides: []Override{{"hpl.nb", "64"}}, Gflops: 5.5, Ensemble: ens(5, 6)},
		{ID: "a", Label: "nb=128", Overrides: []Override{{"hpl.nb", "128"}}, Gflops: 10.5, Ensemble: ens(9, 12)},
		{ID: "b", Label: "nb=256", Overrides: []Override{{"hpl.nb", "256"}}, Gflops: 9.25, Ensemble: ens(8, 10.5)},
	})
	if rs[0].ID != "a" || rs[1].ID != "b" || rs[2].ID != "c" {
		t.Fatalf("order %s %s %s, want a b c (by mean)", rs[0].ID, rs[1].ID, rs[2].ID)
	}
	if u := Undecided(rs); len(u) != 1 || u[0] != 0 {
		t.Errorf("undecided %v, want [0]", u)
	}
	var b bytes.Buffer
	if err := WriteTable(&b, rs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"band (p05–p95)", "9–12 ≈", "8–10.5  ", "5–6  ", "≈ ranks 1 and 2: their bands overlap"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "ranks 2 and 3") {
		t.Errorf("ranks 2 and 3 called undecided:\n%s", out)
	}
	b.Reset()
	if err := WriteCSV(&b, rs); err != nil {
		t.Fatal(err)
	}
	want := "rank,hpl.nb,gflops,time_s,simulated_time_s,wall_time_s,error,runs,band_p05,band_p95,undecided_with_next\n" +
		"1,128,10.5,0,0,0,,5,9,12,true\n" +
		"2,256,9.25,0,0,0,,5,8,10.5,false\n" +
		"3,64,5.5,0,0,0,,5,5,6,false\n"
	if b.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestWriteCSVStringValues: a swept string (bcast "long", a TOML literal in
// the journal) is its bare word in the CSV, where the quotes came out as
// """long"""; numbers and grids are as written, and a comma still quotes.
func TestWriteCSVStringValues(t *testing.T) {
	for _, c := range []struct{ value, cell string }{
		{`"long"`, "long"},
		{`"1ringM"`, "1ringM"},
		{"128", "128"},
		{"[[2, 16]]", `"[[2, 16]]"`},
		{`"a,b"`, `"a,b"`},
		{`"unterminated`, `"""unterminated"`},
	} {
		var b bytes.Buffer
		if err := WriteCSV(&b, Rank([]Result{{ID: "x", Overrides: []Override{{"k", c.value}}, Gflops: 1}})); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(b.String(), "\n")
		if want := "1," + c.cell + ",1,0,0,0,"; lines[1] != want {
			t.Errorf("%s: row %q, want %q", c.value, lines[1], want)
		}
	}
}
