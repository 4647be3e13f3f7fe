//go:build race

package ranks

// raceDetector says the tests run under the race detector, which slows the
// randomized checks of tasks against blocking calls about tenfold (CI's
// `go test -race` of this package ran past its 10 minutes on two of them).
// Under it they run fewer seeds: the race run looks for data races, which a
// seed's scheduling shows in its first rounds; the plain run keeps them all.
const raceDetector = true
