package models

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectSmallest checks quickselect against a full sort, on random keys
// with ties and on sorted and reversed ones.
func TestSelectSmallest(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := range 300 {
		n := 1 + rng.IntN(200)
		key := make([]float64, n)
		for i := range key {
			switch trial % 3 {
			case 0:
				key[i] = float64(rng.IntN(10)) // many ties
			case 1:
				key[i] = float64(i)
			default:
				key[i] = float64(n - i)
			}
		}
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		orig := slices.Clone(key)
		k := 1 + rng.IntN(n)
		selectSmallest(key, idx, k)
		sorted := slices.Clone(orig)
		slices.Sort(sorted)
		got := slices.Clone(key[:k])
		slices.Sort(got)
		if !slices.Equal(got, sorted[:k]) {
			t.Fatalf("n %d k %d: %v, want %v", n, k, got, sorted[:k])
		}
		for j := range key {
			if orig[idx[j]] != key[j] {
				t.Fatalf("idx and key out of step at %d", j)
			}
		}
	}
}
