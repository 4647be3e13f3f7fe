// Command emu predicts the performance of MPI applications, first of all HPL, by
// emulating them on one machine over a simulated network (see the README and
// shared/DESIGN.md).
//
// Subcommands: run, calibrate (and calibrate merge), fit, analyze, sensitivity, tune
// (and tune collect). Each lives in its own file and registers itself from init
// (root.go's register); main is thin on purpose: everything happens in run, which the
// tests call in-process with golden outputs.
//
// Error policy: a command's RunE returns errors instead of printing them; run prints
// one line "emu: ..." and exits 2 for bad input (a file, line or key named in the
// message) or 1 for a failure that is not the input's fault (asFailure). Output paths
// are checked before any work (checkOutputs: a folder given for a file, a missing
// folder, two flags naming one file are bad input), and output files are written
// through temporary files renamed at the end, so a failed command leaves none.
// The CLI may import every package of the module; nothing imports it.
//
// default.pgo is a CPU profile that Go's toolchain uses to build emu
// (profile-guided optimization: go build, go run and go install pick it up by
// themselves). It is the profile of the emulation at scale in both wake orders,
// merged: Stampede's first panels, Dahu's line e at N = 50,000 (1,024 ranks, noisy
// kernels, SMPI's overheads) and ten runs of the peer 8x8 row in SimGrid's order:
//
//	go test -run XXX -bench 'StampedePanels$' -benchtime 1x -cpuprofile stampede.prof ./validation
//	go test -run XXX -bench 'DahuLineE/N50000$' -benchtime 1x -cpuprofile dahu.prof ./validation
//	go test -run XXX -bench 'PeerSpeedZen5/8x8' -benchtime 10x -cpuprofile peer.prof ./validation
//	go tool pprof -proto dahu.prof peer.prof stampede.prof > cmd/emu/default.pgo
//
// (from the repository's root; go test also leaves validation.test there). Rebuilt with
// Stampede's profile alone, that benchmark cost 0.93x the CPU of a build with -pgo=off
// (docs/evidence/performance.md, "Profile-guided build"); regenerate it when the hot paths
// of ranks, fluid or apps/hpl move.
package main
