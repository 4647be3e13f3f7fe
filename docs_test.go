package emuproject

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/scenario"
)

// The docs' size limits, in bytes: the README is a short front door (what emu
// is, the set-up, which guide for which task), a guide is read top to bottom. The generated references and the
// evidence files are looked up, not read through, and have none.
const (
	readmeLimit = 8_000
	guideLimit  = 15_000
)

// generated are the docs/ pages written by a program, not by hand.
var generated = map[string]bool{"docs/cli.md": true}

// guides are the hand-written pages of docs/ (not the evidence).
func guides(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = slices.DeleteFunc(files, func(f string) bool { return f == "docs/evidence.md" || generated[f] })
	if len(files) < 6 {
		t.Fatalf("docs/ holds %d guides: %v", len(files), files)
	}
	return files
}

// references are the hand-written pages in docs/'s subfolders but the
// evidence (docs/reference/: the key tables, formats and figures a guide
// links for detail). They are held to what a guide is: the size limit, the
// command blocks' marks (and their commands run), the links; a folder added
// beside reference/ is too, without a change here.
func references(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("docs/*/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(files, func(f string) bool { return strings.HasPrefix(f, "docs/evidence/") })
}

// pages are the guides and the references: every hand-written page of docs/
// but the evidence.
func pages(t *testing.T) []string {
	t.Helper()
	return append(guides(t), references(t)...)
}

// TestDocsSizes holds the README under 8 KB and each guide or reference page
// under 15 KB.
func TestDocsSizes(t *testing.T) {
	limits := map[string]int{"README.md": readmeLimit}
	for _, g := range pages(t) {
		limits[g] = guideLimit
	}
	for file, limit := range limits {
		info, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if info.Size() > int64(limit) {
			t.Errorf("%s is %d bytes, over its %d: move detail to a guide or to docs/evidence/", file, info.Size(), limit)
		}
	}
}

// fence is one fenced block of a Markdown file.
type fence struct {
	file, lang, text string
	line             int    // of the opening fence
	notRun           string // the reason given by a <!-- not run: ... --> comment just before it
	section          string // the ## heading it is under
}

var notRunMark = regexp.MustCompile(`^<!-- not run: (.*\S) -->$`)

// fences returns every fenced block of a Markdown file, in order.
func fences(t *testing.T, file string) []fence {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []fence
	var cur *fence
	var body []string
	prev, section := "", ""
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		n++
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &fence{file: file, lang: strings.TrimPrefix(trimmed, "```"), line: n, section: section}
			if m := notRunMark.FindStringSubmatch(prev); m != nil {
				cur.notRun = m[1]
			}
			body = nil
		case cur != nil && trimmed == "```":
			cur.text = strings.Join(body, "\n")
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body = append(body, line)
		case strings.HasPrefix(line, "## "):
			section = line
		}
		if trimmed != "" {
			prev = trimmed
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Fatalf("%s:%d: a fenced block is never closed", file, cur.line)
	}
	return out
}

// commandLangs are the fence languages of command blocks.
var commandLangs = map[string]bool{"sh": true, "bash": true, "shell": true, "console": true}

