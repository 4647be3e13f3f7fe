package ranks

import (
	"reflect"
	"testing"
)

// TestScan: rank i holds [i+1]; Scan gives the prefix sums 1, 3, 6, 10 and
// Exscan 0 (nothing, on rank 0), 1, 3, 6.
func TestScan(t *testing.T) {
	cfg, _ := Preset("cm02")
	w, err := NewWorld(cfg, newCrossbar(4, 1e9, 1e-6), identity(4), 1)
	if err != nil {
		t.Fatal(err)
	}
	scan, exscan := make([][]float64, 4), make([][]float64, 4)
	err = w.Run(func(r *Rank) {
		c := r.World()
		m := Msg{Data: []float64{float64(r.ID() + 1)}}
		scan[r.ID()] = c.Scan(m, Sum).Data
		exscan[r.ID()] = c.Exscan(m, Sum).Data
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]float64{{1}, {3}, {6}, {10}}; !reflect.DeepEqual(scan, want) {
		t.Errorf("Scan %v, want %v", scan, want)
	}
	if want := [][]float64{nil, {1}, {3}, {6}}; !reflect.DeepEqual(exscan, want) {
		t.Errorf("Exscan %v, want %v", exscan, want)
	}
}
