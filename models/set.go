package models

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"
)

// Set maps kernel names to their platform-wide model and per-host overrides.
// It is immutable once built and safe to share between ranks and runs.
type Set struct {
	specs  map[string]Spec
	models map[string]*model
	hosts  map[string]map[string]*model // kernel → host → override
	probes []Probe                      // [[probe]]: the calibrated nodes' reference (probe.go)
}

// NewSet validates and compiles specs, keyed by kernel name.
func NewSet(specs map[string]Spec) (*Set, error) {
	s := &Set{specs: map[string]Spec{}, models: map[string]*model{}, hosts: map[string]map[string]*model{}}
	for _, name := range sortedKeys(specs) {
		if err := s.add(name, specs[name]); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *Set) add(name string, sp Spec) error {
	if name == "" || strings.ContainsAny(name, ". \t\"") {
		return &specError{key: "kernels." + name, msg: "kernel names are non-empty and have no dots, spaces or quotes"}
	}
	m, err := sp.build()
	if err == nil {
		err = sp.validateHosts()
	}
	if err != nil {
		var se *specError
		if errors.As(err, &se) {
			return &specError{key: "kernels." + name + "." + se.key, msg: se.msg}
		}
		return fmt.Errorf("kernels.%s: %w", name, err)
	}
	s.specs[name] = sp
	s.models[name] = m
	for _, h := range sortedKeys(sp.Host) {
		hm, _ := sp.Host[h].build() // validated by validateHosts
		if s.hosts[name] == nil {
			s.hosts[name] = map[string]*model{}
		}
		s.hosts[name][h] = hm
	}
	return nil
}

// For returns the model of kernel on host: the host's override if there is
// one, else the platform-wide model, else nil (the kernel costs nothing).
// A nil *Set has no models.
func (s *Set) For(kernel, host string) Model {
	return s.ForCPU(kernel, host, -1)
}

// ForCPU returns the model of kernel on socket cpu of host: the override
// keyed CPUKey(host, cpu) ("dahu-3/cpu1", a per-CPU calibration), else the
// host's, else the platform-wide model, else nil. A negative cpu skips the
// per-CPU key.
func (s *Set) ForCPU(kernel, host string, cpu int) Model {
	if s == nil {
		return nil
	}
	if hs := s.hosts[kernel]; hs != nil {
		if cpu >= 0 {
			if hm, ok := hs[CPUKey(host, cpu)]; ok {
				return hm
			}
		}
		if hm, ok := hs[host]; ok {
			return hm
		}
	}
	if m, ok := s.models[kernel]; ok {
		return m
	}
	return nil
}

// CPUKey is the override key of socket cpu of host: "HOST/cpuS".
func CPUKey(host string, cpu int) string { return host + "/cpu" + strconv.Itoa(cpu) }

// SplitCPUKey reads an override key: the host, and the socket of a
// "HOST/cpuS" key (-1 for a plain host name; ok false for a "/" key that is
// not HOST/cpuS with S a non-negative integer).
func SplitCPUKey(key string) (host string, cpu int, ok bool) {
	h, c, found := strings.Cut(key, "/")
	if !found {
		return key, -1, true
	}
	digits, isCPU := strings.CutPrefix(c, "cpu")
	n, err := strconv.Atoi(digits)
	if !isCPU || err != nil || n < 0 || h == "" || digits != strconv.Itoa(n) {
		return key, -1, false
	}
	return h, n, true
}

// Kernels lists the kernels that have a model, sorted.
func (s *Set) Kernels() []string {
	if s == nil {
		return nil
	}
	return sortedKeys(s.specs)
}

// Spec returns the table a kernel's model was built from.
func (s *Set) Spec(kernel string) (Spec, bool) {
	if s == nil {
		return Spec{}, false
	}
	sp, ok := s.specs[kernel]
	return sp, ok
}

var tomlTypeError = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)

