// Package platform is the machine a run is emulated on: the Platform type (a
// validated machine description in the core's units, whether it came from a
// scenario's [platform] table or from SimGrid XML) and the input formats that
// describe one, read at the edge.
//
// # What it owns
//
//   - Platform: hosts, cores, sockets, links, topology (flat, fat-tree,
//     torus, dragonfly, SimGrid's descriptions), host names (prefix,
//     radical, suffix), the hostfile's lines; Build (its fluid topology),
//     Placement (the host of each rank), Sockets, HostName, Ranks, Nodes.
//   - ParseXML: a SimGrid platform file: one <cluster> (its topology), or
//     zones, hosts, routers, links, routes and clusters of any topology
//     (zone.go, zonecluster.go; TopoZones: a fluid.Zones with each host's
//     name, cores and speed).
//   - ParseHostfile: an smpirun hostfile against a platform.
//   - HostSpeeds: each host's speed factor, from patterns of host names
//     (names, numbered ranges, globs) and a seeded log-normal spread
//     (SpreadFactor).
//   - The words of the topologies, sharing policies and socket orders, and
//     the limits (MaxHosts, MaxRanks) that keep a typo from exhausting memory.
//
// # Error policy
//
// Errors of ParseXML and ParseHostfile name the file and the line; the
// Parse* helpers of single values say what they wanted, the key being the
// caller's (scenario's) to add. Bad input never panics; the parsers are
// fuzzed. Callers read the platform and host files; the one I/O here is
// ParseXML's reading of the profile files a platform names (speed_file,
// bandwidth_file, latency_file, a <trace>'s file), relative to its folder as
// SimGrid does (zoneprofile.go).
//
// # Imports
//
// fluid (Build), units (XML's quantities) and internal/inputfile (profile
// files) only; never scenario, which
// fills a Platform from its TOML and imports this package.
package platform
