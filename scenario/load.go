package scenario

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"

	"github.com/emu-hpc/emu/internal/inputfile"
	"github.com/emu-hpc/emu/models"
)

// keyError is an error tied to a dotted scenario key; Scenario.errorAt turns it into
// "FILE:LINE: key: msg" (or "--set key=value: msg" for an overridden key).
type keyError struct{ key, msg string }

func (e *keyError) Error() string { return e.key + ": " + e.msg }

func asParseError(err error, pe *toml.ParseError) bool { return errors.As(err, pe) }

// Load reads a scenario file. Relative paths inside it (platform.file,
// kernels.models) are read from the file's folder.
func Load(path string) (*Scenario, error) {
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, errors.Unwrap(err))
	}
	s, err := Parse(data, path)
	if err != nil {
		return nil, err
	}
	s.dir = filepath.Dir(path)
	return s, nil
}

// Parse reads a scenario document; file names it in errors. Unknown keys are errors.
// The result still needs Validate before it is run.
func Parse(data []byte, file string) (*Scenario, error) {
	s := &Scenario{file: file, dir: ".", data: data, setKeys: map[string]string{}}
	// A first pass finds syntax errors alone, so that they are not reported against
	// the last key read (which BurntSushi/toml does for value errors).
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line := pe.Position.Line
			if strings.Contains(pe.Message, `got '\n'`) && line > 1 {
				line-- // the lexer stands on the next line when it meets the line's end
			}
			return nil, fmt.Errorf("%s:%d: malformed TOML: %s", file, line, pe.Message)
		}
		return nil, fmt.Errorf("%s: malformed TOML: %v", file, err)
	}
	if err := tableTwice(data); err != nil {
		return nil, fmt.Errorf("%s:%w", file, err)
	}
	md, err := toml.Decode(string(data), s)
	if err != nil {
		return nil, s.decodeError(err, "", "", "")
	}
	if k := unknownKey(md); k != "" {
		return nil, s.errorAt(k, "unknown key"+suggest(k))
	}
	s.Kernels.parsed = true // the [kernels.NAME] tables that follow are --set's
	s.fileTables, s.jobFileTables = appTablesIn(doc)
	return s, nil
}

// lineOfError matches BurntSushi's type errors: toml: line 5 (last key "a.b"): msg.
var lineOfError = regexp.MustCompile(`^toml: (?:line (\d+) )?\(last key "([^"]*)"\): (.*)$`)

// typeMismatch matches BurntSushi's message for a value where a table belongs,
// which names our Go types.
var typeMismatch = regexp.MustCompile(`type mismatch for [\w.]+: expected table but found (\S+)`)

// decodeError turns an error of toml.Decode into one that names the file (or the
// --set argument), the line and the key. A --set of a [[jobs]] entry's key
// (jobs.N.key) was decoded into the entry: prefix ("jobs[N].") completes the keys
// the decoder names.
func (s *Scenario) decodeError(err error, setArg, label, prefix string) error {
	setKey, _, _ := strings.Cut(setArg, "=")
	atSet := func(key, msg string) error {
		if key == "" {
			key = strings.TrimSpace(setKey)
			if prefix != "" { // jobs.N.key: the key within the entry
				_, key, _ = strings.Cut(key, ".")
				_, key, _ = strings.Cut(key, ".")
			}
		}
		return fmt.Errorf("%s: %s%s: %s", label, prefix, key, plainTypes(msg))
	}
	var ke *keyError
	if errors.As(err, &ke) {
		if setArg != "" {
			return atSet(ke.key, ke.msg)
		}
		return s.errorAt(ke.key, plainTypes(ke.msg))
	}
	var pe toml.ParseError
	if errors.As(err, &pe) {
		msg, key := strings.TrimPrefix(pe.Message, "toml: "), pe.LastKey
		// Our unmarshalers name a deeper key themselves: "kernels.dgemm.coefs: unknown key".
		if k, rest := splitKeyMessage(msg); key != "" && strings.HasPrefix(k, key) && !strings.Contains(k, " ") {
			key, msg = k, rest
		}
		switch {
		case setArg != "":
			return atSet(key, msg)
		case key == pe.LastKey && pe.Position.Line > 0:
			return fmt.Errorf("%s:%d: %s: %s", s.file, pe.Position.Line, s.jobKey(key, pe.Position.Line), plainTypes(msg))
		}
		return s.errorAt(key, plainTypes(msg))
	}
	msg := typeMismatch.ReplaceAllStringFunc(err.Error(), func(m string) string {
		found := typeMismatch.FindStringSubmatch(m)[1]
		if found == "[]map[string]any" || found == "[]map[string]interface {}" {
			return "want a table, not a list of tables ([[...]])"
		}
		return "want a table, not a " + found
	})
	if m := lineOfError.FindStringSubmatch(msg); m != nil {
		key, what := strings.Trim(m[2], "[]"), m[3]
		key = strings.ReplaceAll(key, " ", ".")
		if setArg != "" {
			return atSet(key, what)
		}
		if m[1] != "" {
			line, _ := strconv.Atoi(m[1])
			return fmt.Errorf("%s:%d: %s: %s", s.file, line, s.jobKey(key, line), plainTypes(what))
		}
		return s.errorAt(key, plainTypes(what))
	}
	if setArg != "" {
		return atSet("", strings.TrimPrefix(msg, "toml: "))
	}
	return fmt.Errorf("%s: %s", s.file, plainTypes(strings.TrimPrefix(msg, "toml: ")))
}

