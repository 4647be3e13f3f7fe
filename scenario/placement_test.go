package scenario

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestRandomPlacement: platform.placement = "random" shuffles the ranks over
// every core of every host with the scenario's seed — the same seed gives the
// same placement, another seed another one, no host gets more ranks than it
// has cores — and "block" (the default) keeps rank r on host r / cores.
func TestRandomPlacement(t *testing.T) {
	place := func(sets ...string) ([]int, error) {
		s := Default()
		for _, kv := range append([]string{"platform.hosts=8", "platform.cores_per_host=2", "hpl.grids=[[2,3]]"}, sets...) {
			if err := s.Set(kv); err != nil {
				return nil, err
			}
		}
		p, err := s.Validate()
		if err != nil {
			return nil, err
		}
		return p.Platform.Placement(p.Ranks), nil
	}
	block, err := place()
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 0, 1, 1, 2, 2}; !reflect.DeepEqual(block, want) {
		t.Errorf("block placement %v, want %v", block, want)
	}
	seen := map[string]bool{}
	for _, seed := range []int{1, 1, 2, 3} {
		got, err := place("platform.placement=random", fmt.Sprintf("seed=%d", seed))
		if err != nil {
			t.Fatal(err)
		}
		perHost := map[int]int{}
		for _, h := range got {
			if perHost[h]++; h < 0 || h >= 8 || perHost[h] > 2 {
				t.Fatalf("seed %d: placement %v puts rank(s) on host %d beyond its 2 cores", seed, got, h)
			}
		}
		seen[fmt.Sprint(got)] = true
	}
	if len(seen) != 3 {
		t.Errorf("seeds 1, 1, 2, 3 gave %d distinct placements, want 3: %v", len(seen), seen)
	}
	if _, err := place("platform.placement=scatter"); err == nil || !strings.Contains(err.Error(), "platform.placement: unknown placement \"scatter\" (block or random)") {
		t.Errorf("bad placement: err = %v", err)
	}
}
