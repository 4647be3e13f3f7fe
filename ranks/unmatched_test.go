package ranks

import (
	"reflect"
	"testing"
)

func TestUnmatched(t *testing.T) {
	cfg, _ := Preset("cm02")
	for _, tc := range []struct {
		name string
		main func(r *Rank)
		want []Unmatched
	}{
		{"all matched", func(r *Rank) {
			if r.ID() == 0 {
				r.World().Send(1, 3, Msg{Bytes: 8})
			} else {
				r.World().Recv(0, 3)
			}
		}, nil},
		{"detached send never received", func(r *Rank) {
			if r.ID() == 0 {
				r.World().Send(1, 3, Msg{Bytes: 8})
			}
		}, []Unmatched{{Send: true, Rank: 0, Peer: 1, Tag: 3, Bytes: 8}}},
		{"irecv never matched", func(r *Rank) {
			if r.ID() == 1 {
				r.World().Irecv(AnySource, 5)
			}
		}, []Unmatched{{Rank: 1, Peer: AnySource, Tag: 5}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := NewWorld(cfg, newCrossbar(2, 1e9, 1e-6), identity(2), 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Run(tc.main); err != nil {
				t.Fatal(err)
			}
			if got := w.Unmatched(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Unmatched() = %+v, want %+v", got, tc.want)
			}
		})
	}
}