// decodeError is the TOML decoder's error as one line naming the file, the
// line and the key, in a models file's words: "want a number, got a string",
// not Go's "TOML value has type string; destination has type float".
func decodeError(data []byte, file string, err error) error {
	var perr toml.ParseError
	if errors.As(err, &perr) {
		if strings.HasPrefix(perr.Message, "parsing time ") && perr.LastKey != "" {
			return fmt.Errorf("%s:%d: %s: want a date and time, e.g. 2026-11-28T08:30:00Z", file, perr.Position.Line, perr.LastKey)
		}
		return fmt.Errorf("%s:%d: %s", file, perr.Position.Line, escapeControls(perr.Message))
	}
	// Type mismatches come as "toml: line N (last key "K"): msg".
	if m := tomlTypeError.FindStringSubmatch(err.Error()); m != nil {
		msg := m[3]
		if t := incompatible.FindStringSubmatch(msg); t != nil {
			msg = "want " + TypeWords(t[2]) + ", got " + TypeWords(t[1])
		}
		return fmt.Errorf("%s:%s: %s: %s", file, m[1], m[2], escapeControls(msg))
	}
	return fmt.Errorf("%s: %s", file, escapeControls(err.Error()))
}

// incompatible is the decoder's message for a value of the wrong type.
var incompatible = regexp.MustCompile(`^incompatible types: TOML value has type (.+); destination has type (\S+)$`)

// TypeWords names a type of the TOML decoder's messages (Go's, or the
// destination's kind) as a reader of a models file or a scenario would:
// "an integer", not "int64". Types it does not know come back as they are.
func TypeWords(t string) string {
	switch t {
	case "int64", "integer":
		return "an integer"
	case "float64", "float":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "boolean":
		return "true or false"
	case "slice", "array", "[]any", "[]interface {}":
		return "a list"
	case "map", "struct", "map[string]any", "map[string]interface {}":
		return "a table"
	case "time.Time":
		return "a date"
	}
	return t
}

// setFile is the layout of models.toml: one [kernels.NAME] table per kernel.
type setFile struct {
	Probes  []Probe         `toml:"probe,omitempty"`
	Kernels map[string]Spec `toml:"kernels"`
}

// ParseSet reads a models.toml document. file names the document in errors,
// which give the line where it can be found and the key at fault; unknown
// keys and unknown terms are errors.
func ParseSet(data []byte, file string) (*Set, error) {
	s, err := parseSet(data, file)
	if err != nil && looksLikeScenario(data) {
		return nil, fmt.Errorf("%s: a scenario, not a models file (a models file holds [kernels.NAME] tables; a scenario names one with kernels.models)", file)
	}
	if err != nil && bytes.HasPrefix(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\ufeff"))), []byte("HPLinpack")) {
		return nil, fmt.Errorf("%s: an HPL.dat, not a models file (an HPL.dat goes with --hpl-dat FILE)", file)
	}
	if err != nil && looksLikeSamples(data) {
		return nil, fmt.Errorf("%s: a samples CSV, not a models file (emu fit %s -o models.toml fits the models from it)", file, shellWord(file))
	}
	return s, err
}

// shellWord quotes a path for a command to copy, where the shell would split
// or expand it.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+,:@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// looksLikeSamples reports whether data opens with a samples CSV's header
// (emu calibrate's, or any with kernel and seconds columns), which a TOML
// parser reads as a bad key at line 1.
func looksLikeSamples(data []byte) bool {
	// Past the '#' comments and blank lines a sample file may begin with
	// (calibration.ReadSamples skips them).
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	line, rest, _ := bytes.Cut(data, []byte("\n"))
	for len(rest) > 0 && (len(bytes.TrimSpace(line)) == 0 || bytes.HasPrefix(bytes.TrimSpace(line), []byte("#"))) {
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
	}
	cols := map[string]bool{}
	for _, c := range strings.Split(string(line), ",") {
		cols[strings.ToLower(strings.TrimSpace(c))] = true
	}
	return cols["kernel"] && cols["seconds"]
}

// looksLikeScenario reports whether data is a TOML document with one of a
// scenario's tables or keys at its top level, which a models file never has.
func looksLikeScenario(data []byte) bool {
	var top map[string]any
	if _, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&top); err != nil {
		return false
	}
	for _, k := range []string{"app", "platform", "network", "hpl", "jobs", "replay", "pingpong", "ring", "congestor"} {
		if _, ok := top[k]; ok {
			return true
		}
	}
	return false
}

