//go:build !race

package ranks

// raceDetector: see race_test.go.
const raceDetector = false
