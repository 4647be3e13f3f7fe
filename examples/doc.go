// Package examples holds runnable scenario files and inputs (the Dahu cluster of
// seed 003's Figure 10, a Stampede-like fat tree, a dragonfly, a ping-pong,
// traces to replay, jobs beside a congestor, an HPL.dat and SimGrid platforms);
// README.md here says what each file is, and docs/scenario.md (with
// scenario-models.md and reference/scenario-apps.md) is the reference of every
// scenario key. Its tests keep every example loadable and runnable as
// the code under them changes, and back the guides' claims on them.
//
// Imports: it has no code of its own; its tests import scenario, runner,
// platform and observe, and nothing imports it (layers_test.go).
package examples
