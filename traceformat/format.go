package traceformat

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// Format is a trace format.
type Format uint8

// The formats Load reads. FormatAuto guesses from the file (Guess).
const (
	FormatAuto Format = iota
	FormatGOAL
	FormatTI
)

func (f Format) String() string {
	switch f {
	case FormatGOAL:
		return "goal"
	case FormatTI:
		return "ti"
	}
	return "auto"
}

// ParseFormat reads a format name: "goal", "ti", or "" (guess).
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return FormatAuto, nil
	case "goal":
		return FormatGOAL, nil
	case "ti":
		return FormatTI, nil
	}
	return FormatAuto, fmt.Errorf("unknown trace format %q (goal or ti)", s)
}

// Guess tells the format of a file from its name and its first bytes: a
// .goal file, or one whose first statement is "num_ranks", is GOAL;
// anything else is TI. An editor's byte order mark before it is looked past.
func Guess(name string, head []byte) Format {
	if strings.EqualFold(filepath.Ext(name), ".goal") {
		return FormatGOAL
	}
	head = bytes.TrimPrefix(head, utf8BOM)
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0, bytes.HasPrefix(line, []byte("//")), bytes.HasPrefix(line, []byte("/*")), line[0] == '#':
			continue
		case bytes.HasPrefix(line, []byte("num_ranks")):
			return FormatGOAL
		}
		return FormatTI
	}
	return FormatTI
}