// TestDocsCommandBlocksMarked checks the convention the command tests rely on:
// every fenced block says its language, command blocks are ```sh (so that the
// tests find them), and a <!-- not run: why --> comment stands only right
// before a command block.
func TestDocsCommandBlocksMarked(t *testing.T) {
	files := append([]string{"README.md"}, pages(t)...)
	for _, file := range files {
		for _, b := range fences(t, file) {
			switch {
			case b.lang == "":
				t.Errorf("%s:%d: a fenced block without a language: write ```sh for commands (run by the tests), ```text, ```toml, ...", file, b.line)
			case commandLangs[b.lang] && b.lang != "sh":
				t.Errorf("%s:%d: command blocks are ```sh, not ```%s", file, b.line, b.lang)
			case b.notRun != "" && b.lang != "sh":
				t.Errorf("%s:%d: a not-run mark before a ```%s block, which is not run anyway", file, b.line, b.lang)
			}
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		marks := strings.Count(string(data), "<!-- not run")
		marked := 0
		for _, b := range fences(t, file) {
			if b.notRun != "" {
				marked++
			}
		}
		if marks != marked {
			t.Errorf("%s: %d not-run marks, %d of them right before a block with a reason (<!-- not run: why -->)", file, marks, marked)
		}
	}
}

// indentedCommand is a line of an indented code block (four spaces or a tab)
// that starts a command a reader would type.
var indentedCommand = regexp.MustCompile(`^(    |\t)\s*(\$ )?(emu|go|mpirun|mpicc|smpirun) `)

// TestDocsNoIndentedCommands checks that the README and the guides show
// commands only in fenced ```sh blocks: a command in an indented code block
// is neither run by TestGuideCommands nor marked as not run, so it goes stale
// unseen (cluster.md's line e command did, written as `emu run` where every
// other block says `go run ./cmd/emu`).
func TestDocsNoIndentedCommands(t *testing.T) {
	for _, file := range append([]string{"README.md"}, pages(t)...) {
		for _, line := range strings.Split(proseOf(t, file), "\n") {
			if indentedCommand.MatchString(line) {
				t.Errorf("%s: %q: an indented command is never run; put it in a ```sh block (after <!-- not run: why --> if it cannot run in the tests)", file, strings.TrimSpace(line))
			}
		}
	}
}

var buildOutput = regexp.MustCompile(`go build\b[^\n]*?\s-o\s+(\S+)`)

// TestDocsBuildOutputs checks that no `go build -o PATH` of the README or a
// guide, run or not, names a folder of the repository: go build then writes
// the binary inside it (node.md's `-o emu` landed in the emu package's
// folder as emu/emu, and ./emu said "Is a directory").
func TestDocsBuildOutputs(t *testing.T) {
	for _, file := range append([]string{"README.md"}, pages(t)...) {
		for _, b := range fences(t, file) {
			for _, m := range buildOutput.FindAllStringSubmatch(b.text, -1) {
				if info, err := os.Stat(m[1]); err == nil && info.IsDir() {
					t.Errorf("%s:%d: go build -o %s writes into the folder %s/: name a file that is not a folder", file, b.line, m[1], m[1])
				}
			}
		}
	}
}

// TestReadmeTasks runs the first command of each task of the README's guide
// table (its `go run ./cmd/emu ...` code spans), in order, in one scratch folder
// as a reader trying them top to bottom would, and checks that the README links
// every guide of docs/ and the CLI reference, so a newcomer reaches each page
// from the front door.
func TestReadmeTasks(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(data), "\n## Guides\n")
	table, _, _ = strings.Cut(table, "\n## ")
	var blocks []string
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		for _, span := range codeSpan.FindAllString(line, -1) {
			if span = strings.Trim(span, "`"); strings.HasPrefix(span, "go run ./cmd/emu ") {
				blocks = append(blocks, span)
			}
		}
	}
	if len(blocks) < 8 {
		t.Fatalf("README's guide table has %d task commands, want one for most tasks", len(blocks))
	}
	for _, page := range append(guides(t), "docs/cli.md") {
		if !strings.Contains(table, "]("+page+")") {
			t.Errorf("README's guide table does not link %s", page)
		}
	}
	if testing.Short() {
		t.Skip("builds emu and runs the README's task commands")
	}
	runBlocks(t, blocks)
}

// TestGuideCommands runs every command block of every guide and reference
// page, in order, each page in a scratch folder of its own, as a reader would
// type them; a block that cannot run here says why before it (<!-- not run:
// why -->).
func TestGuideCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds emu and runs the guides' commands")
	}
	for _, g := range pages(t) {
		var blocks []string
		for _, b := range fences(t, g) {
			if b.lang == "sh" && b.notRun == "" {
				blocks = append(blocks, b.text)
			}
		}
		if len(blocks) == 0 {
			continue
		}
		t.Run(strings.TrimPrefix(g, "docs/"), func(t *testing.T) { runBlocks(t, blocks) })
	}
}

// TestDocsReferencesLinked checks that a newcomer reaches every reference
// page: each is linked from the README or another page of docs/ (the guide it
// was split from, its folder's README.md), so moving a guide's detail into a
// reference cannot hide it. (TestDocsLinks checks that the links resolve.)
func TestDocsReferencesLinked(t *testing.T) {
	linked := map[string]bool{}
	link := regexp.MustCompile(`\]\(([^)\s#]+)(?:#[^)\s]*)?\)`)
	for _, file := range append([]string{"README.md"}, pages(t)...) {
		for _, m := range link.FindAllStringSubmatch(proseOf(t, file), -1) {
			if target := filepath.Join(filepath.Dir(file), m[1]); target != file {
				linked[target] = true
			}
		}
	}
	for _, r := range references(t) {
		if !linked[r] {
			t.Errorf("%s: no page links it (the README, a guide, or %s)", r, filepath.Join(filepath.Dir(r), "README.md"))
		}
	}
}

