// Package examples holds runnable scenario files (Dahu-like cluster, Stampede-like
// fat tree, dragonfly, ping-pong, an HPL.dat and a SimGrid cluster); its test keeps them
// loadable and runnable as the code under them changes. README.md here is the
// reference of every scenario key. It has no code of its own and imports nothing but
// scenario, in tests.
package examples