// incompatible matches BurntSushi's message for a value of the wrong type, which
// names Go's types.
var incompatible = regexp.MustCompile(`incompatible types: TOML value has type (.+); destination has type (\S+)`)

// plainTypes says type errors in the scenario's words: "want a string, got an
// integer" instead of "TOML value has type int64; destination has type string".
func plainTypes(msg string) string {
	msg = incompatible.ReplaceAllStringFunc(msg, func(m string) string {
		sub := incompatible.FindStringSubmatch(m)
		return "want " + models.TypeWords(sub[2]) + ", got " + models.TypeWords(sub[1])
	})
	for _, t := range []string{"int64", "float64", "bool", "string", "[]any", "[]interface {}"} { // "want a table, not a int64"
		msg = strings.ReplaceAll(msg, "want a table, not a "+t, "want a table, not "+models.TypeWords(t))
	}
	return msg
}

// errorAt reports msg about a dotted key: from the --set that gave it, or from the
// file at the key's line.
func (s *Scenario) errorAt(key, msg string) error {
	if s.job != nil {
		return s.jobError(key, msg)
	}
	if arg, ok := s.SetBy(key); ok {
		return fmt.Errorf("%s: %s: %s", arg, key, msg)
	}
	// --platform replaced the file's [platform] table: a platform key no --set
	// gave is the platform file's, not a line of the replaced table.
	if s.xml != nil && strings.HasPrefix(key, "platform.") {
		return fmt.Errorf("%s:%d: cluster: %s: %s", s.xml.file, s.xml.clusterLine(), key, msg)
	}
	// A key the file does not have, below or beside a key a --set gave (a model
	// table the --set made incomplete), is the --set's.
	if !keyInDoc(s.data, key) {
		for _, k := range sortedKeys(s.setKeys) {
			if strings.HasPrefix(k, key+".") || (strings.Count(key, ".") >= 2 && parentKey(k) == parentKey(key)) {
				return fmt.Errorf("%s: %s: %s", s.setKeys[k], key, msg)
			}
		}
	}
	name := s.file
	if name == "" {
		name = "default scenario"
	}
	if line := keyLine(s.data, key); line > 0 {
		return fmt.Errorf("%s:%d: %s: %s", name, line, s.jobKey(key, line), msg)
	}
	return fmt.Errorf("%s: %s: %s", name, key, msg)
}

// SetBy returns the --set that gave key, or a table above it ("--set
// replay.semantics=loggops"), for an error that must name where a value came
// from; ok is false when no --set gave it.
func (s *Scenario) SetBy(key string) (arg string, ok bool) {
	for k := key; k != ""; k = parentKey(k) {
		if arg, ok := s.setKeys[k]; ok {
			return arg, true
		}
	}
	return "", false
}

// keyPlace says where key is given, as errorAt names it: the --set that gave
// it (or one of its keys), else "file:line", else the file.
func (s *Scenario) keyPlace(key string) string {
	if arg, ok := s.SetBy(key); ok {
		return arg
	}
	for _, k := range sortedKeys(s.setKeys) {
		if strings.HasPrefix(k, key+".") {
			return s.setKeys[k]
		}
	}
	name := s.file
	if name == "" {
		name = "default scenario"
	}
	if line := keyLine(s.data, key); line > 0 {
		return fmt.Sprintf("%s:%d", name, line)
	}
	return name
}

func parentKey(k string) string {
	i := strings.LastIndexByte(k, '.')
	if i < 0 {
		return ""
	}
	return k[:i]
}

// Set applies one --set override, "dotted.key=value". The value is read as a TOML
// value (number, boolean, string in quotes, [list]) and, when that fails, as a bare
// string, so `--set network.eager_threshold=1GiB` and `--set hpl.nb=[64,128]` both
// work. Unknown keys and values of the wrong type are errors naming the argument.
func (s *Scenario) Set(arg string) error { return s.SetAs(arg, "--set "+arg) }

