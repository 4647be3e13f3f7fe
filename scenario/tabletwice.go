package scenario

import (
	"fmt"
	"strconv"
	"strings"
)

// tableTwice finds a table a TOML document defines twice in ways TOML 1.0
// forbids but BurntSushi/toml merges without a word: by dotted keys and by
// a [header] (in either order: `host_speed.host-1 = 0.5` under [kernels],
// then a [kernels.host_speed] table), or an inline table extended by a
// [header] below it. Which definition won then depended on the reader; the
// spec's own readers refuse the file. data has been decoded without error
// (its syntax is sound); the error is "LINE: KEY: what".
func tableTwice(data []byte) error {
	sc := tomlScanner{src: data, line: 1}
	type def struct {
		how  string // "header", "dotted" or "inline"
		line int
	}
	defined := map[string]def{}
	arrays := map[string]int{} // canonical path of an array of tables: its elements so far
	canon := func(parts []string) string {
		p := ""
		for _, k := range parts {
			p += "." + strconv.Quote(k)
			if n := arrays[p]; n > 0 {
				p += "#" + strconv.Itoa(n)
			}
		}
		return p
	}
	var ctx []string // the current [header]'s key
	for {
		kind, parts, line := sc.next()
		switch kind {
		case "":
			return nil
		case "header", "array":
			for i := 1; i < len(parts); i++ {
				if d := defined[canon(parts[:i])]; d.how == "inline" {
					return fmt.Errorf("%d: %s: a table given inline at line %d, then extended by the header [%s] (TOML 1.0 forbids it): put its keys in one place",
						line, strings.Join(parts[:i], "."), d.line, strings.Join(parts, "."))
				}
			}
			if kind == "array" {
				p := canon(parts[:len(parts)-1]) + "." + strconv.Quote(parts[len(parts)-1])
				arrays[p]++
			} else if d := defined[canon(parts)]; d.how == "dotted" {
				return fmt.Errorf("%d: %s: table defined twice, by dotted keys at line %d, then by the header [%s] (TOML 1.0 forbids it): put its keys in one place",
					line, strings.Join(parts, "."), d.line, strings.Join(parts, "."))
			} else if d.how == "" {
				defined[canon(parts)] = def{"header", line}
			}
			ctx = parts
		case "key", "inline":
			full := append(append([]string{}, ctx...), parts...)
			for i := len(ctx) + 1; i < len(full); i++ {
				c := canon(full[:i])
				switch d := defined[c]; d.how {
				case "header":
					return fmt.Errorf("%d: %s: table defined twice, by the header [%s] at line %d, then by dotted keys (TOML 1.0 forbids it): put its keys in one place",
						line, strings.Join(full[:i], "."), strings.Join(full[:i], "."), d.line)
				case "":
					defined[c] = def{"dotted", line}
				}
			}
			if kind == "inline" {
				defined[canon(full)] = def{"inline", line}
			}
		}
	}
}

// tomlScanner walks a TOML document's top level: each [header], [[array]]
// header and key = value line, skipping values (strings of every kind,
// arrays and inline tables over several lines) and comments.
type tomlScanner struct {
	src  []byte
	i    int
	line int
}

// next returns the next item: "header" or "array" with its key, "key" or
// "inline" (a key whose value is an inline table) with its key, or "" at
// the end; line is the item's line.
func (s *tomlScanner) next() (kind string, parts []string, line int) {
	for s.i < len(s.src) {
		switch c := s.src[s.i]; c {
		case ' ', '\t', '\r':
			s.i++
		case '\n':
			s.i++
			s.line++
		case '#':
			s.skipComment()
		case '[':
			line = s.line
			s.i++
			kind = "header"
			if s.i < len(s.src) && s.src[s.i] == '[' {
				s.i++
				kind = "array"
			}
			parts = s.key()
			s.skipLine()
			return kind, parts, line
		default:
			line = s.line
			parts = s.key()
			s.skipSpace()
			if s.i < len(s.src) && s.src[s.i] == '=' {
				s.i++
			}
			s.skipSpace()
			kind = "key"
			if s.i < len(s.src) && s.src[s.i] == '{' {
				kind = "inline"
			}
			s.skipValue()
			return kind, parts, line
		}
	}
	return "", nil, s.line
}

