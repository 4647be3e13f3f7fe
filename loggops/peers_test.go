package loggops

import (
	"github.com/emu-hpc/emu/internal/loggopspeers"
)

// peerDir holds LogGOPSim's results on the sample schedules
// (shared/reference/goal-and-llamp.md §8, §9), beside the checkout.
const peerDir = "testdata/loggopsim" // vendored from shared/peers/loggopsim

// peerRow is one LogGOPSim run of results.csv (ns, as LogGOPSim writes them).
type peerRow = loggopspeers.Row
