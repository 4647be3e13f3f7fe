package observe

import "github.com/emu-hpc/emu/ranks"

// Deliveries tallies the messages a run delivers and their delivery times
// (the RecvDone events' Transfer: first byte sent → last byte in, injected
// delay included): Netscope's message delivery time M. Its Hook listens to
// RecvDone only.
type Deliveries struct {
	N   int     // messages delivered
	Sum float64 // their delivery times, s
}

// Hook counts a RecvDone event.
func (d *Deliveries) Hook(ev *ranks.Event) {
	if ev.Kind == ranks.RecvDone {
		d.N++
		d.Sum += ev.Transfer
	}
}