func (s *tomlScanner) skipSpace() {
	for s.i < len(s.src) && (s.src[s.i] == ' ' || s.src[s.i] == '\t') {
		s.i++
	}
}

func (s *tomlScanner) skipComment() {
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		s.i++
	}
}

// skipLine skips to the end of a header's line (a comment may follow it).
func (s *tomlScanner) skipLine() {
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		if s.src[s.i] == '#' {
			s.skipComment()
			return
		}
		s.i++
	}
}

// key reads a dotted key (bare, "basic" or 'literal' parts) up to what
// ends it: '=', ']' or the line's end.
func (s *tomlScanner) key() []string {
	var parts []string
	for s.i < len(s.src) {
		s.skipSpace()
		if s.i >= len(s.src) {
			break
		}
		switch c := s.src[s.i]; c {
		case '"':
			start := s.i
			s.skipBasic()
			k, err := strconv.Unquote(string(s.src[start:s.i]))
			if err != nil {
				k = string(s.src[start+1 : s.i-1])
			}
			parts = append(parts, k)
		case '\'':
			start := s.i + 1
			s.i++
			for s.i < len(s.src) && s.src[s.i] != '\'' {
				s.i++
			}
			parts = append(parts, string(s.src[start:min(s.i, len(s.src))]))
			s.i++
		default:
			start := s.i
			for s.i < len(s.src) && bareKeyByte(s.src[s.i]) {
				s.i++
			}
			if s.i == start { // not a key: the caller's delimiter
				return parts
			}
			parts = append(parts, string(s.src[start:s.i]))
		}
		s.skipSpace()
		if s.i < len(s.src) && s.src[s.i] == '.' {
			s.i++
			continue
		}
		break
	}
	return parts
}

func bareKeyByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// skipBasic skips a "basic" string from its opening quote to past its
// closing one.
func (s *tomlScanner) skipBasic() {
	s.i++
	for s.i < len(s.src) && s.src[s.i] != '"' {
		if s.src[s.i] == '\\' {
			s.i++
		}
		s.i++
	}
	s.i++
}

// skipValue skips a value to the end of its line, past arrays and inline
// tables that span lines and strings of every kind; the newline that ends
// it is left for next.
func (s *tomlScanner) skipValue() {
	depth := 0
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == '\n':
			if depth <= 0 {
				return
			}
			s.line++
			s.i++
		case c == '#':
			s.skipComment()
		case c == '[' || c == '{':
			depth++
			s.i++
		case c == ']' || c == '}':
			depth--
			s.i++
		case c == '"' || c == '\'':
			s.skipString(c)
		default:
			s.i++
		}
	}
}

// skipString skips a string opened by q at s.i: one-line or multi-line
// (three quotes), counting the lines a multi-line one spans.
func (s *tomlScanner) skipString(q byte) {
	triple := strings.Repeat(string(q), 3)
	if strings.HasPrefix(string(s.src[s.i:min(s.i+3, len(s.src))]), triple) {
		s.i += 3
		for s.i < len(s.src) {
			if q == '"' && s.src[s.i] == '\\' {
				if s.i+1 < len(s.src) && s.src[s.i+1] == '\n' {
					s.line++
				}
				s.i += 2
				continue
			}
			if strings.HasPrefix(string(s.src[s.i:min(s.i+3, len(s.src))]), triple) {
				s.i += 3
				// up to two more quotes belong to the string ("""a"""")
				for k := 0; k < 2 && s.i < len(s.src) && s.src[s.i] == q; k++ {
					s.i++
				}
				return
			}
			if s.src[s.i] == '\n' {
				s.line++
			}
			s.i++
		}
		return
	}
	if q == '"' {
		s.skipBasic()
		return
	}
	s.i++
	for s.i < len(s.src) && s.src[s.i] != '\'' && s.src[s.i] != '\n' {
		s.i++
	}
	s.i++
}
