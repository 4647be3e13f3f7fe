package sensitivity

import (
	"math"
	"strings"
	"testing"
)

// TestFitDelay checks the least-squares fit on hand-solved points.
func TestFitDelay(t *testing.T) {
	const eps = 1e-12 // relative, rounding only
	close := func(a, b float64) bool { return math.Abs(a-b) <= eps*math.Max(1, math.Abs(b)) }
	// On a line T = 2M + 3: slope 2, K 3, R² 1; 4 messages over 2 ranks:
	// m̄ = 2·4/2 = 4, c_a = 2/4. The smallest delay's run (listed last) gives m̄.
	d, err := FitDelay("line", 2, []DelayPoint{{Delay: 2, M: 2, T: 7, Messages: 9}, {Delay: 3, M: 3, T: 9, Messages: 9}, {Delay: 1, M: 1, T: 5, Messages: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if !close(d.Slope, 2) || !close(d.K, 3) || !close(d.R2, 1) || d.MessagesPerRank != 4 || !close(d.CA, 0.5) {
		t.Errorf("line: %+v", d)
	}
	// (0,0), (1,1), (2,1): mean M 1, mean T 2/3, Σ(ΔM)² = 2, ΣΔMΔT = 1 → slope
	// 1/2, K = 2/3 − 1/2 = 1/6; residuals −1/6, 1/3, −1/6 → SS_res = 1/6;
	// SS_tot = 4/9 + 1/9 + 1/9 = 2/3 → R² = 1 − (1/6)/(2/3) = 3/4.
	d, err = FitDelay("noisy", 1, []DelayPoint{{M: 0, T: 0, Messages: 1}, {Delay: 1, M: 1, T: 1, Messages: 1}, {Delay: 2, M: 2, T: 1, Messages: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if !close(d.Slope, 0.5) || !close(d.K, 1.0/6) || !close(d.R2, 0.75) || !close(d.CA, 0.25) {
		t.Errorf("noisy: %+v", d)
	}
	for _, bad := range [][]DelayPoint{
		{{M: 1, T: 1, Messages: 1}},
		{{M: 1, T: 1, Messages: 1}, {Delay: 1, M: 1, T: 2, Messages: 1}},
		{{M: 1, T: 1}, {Delay: 1, M: 2, T: 2}},
	} {
		if _, err := FitDelay("bad", 2, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	// A run without messages says so, not that the delays are all alike.
	if _, err := FitDelay("silent", 1, []DelayPoint{{T: 1}, {Delay: 1, T: 1}}); err == nil || !strings.Contains(err.Error(), "sends no message") {
		t.Errorf("no messages: %v", err)
	}
}

func TestRankByDelay(t *testing.T) {
	ds := []DelaySensitivity{{Name: "b", CA: 1}, {Name: "c", CA: 2}, {Name: "a", CA: 1}}
	RankByDelay(ds)
	if ds[0].Name != "c" || ds[1].Name != "a" || ds[2].Name != "b" {
		t.Errorf("order %s %s %s, want c a b", ds[0].Name, ds[1].Name, ds[2].Name)
	}
}

// TestDelayFall: a T that falls as the delay grows (a run whose order of
// events flips, as examples/dragonfly.toml's 16×16 HPL: 2.481 s at 5 µs,
// 1.243 s at 10 µs) is reported, the largest drop in delay order whatever
// the order the delays were given in; a T that only grows or stays has none.
func TestDelayFall(t *testing.T) {
	for _, tc := range []struct {
		name string
		pts  []DelayPoint
		want *DelayFall
	}{
		{"grows", []DelayPoint{{Delay: 0, M: 1, T: 1}, {Delay: 1, M: 2, T: 2}, {Delay: 2, M: 3, T: 3}}, nil},
		{"flat", []DelayPoint{{Delay: 0, M: 1, T: 1}, {Delay: 1, M: 2, T: 1}}, nil},
		{"dragonfly", []DelayPoint{{Delay: 0, M: 14.8e-6, T: 0.866}, {Delay: 2e-6, M: 16.6e-6, T: 1.008}, {Delay: 5e-6, M: 19.6e-6, T: 2.481}, {Delay: 10e-6, M: 24.4e-6, T: 1.243}},
			&DelayFall{FromDelay: 5e-6, ToDelay: 10e-6, FromT: 2.481, ToT: 1.243}},
		// given out of order: 3 → 1 is a fall between delays 1 and 2 once sorted
		{"unsorted", []DelayPoint{{Delay: 2, M: 3, T: 1}, {Delay: 0, M: 1, T: 2}, {Delay: 1, M: 2, T: 3}},
			&DelayFall{FromDelay: 1, ToDelay: 2, FromT: 3, ToT: 1}},
		// two falls: the larger (5 → 2) is the one reported
		{"largest", []DelayPoint{{Delay: 0, M: 1, T: 4}, {Delay: 1, M: 2, T: 3}, {Delay: 2, M: 3, T: 5}, {Delay: 3, M: 4, T: 2}},
			&DelayFall{FromDelay: 2, ToDelay: 3, FromT: 5, ToT: 2}},
	} {
		for i := range tc.pts {
			tc.pts[i].Messages = 1
		}
		d, err := FitDelay(tc.name, 1, tc.pts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		switch {
		case tc.want == nil && d.Fall != nil:
			t.Errorf("%s: fall %+v, want none", tc.name, *d.Fall)
		case tc.want != nil && (d.Fall == nil || *d.Fall != *tc.want):
			t.Errorf("%s: fall %+v, want %+v", tc.name, d.Fall, *tc.want)
		}
	}
}
