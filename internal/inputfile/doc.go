// Package inputfile reads the files a user names as input (scenarios,
// HPL.dat, platforms, hostfiles, models, samples, traces) so that a path
// that never ends cannot take the machine's memory: a regular file is read
// whole, as os.ReadFile does; anything else (a device such as /dev/zero or
// /dev/urandom, a pipe, a socket) is read up to MaxStream bytes and refused
// beyond, with a *fs.PathError whose Err says why, so that callers print it
// as they print a missing file. Imports: nothing of ours.
package inputfile
