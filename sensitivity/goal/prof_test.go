package goal

import "testing"

func BenchmarkProfStencil(b *testing.B) {
	s := parsePeer(b, "stencil2d_8x8_it50")
	p := Params{L: 3e-6, O: 5e-6, G: 0.018e-9, S: 65535}
	for i := 0; i < b.N; i++ {
		if _, err := Replay(s, p); err != nil {
			b.Fatal(err)
		}
	}
}