// TestDocsLinks checks every relative link of the repository's Markdown: the
// file (or folder) it names exists, and its #anchor is a heading of that file
// (GitHub's slugs) or an HTML id in it.
func TestDocsLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	anchors := map[string]map[string]bool{}
	for _, file := range markdownFiles(t) {
		for _, m := range link.FindAllStringSubmatch(proseOf(t, file), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			resolved := file
			if path != "" {
				resolved = filepath.Join(filepath.Dir(file), path)
			}
			if _, err := os.Stat(resolved); err != nil {
				t.Errorf("%s: link to %s: %v", file, target, err)
				continue
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(resolved, ".md") {
				t.Errorf("%s: link to %s: an anchor into a file that is not Markdown", file, target)
				continue
			}
			if anchors[resolved] == nil {
				anchors[resolved] = headingAnchors(t, resolved)
			}
			if !anchors[resolved][anchor] {
				t.Errorf("%s: link to %s: %s has no heading or id %q", file, target, resolved, anchor)
			}
		}
	}
}

// markdownFiles are the repository's Markdown files outside testdata and
// hidden folders.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// proseOf is a Markdown file without its fenced blocks and code spans, where
// brackets are not links.
func proseOf(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fenced := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			b.WriteString(codeSpan.ReplaceAllString(line, "``"))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

var (
	codeSpan = regexp.MustCompile("`[^`]*`")
	htmlID   = regexp.MustCompile(`<a (?:id|name)="([^"]+)"`)
)

// headingAnchors returns the anchors GitHub gives a file's headings (lower
// case, punctuation dropped, spaces as hyphens, repeats numbered) and its
// HTML ids.
func headingAnchors(t *testing.T, file string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		if fenced {
			continue
		}
		for _, m := range htmlID.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		if !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimLeft(line, "#")
		if text == "" || text[0] != ' ' {
			continue
		}
		slug := githubSlug(strings.TrimSpace(text))
		if n := seen[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

func githubSlug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

func TestGithubSlug(t *testing.T) {
	for _, c := range []struct{ heading, want string }{
		{"Five-minute tour", "five-minute-tour"},
		{"`[replay]` (or `emu run --replay FILE`)", "replay-or-emu-run---replay-file"},
		{"HPL against SimGrid/SMPI 3.32", "hpl-against-simgridsmpi-332"},
		{"Extrapolation's error bar", "extrapolations-error-bar"},
		{"`[[jobs]]` (several applications at once)", "jobs-several-applications-at-once"},
	} {
		if got := githubSlug(c.heading); got != c.want {
			t.Errorf("githubSlug(%q) = %q, want %q", c.heading, got, c.want)
		}
	}
}

// TestScenarioReference checks docs/scenario.md (with scenario-models.md and
// reference/scenario-apps.md, the applications' tables) against the schema: every key
// of the scenario types (scenario.Scenario and models.Spec, by their toml tags)
// has a row, and every key with a row is one the parser accepts, so the
// reference cannot drift from what emu reads.
func TestScenarioReference(t *testing.T) {
	schema, arrays := schemaKeys()
	documented := documentedKeys(t, "docs/scenario.md")
	for _, file := range []string{"docs/scenario-models.md", "docs/reference/scenario-apps.md"} {
		for k := range documentedKeys(t, file) {
			documented[k] = true
		}
	}
	if len(schema) < 100 {
		t.Fatalf("found %d keys in the schema: the walk missed it", len(schema))
	}
	for _, k := range slices.Sorted(mapsKeys(schema)) {
		if !documented[k] {
			t.Errorf("scenario key %s has no row in docs/scenario.md", k)
		}
	}
	for _, k := range slices.Sorted(mapsKeys(documented)) {
		if !schema[k] {
			t.Errorf("docs/scenario.md documents %s, which the schema does not have", k)
		}
		if !parserAccepts(k, arrays) {
			t.Errorf("docs/scenario.md documents %s, which the parser calls an unknown key", k)
		}
	}
}

func mapsKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// schemaKeys walks the scenario's types and returns every key as a dotted
// path (a named table such as [kernels.dgemm] written NAME), and the paths that
// are arrays of tables ([[jobs]]).
func schemaKeys() (keys, arrays map[string]bool) {
	keys, arrays = map[string]bool{}, map[string]bool{}
	var walk func(t reflect.Type, prefix string, path []reflect.Type)
	join := func(prefix, k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	walk = func(t reflect.Type, prefix string, path []reflect.Type) {
		path = append(path, t)
		if t == reflect.TypeFor[scenario.KernelsTable]() {
			// [kernels] decodes itself (UnmarshalTOML): its settings are its
			// exported fields in snake case, its tables [kernels.NAME] kernel
			// models.
			for f := range t.Fields() {
				if !f.IsExported() {
					continue // the tables as read, kept for the models file
				}
				if f.Name == "Specs" {
					walk(reflect.TypeFor[models.Spec](), join(prefix, "NAME"), path)
					continue
				}
				keys[join(prefix, snake(f.Name))] = true
			}
			return
		}
		for f := range t.Fields() {
			tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if tag == "" || tag == "-" {
				continue
			}
			key := join(prefix, tag)
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			switch {
			case isTable(ft):
				walk(ft, key, path)
			case ft.Kind() == reflect.Slice && isTable(ft.Elem()):
				arrays[key] = true
				walk(ft.Elem(), key, path)
			case ft.Kind() == reflect.Map && isTable(ft.Elem()):
				if slices.Contains(path, ft.Elem()) { // a model's per-host models: the same keys, once
					keys[key] = true
					continue
				}
				walk(ft.Elem(), join(key, "NAME"), path)
			default:
				keys[key] = true
			}
		}
	}
	walk(reflect.TypeFor[scenario.Scenario](), "", nil)
	return keys, arrays
}

// isTable says whether a type is a TOML table of the schema: a struct with
// toml-tagged fields, or [kernels].
func isTable(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	if t == reflect.TypeFor[scenario.KernelsTable]() {
		return true
	}
	for f := range t.Fields() {
		if f.Tag.Get("toml") != "" {
			return true
		}
	}
	return false
}

func snake(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// documentedKeys reads the reference's key tables: each "## " section names its
// tables in its heading (`[platform]`, `[pingpong]`, `[ring]`, `[[jobs]]`; "Top
// level" is the document's root), each row's first cell its keys in backticks;
// a row naming a table (`[jobs.hpl]`) gives it the keys of the top-level table
// of that name.
func documentedKeys(t *testing.T, file string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tableName := regexp.MustCompile("`\\[\\[?([a-zA-Z_.][a-zA-Z0-9_.]*)\\]\\]?`")
	keyName := regexp.MustCompile("`([a-zA-Z_][a-zA-Z0-9_]*)`")
	byTable := map[string][]string{}
	aliases := map[string]string{} // jobs.hpl → hpl
	var tables []string
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			tables = nil
			if line == "## Top level" {
				tables = []string{""}
			}
			for _, m := range tableName.FindAllStringSubmatch(line, -1) {
				tables = append(tables, m[1])
			}
		case strings.HasPrefix(line, "| ") && tables != nil:
			cells := strings.Split(line, "|")
			first := strings.TrimSpace(cells[1])
			if first == "key" || strings.HasPrefix(first, "---") {
				continue
			}
			if refs := tableName.FindAllStringSubmatch(first, -1); refs != nil {
				for _, m := range refs {
					for _, table := range tables {
						sub := m[1]
						if table != "" && strings.HasPrefix(sub, table+".") {
							aliases[sub] = strings.TrimPrefix(sub, table+".")
						}
					}
				}
				continue
			}
			for _, m := range keyName.FindAllStringSubmatch(first, -1) {
				for _, table := range tables {
					byTable[table] = append(byTable[table], m[1])
				}
			}
		}
	}
	out := map[string]bool{}
	add := func(table, key string) {
		if table == "" {
			out[key] = true
		} else {
			out[table+"."+key] = true
		}
	}
	for table, keys := range byTable {
		for _, k := range keys {
			add(table, k)
		}
	}
	for alias, of := range aliases {
		for _, k := range byTable[of] {
			add(alias, k)
		}
	}
	return out
}

// parserAccepts says whether scenario.Parse takes key as a key of the schema:
// an unknown key is refused as such whatever its value, a known one takes at
// least one of these values without that complaint (a wrong type is another
// error).
func parserAccepts(key string, arrays map[string]bool) bool {
	parts := strings.Split(key, ".")
	for i, p := range parts {
		if p == "NAME" {
			parts[i] = "dgemm"
		}
	}
	parent, leaf := strings.Join(parts[:len(parts)-1], "."), parts[len(parts)-1]
	var head []string
	for i := range parts[:len(parts)-1] {
		p := strings.Join(parts[:i+1], ".")
		if arrays[strings.ReplaceAll(p, "dgemm", "NAME")] {
			head = append(head, "[["+p+"]]")
		}
	}
	if parent != "" && !arrays[strings.ReplaceAll(parent, "dgemm", "NAME")] {
		head = append(head, "["+parent+"]")
	}
	for _, value := range []string{`1`, `1.5`, `"x"`, `true`, `["x"]`, `[1.0]`, `[[1, 2]]`, `{}`} {
		doc := strings.Join(append(head, leaf+" = "+value), "\n") + "\n"
		if parent == "" {
			doc = leaf + " = " + value + "\n"
		}
		_, err := scenario.Parse([]byte(doc), "ref.toml")
		if err == nil || !strings.Contains(err.Error(), "unknown key") {
			return true
		}
	}
	return false
}

// TestEvidenceRows checks the evidence tables: every row of a table whose
// header is "figure | command or test | date | machine and load", in
// docs/evidence.md and docs/evidence/*.md, fills its four cells. The tests and
// benchmarks the rows name are checked by TestDocsNameDefinedTests.
func TestEvidenceRows(t *testing.T) {
	files, err := filepath.Glob("docs/evidence/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"docs/evidence.md"}, files...)
	header := regexp.MustCompile(`^\|\s*figure\s*\|\s*command or test[^|]*\|\s*date\s*\|\s*machine[^|]*\|\s*$`)
	rows := 0
	for _, file := range files {
		in := false
		for i, line := range strings.Split(proseOf(t, file), "\n") {
			switch {
			case header.MatchString(line):
				in = true
			case in && strings.HasPrefix(line, "|---"):
			case in && strings.HasPrefix(line, "|"):
				cells := strings.Split(strings.Trim(strings.ReplaceAll(line, `\|`, ""), "|"), "|")
				if len(cells) != 4 {
					t.Errorf("%s:%d: %d cells, want figure | command or test | date | machine and load", file, i+1, len(cells))
					continue
				}
				for j, c := range cells {
					if strings.TrimSpace(c) == "" {
						t.Errorf("%s:%d: cell %d is empty", file, i+1, j+1)
					}
				}
				rows++
			default:
				in = false
			}
		}
	}
	if rows < 15 {
		t.Errorf("the evidence tables hold %d rows", rows)
	}
}

// TestDocsRooms checks that every folder says what it holds: a package by its
// doc.go, which also says what it imports (and so what it must not), any other
// folder by a README.md; and that the folders a newcomer browses file by file
// (examples/, validation/, tools/, and apps/, internal/, cmd/ that hold only
// packages) name each of their entries there. Hidden folders (but .ci),
// testdata and what git ignores are left out.
func TestDocsRooms(t *testing.T) {
	listed := map[string]bool{"examples": true, "examples/dahu": true, "validation": true, "tools": true, "apps": true, "internal": true, "cmd": true}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != "." && (name == "testdata" || strings.HasPrefix(name, ".") && path != ".ci") {
			return filepath.SkipDir
		}
		if path != "." && exec.Command("git", "check-ignore", "-q", path+"/").Run() == nil {
			return filepath.SkipDir
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			return err
		}
		var doc string
		hasGo := slices.ContainsFunc(entries, func(e os.DirEntry) bool { return strings.HasSuffix(e.Name(), ".go") })
		for _, f := range []string{"doc.go", "README.md"} {
			if data, err := os.ReadFile(filepath.Join(path, f)); err == nil {
				doc += string(data)
			}
		}
		switch _, err := os.Stat(filepath.Join(path, "doc.go")); {
		case hasGo && err != nil:
			t.Errorf("%s: a package without a doc.go saying what it holds and imports", path)
		case hasGo && !strings.Contains(strings.ToLower(doc), "import"):
			t.Errorf("%s/doc.go does not say what the package imports", path)
		case !hasGo && doc == "":
			t.Errorf("%s: no README.md saying what the folder holds", path)
		}
		if listed[path] {
			for _, e := range entries {
				if n := e.Name(); !strings.HasPrefix(n, ".") && n != "README.md" && n != "testdata" && !strings.Contains(doc, n) {
					t.Errorf("%s: its README.md or doc.go does not say what %s is", path, n)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
