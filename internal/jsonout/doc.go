// Package jsonout writes the --json documents of emu's commands. A list field
// of a report is always a JSON array: an empty list is [], never null, so a
// reader may iterate it without a test for null (encoding/json writes a nil
// slice as null). Marshal and Encode walk the value given, and every nil slice
// (but []byte, a string in JSON) or nil map they reach through exported
// fields, pointers, interfaces, slices and maps is written as [] or {}; nil
// pointers and interfaces stay null (an unbounded tolerance, an absent part).
// The value given is not changed: what holds a nil slice is copied. A type
// with its own MarshalJSON or MarshalText is written as it says.
//
// NullLists is the check of the tests: the paths of a decoded document where
// a list or an object of the Go type that wrote it is null.
//
// Imports: nothing of ours.
package jsonout
