package goal

import (
	"github.com/emu-hpc/emu/internal/loggopspeers"
	"github.com/emu-hpc/emu/loggops"
)

// peerDir holds LogGOPSim's results on the sample schedules
// (shared/reference/goal-and-llamp.md §8, §9), beside the checkout.
const peerDir = "../../loggops/testdata/loggopsim" // vendored from shared/peers/loggopsim, beside the engine

// peerTolerance is the relative agreement required with LogGOPSim's
// predicted runtimes (the 0.1 %).
const peerTolerance = 1e-3

// peerParams converts a results.csv row (ns) to loggops.Params (s).
func peerParams(row peerRow) loggops.Params {
	return loggops.Params{L: row.L * 1e-9, O: row.O * 1e-9, Gap: row.Gap * 1e-9, G: row.G * 1e-9, S: row.S}
}

// peerRow is one LogGOPSim run of results.csv (ns, as LogGOPSim writes them).
type peerRow = loggopspeers.Row
