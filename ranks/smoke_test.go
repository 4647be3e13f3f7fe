package ranks

import "testing"

func TestSmokePingPong(t *testing.T) {
	cfg, _ := Preset("cm02")
	w, err := NewWorld(cfg, newCrossbar(2, 1e10, 1e-6), identity(2), 1)
	if err != nil {
		t.Fatal(err)
	}
	var got float64
	err = w.Run(func(r *Rank) {
		c := r.World()
		if r.ID() == 0 {
			c.Send(1, 0, Msg{Bytes: 1000})
			c.Recv(1, 0)
			got = r.Now()
		} else {
			c.Recv(0, 0)
			c.Send(0, 0, Msg{Bytes: 1000})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("round trip %g", got)
}