// SetAs is Set for a flag that stands for a --set (--hostfile FILE is
// platform.hostfile=FILE): errors name the flag as label, not the --set.
func (s *Scenario) SetAs(arg, label string) error {
	if strings.ContainsFunc(label, unicode.IsControl) {
		// A newline or tab in the argument, escaped: an error is one line.
		q := strconv.Quote(label)
		label = q[1 : len(q)-1]
	}
	key, value, ok := strings.Cut(arg, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return fmt.Errorf("%s: want key=value, e.g. network.link_latency=5us", label)
	}
	parts, ok := splitKey(key)
	if !ok {
		return fmt.Errorf("%s: %q is not a dotted key (quote a part that holds a dot: kernels.host_speed.\"dahu-13..16\")", label, key)
	}
	key = strings.Join(parts, ".")
	value = strings.TrimSpace(value)
	var into any = s
	prefix, hint := "", suggest
	if parts[0] == "jobs" && len(parts) >= 2 {
		// jobs.N.key: a key of the N-th [[jobs]] entry (from 0, as errors number them).
		i, err := strconv.Atoi(parts[1])
		if err != nil || i < 0 || len(parts) == 2 {
			return fmt.Errorf("%s: %s: want jobs.N.key, N a [[jobs]] entry's number (from 0)", label, key)
		}
		if i >= len(s.Jobs) {
			return fmt.Errorf("%s: jobs[%d]: the scenario has %d [[jobs]] entries, numbered from 0", label, i, len(s.Jobs))
		}
		into, prefix, parts = &s.Jobs[i], fmt.Sprintf("jobs[%d].", i), parts[2:]
		hint = func(k string) string { return suggestAmong(k, jobKeys, fmt.Sprintf("jobs.%d.", i)) }
	}
	if strings.HasPrefix(value, "{") {
		// An inline table that TOML refuses (a key twice, no closing brace)
		// was taken for a string, and the key then asked for a table.
		var pe toml.ParseError
		if _, err := toml.Decode("x = "+value+"\n", new(map[string]any)); errors.As(err, &pe) {
			msg := strings.ReplaceAll(strings.TrimSuffix(pe.Message, "."), "'x.", "'"+key+".")
			return fmt.Errorf("%s: %s: %s is no TOML inline table: %s", label, key, value, msg)
		}
	}
	md, err := toml.Decode(setDocument(parts, value), into)
	if err != nil {
		return s.decodeError(err, arg, label, prefix)
	}
	if k := unknownKey(md); k != "" {
		return fmt.Errorf("%s: unknown key %s%s%s", label, prefix, k, hint(k))
	}
	s.setKeys[key] = label
	return nil
}

// splitKey splits a --set key at its dots, as TOML does: a part is a bare key
// or a "quoted" one ('quoted' too), which may hold dots (a host range, "dahu-13..16") or a
// slash ("dahu-1/cpu0"). ok is false for an empty part, a bare part with a
// character TOML does not allow there, or an unclosed quote.
func splitKey(key string) (parts []string, ok bool) {
	for {
		var part string
		if key != "" && (key[0] == '"' || key[0] == '\'') {
			// A basic string ("…", no escapes taken) or a literal one ('…',
			// TOML's other quote, which a shell's double quotes keep as is).
			quote, rest := key[0], key[1:]
			end := strings.IndexByte(rest, quote)
			if end < 0 || (quote == '"' && strings.ContainsRune(rest[:end], '\\')) || strings.ContainsFunc(rest[:end], unicode.IsControl) {
				return nil, false
			}
			part, key = rest[:end], rest[end+1:]
			if part == "" || (key != "" && key[0] != '.') {
				return nil, false
			}
		} else {
			end := strings.IndexByte(key, '.')
			if end < 0 {
				end = len(key)
			}
			part, key = key[:end], key[end:]
			if part == "" || strings.ContainsAny(part, " \"'[]=#") || strings.ContainsFunc(part, unicode.IsControl) {
				return nil, false
			}
		}
		parts = append(parts, part)
		if key == "" {
			return parts, true
		}
		key = key[1:] // the dot
		if key == "" {
			return nil, false
		}
	}
}

// tomlKey is part as a TOML key: bare when it can be, else quoted.
func tomlKey(part string) string {
	for _, c := range part {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return strconv.Quote(part)
		}
	}
	return part
}

// setDocument is the TOML document that sets the dotted key parts to value;
// a value that is not TOML (a bare word, or a list of them) is quoted.
func setDocument(parts []string, value string) string {
	keys := make([]string, len(parts))
	for i, p := range parts {
		keys[i] = tomlKey(p)
	}
	doc := func(v string) string {
		if len(keys) == 1 {
			return keys[0] + " = " + v + "\n"
		}
		return "[" + strings.Join(keys[:len(keys)-1], ".") + "]\n" + keys[len(keys)-1] + " = " + v + "\n"
	}
	text := doc(value)
	if _, err := toml.Decode(text, new(map[string]any)); err != nil || value == "" {
		text = doc(strconv.Quote(value)) // a bare word: take it as a string
		if l, ok := bareList(value); ok {
			text = doc(l) // [a, b]: a list of bare words
		}
	}
	return text
}