// escapeControls escapes the control characters of a parser's message,
// which may quote the bad input ("invalid escape in string '\⏎'"): an
// error is one line.
func escapeControls(msg string) string {
	if !strings.ContainsFunc(msg, unicode.IsControl) {
		return msg
	}
	q := strconv.Quote(msg)
	return q[1 : len(q)-1]
}

func parseSet(data []byte, file string) (*Set, error) {
	var doc setFile
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&doc)
	if err != nil {
		return nil, decodeError(data, file, err)
	}
	for _, k := range md.Keys() {
		// The decoder drops a non-table where a table is expected
		// (kernels = 3) without a word; catch it here.
		if typ := md.Type(k...); len(k) <= 2 && k[0] == "kernels" && typ != "Hash" && typ != "" {
			return nil, fmt.Errorf("%s: %s: must be a table ([%s]), not a value of type %s", locate(data, file, []string(k)), k, k, strings.ToLower(typ))
		}
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		return nil, fmt.Errorf("%s: unknown key %s", locate(data, file, []string(k)), k)
	}
	s, err := NewSet(doc.Kernels)
	if err != nil {
		var se *specError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s: %s: %s", locate(data, file, splitKey(se.key)), se.key, se.msg)
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if err := checkProbes(data, file, doc.Probes); err != nil {
		return nil, err
	}
	if len(doc.Kernels) == 0 {
		// An empty file (or one of comments or probes alone) ran as the
		// scenario's own models without a word (qa57): emu fit never writes
		// one, so it is a file cut short or the wrong file.
		return nil, fmt.Errorf("%s: no [kernels.NAME] table: a models file holds one a kernel (emu fit writes them)", file)
	}
	s.probes = doc.Probes
	return s, nil
}

// MarshalTOML writes the set as models.toml: kernels, hosts and keys in
// sorted order, floats in their shortest exact form, so the same set always
// gives the same bytes and parsing them back gives the same set.
func (s *Set) MarshalTOML() ([]byte, error) {
	var buf bytes.Buffer
	enc := toml.NewEncoder(&buf)
	enc.Indent = ""
	specs := map[string]Spec{}
	var probes []Probe
	if s != nil {
		specs, probes = s.specs, s.probes
	}
	if err := enc.Encode(setFile{Probes: probes, Kernels: specs}); err != nil {
		return nil, fmt.Errorf("models: encoding TOML: %w", err)
	}
	return tidyTOML(buf.Bytes()), nil
}

// tidyTOML drops the encoder's bare [kernels] header and puts exactly one
// blank line before every table, so a models.toml reads as one block per
// kernel.
func tidyTOML(b []byte) []byte {
	var out bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		switch {
		case line == "[kernels]" || line == "":
			continue
		case strings.HasPrefix(line, "[") && out.Len() > 0:
			out.WriteString("\n")
		}
		out.WriteString(line)
		out.WriteString("\n")
	}
	return out.Bytes()
}

// UnmarshalTOML decodes a mixture mode by hand so that an absent mean_scale
// means 1 and unknown keys are still rejected.
func (c *Component) UnmarshalTOML(v any) error {
	tbl, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("mixture mode must be a table like {weight = 0.9, sigma_scale = 0.01}, not %T", v)
	}
	*c = Component{MeanScale: 1}
	fields := map[string]*float64{"weight": &c.Weight, "mean_scale": &c.MeanScale, "offset": &c.Offset,
		"sigma": &c.Sigma, "sigma_scale": &c.SigmaScale}
	for _, k := range sortedKeys(tbl) {
		dst, ok := fields[k]
		if !ok {
			return fmt.Errorf("mixture: unknown key %q (want weight, mean_scale, offset, sigma, sigma_scale)", k)
		}
		switch x := tbl[k].(type) {
		case float64:
			*dst = x
		case int64:
			*dst = float64(x)
		default:
			return fmt.Errorf("mixture: %s is %T, want a number", k, x)
		}
	}
	return nil
}
