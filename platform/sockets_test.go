package platform

import (
	"slices"
	"testing"
)

// TestSockets checks which socket each rank of a placement is on, by hand.
func TestSockets(t *testing.T) {
	for _, c := range []struct {
		name      string
		p         Platform
		placement []int
		want      []int
	}{
		{"one socket", Platform{CoresPerHost: 4, SocketsPerHost: 1}, []int{0, 0, 0, 0}, []int{0, 0, 0, 0}},
		// Dahu: ranks alternate sockets, cpu = rank parity.
		{"cyclic", Platform{CoresPerHost: 4, SocketsPerHost: 2, SocketOrder: SocketsCyclic}, []int{0, 0, 0, 0, 1, 1, 1, 1}, []int{0, 1, 0, 1, 0, 1, 0, 1}},
		{"block", Platform{CoresPerHost: 4, SocketsPerHost: 2, SocketOrder: SocketsBlock}, []int{0, 0, 0, 0, 1, 1, 1, 1}, []int{0, 0, 1, 1, 0, 0, 1, 1}},
		// 6 cores on 4 sockets: 2 a socket, the last one short.
		{"block, uneven", Platform{CoresPerHost: 6, SocketsPerHost: 4, SocketOrder: SocketsBlock}, []int{0, 0, 0, 0, 0, 0}, []int{0, 0, 1, 1, 2, 2}},
		// A hostfile's round robin: the slot counts ranks on the same host.
		{"interleaved hosts", Platform{CoresPerHost: 2, SocketsPerHost: 2, SocketOrder: SocketsCyclic}, []int{0, 1, 0, 1}, []int{0, 0, 1, 1}},
	} {
		if got := c.p.Sockets(c.placement); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