// bareList reads "[a, b, 3]" whose items are TOML values or bare words as a TOML
// list, quoting the bare words; ok is false for anything else (nested lists).
func bareList(v string) (string, bool) {
	inner, ok := strings.CutPrefix(v, "[")
	if inner, ok = strings.CutSuffix(inner, "]"); !ok || strings.ContainsAny(inner, "[]") || strings.TrimSpace(inner) == "" {
		return "", false
	}
	items := strings.Split(inner, ",")
	for i, it := range items {
		it = strings.TrimSpace(it)
		if it == "" {
			return "", false
		}
		if _, err := toml.Decode("x = "+it, new(map[string]any)); err != nil {
			it = strconv.Quote(it)
		}
		items[i] = it
	}
	return "[" + strings.Join(items, ", ") + "]", true
}

// UseHPLDat makes an HPL.dat replace the [hpl] table (--hpl-dat). It is parsed by
// Validate, once the number of ranks the platform offers is known.
func (s *Scenario) UseHPLDat(path string) error {
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, errors.Unwrap(err))
	}
	s.hplDat = &datSource{file: path, data: data}
	// call before Set: --set hpl.* then applies over HPL.dat; the keys
	// HPL.dat has no line for stay
	s.HPL = HPLTable{MaxIterations: s.HPL.MaxIterations, Roll: s.HPL.Roll, PivotExchange: s.HPL.PivotExchange, CopyL: s.HPL.CopyL}
	return nil
}

// UsePlatformXML makes a SimGrid platform file replace the [platform] table
// (--platform). Keys set with --set platform.* still apply over it.
func (s *Scenario) UsePlatformXML(path string) error {
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, errors.Unwrap(err))
	}
	s.xml = &xmlSource{file: path, data: data}
	s.Platform = PlatformTable{} // call before Set: --set platform.* then applies over the XML
	return nil
}

// keyInDoc reports whether the document gives key itself (not only its table).
func keyInDoc(data []byte, key string) bool {
	exact, _ := keyLines(data, key)
	return exact > 0
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// keyLine finds the line of a dotted key in a TOML document: a table header
// ([a.b] or [[a.b]]) or a "key = value" line under the header of its table. It is
// best effort (inline tables and dotted keys inside a table are matched loosely);
// 0 means not found, and the key is named in the message anyway.
func keyLine(data []byte, key string) int {
	exact, best := keyLines(data, key)
	if exact > 0 {
		return exact
	}
	return best
}

// keyLines returns the line of key itself (0 if absent) and the line of its
// closest enclosing table or key (0 if none).
func keyLines(data []byte, key string) (exact, best int) {
	if i := strings.IndexByte(key, '['); i >= 0 { // "a.b[0].c": look for a.b
		key = key[:i]
	}
	table := ""
	bestLen := -1
	for i, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || line[0] == '#' {
			continue
		}
		var full string
		if strings.HasPrefix(line, "[") {
			h := strings.Trim(strings.TrimSpace(strings.SplitN(line, "#", 2)[0]), "[] ")
			table = unquoteKey(h)
			full = table
		} else if k, _, ok := strings.Cut(line, "="); ok {
			full = joinKey(table, unquoteKey(strings.TrimSpace(k)))
		} else {
			continue
		}
		switch {
		case full == key:
			return i + 1, best
		case strings.HasPrefix(key, full+".") && len(full) > bestLen:
			best, bestLen = i+1, len(full)
		}
	}
	return 0, best
}

func unquoteKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// readInput reads a file named by the scenario, with an error that names it.
func readInput(path string) ([]byte, error) {
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, errors.Unwrap(err))
	}
	return data, nil
}

// unknownKey returns the first key the document gave that the schema does not
// have, preferring a leaf ("hpll.nb") over its table ("hpll"); "" if none.
func unknownKey(md toml.MetaData) string {
	var und []toml.Key
	for _, k := range md.Undecoded() {
		// [kernels] checks its own keys (KernelsTable.UnmarshalTOML); BurntSushi
		// lists the keys of inline tables inside its arrays (piece = [{...}]) as
		// undecoded even so.
		if len(k) < 2 || k[0] != "kernels" {
			und = append(und, k)
		}
	}
	if len(und) == 0 {
		return ""
	}
	for _, k := range und {
		if md.Type(k...) != "Hash" {
			return k.String()
		}
	}
	return und[0].String()
}
