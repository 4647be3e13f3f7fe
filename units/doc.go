// Package units reads the quantities users write ("10Gbps", "1us",
// "64KiB", "1Gf") into the core's units, and holds the typed TOML values
// that carry them (Size, Time, Bandwidth, and the lists, words, toggles
// and seeds of a scenario's keys). scenario's schema and the observers of
// package observe read the same quantities, so they live below both.
//
// # What it owns
//
//   - ParseSize, ParseTime, ParseBandwidth, ParseSpeed: a number with a
//     unit into bytes, seconds, bytes per second, flop/s. A bandwidth
//     without a unit is refused (bits or bytes would be a guess).
//   - The value types' UnmarshalTOML: each accepts what a user would
//     write (a number or a string with its unit, one value or a list) and
//     says what it wanted when it refuses.
//
// # Error policy
//
// Errors say what was read and what was wanted, with an example; the key
// and the file are the caller's to add (scenario does).
//
// # Imports
//
// Nothing of emu's. No I/O, no clock.
package units
