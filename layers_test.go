package emuproject

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// listedPackage is what go list says of one package (its non-test files).
type listedPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string // direct
	Deps       []string // every package it needs, directly or not: what go list -deps lists
}

// listModule runs go list over the module and returns its packages by their
// path under the module ("" for the root package).
func listModule(t *testing.T) map[string]listedPackage {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	var stderr bytes.Buffer
	cmd := exec.Command(goTool, "list", "-json=ImportPath,Dir,GoFiles,Imports,Deps", "./...")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	pkgs := map[string]listedPackage{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs[ours(p.ImportPath)] = p
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages of the module", len(pkgs))
	}
	return pkgs
}

// ours turns an import path of the module into its path under the module;
// another module's path comes back unchanged.
func ours(path string) string {
	if path == module {
		return ""
	}
	return strings.TrimPrefix(path, module+"/")
}

func isOurs(path string) bool { return path == module || strings.HasPrefix(path, module+"/") }

const module = "github.com/emu-hpc/emu"

// layerRow is a package's row of layers.
type layerRow struct {
	pkg     string
	only    []string // its dependencies of ours, all of them; nil: any but never's
	never   []string // what it must not reach (besides cmd/emu, which no package may)
	imports []string // its own imports of ours, where narrower than only; a folder allows what is under it; nil: as only
	draws   bool     // it may link gonum/plot (plotLibrary): it draws figures
}

// layers is the one table of the import rules (shared/DESIGN.md, "Packages and
// who may import whom"; ARCHITECTURE.md's folder table; each doc.go's
// "# Imports"). For every package of the module it says which packages of ours
// it may depend on at all, directly or through another (go list's Deps:
// TestLayers), and which it may import itself (TestImportRules): a package
// that may not import sensitivity may not reach it through a third either. A
// package that is not listed here fails the test, so a new one must say where
// it stands.
var layers = []layerRow{
	{pkg: "", only: []string{}}, // the module's doc and its tests
	// The simulation core (shared/DESIGN.md): emu over fluid, models alone.
	{pkg: "models", only: []string{}},
	{pkg: "fluid", only: []string{"internal/heap"}},
	{pkg: "emu", only: []string{"fluid", "internal/heap"}, imports: []string{"fluid"}},
	{pkg: "ranks", only: []string{"emu", "fluid", "internal/heap"}},
	{pkg: "kernels", only: []string{"models"}},
	// The formats and the units know nothing of emu's.
	{pkg: "traceformat", only: []string{"internal/inputfile"}},
	{pkg: "units", only: []string{}},
	{pkg: "loggops", only: []string{"traceformat", "internal/heap", "internal/inputfile"}},
	{pkg: "sensitivity", only: []string{}},
	// sensitivity/goal records the graph of a loggops replay.
	{pkg: "sensitivity/goal", only: []string{"sensitivity", "loggops", "traceformat", "internal/heap", "internal/inputfile"},
		imports: []string{"sensitivity", "traceformat", "loggops"}},
	// the machine and its formats (SimGrid XML, hostfiles) build a fluid topology.
	{pkg: "platform", only: []string{"fluid", "units", "internal/heap", "internal/inputfile"}, imports: []string{"fluid", "units", "internal/inputfile"}},
	// The applications: never scenario, nor sensitivity; each imports what its
	// doc.go says (apps/replay reads its traces with traceformat and runs its
	// loggops semantics with package loggops).
	{pkg: "apps/pingpong", only: []string{"ranks", "emu", "fluid", "internal/heap"}, imports: []string{"ranks"}},
	{pkg: "apps/hpl", only: []string{"ranks", "kernels", "models", "emu", "fluid", "internal/heap"}, imports: []string{"ranks", "kernels", "models"}},
	{pkg: "apps/replay", only: []string{"ranks", "traceformat", "loggops", "emu", "fluid", "internal/heap", "internal/inputfile"}, imports: []string{"ranks", "traceformat", "loggops"}},
	// the input formats stop at the edge: HPL.dat fills apps/hpl's Dat.
	{pkg: "hpldat", only: []string{"apps/hpl", "ranks", "kernels", "models", "emu", "fluid", "internal/heap"}, imports: []string{"apps/hpl"}},
	// observe watches a run through ranks' events; the typed values and user
	// units it shares with scenario are package units'.
	{pkg: "observe", only: []string{"ranks", "fluid", "kernels", "sensitivity", "units", "emu", "models", "internal/heap"},
		imports: []string{"ranks", "fluid", "kernels", "sensitivity", "units"}},
	// plots draws what observe, sensitivity, calibration and tune compute:
	// the one package below cmd/emu that links gonum/plot, so a program of
	// one's own over ranks, platform, observe and sensitivity does not
	// (docs/library.md), nor one over calibration or tune.
	{pkg: "plots", only: []string{"observe", "sensitivity", "calibration", "tune", "ranks", "fluid", "kernels", "units", "emu", "models",
		"internal/heap", "internal/stats", "internal/atomicfile", "internal/jsonout", "internal/inputfile"},
		imports: []string{"observe", "sensitivity", "calibration", "tune"}, draws: true},
	{pkg: "calibration", only: []string{"kernels", "models", "internal/atomicfile", "internal/jsonout", "internal/inputfile"}},
	{pkg: "tune", only: []string{"internal/stats", "internal/atomicfile", "internal/jsonout"}},
	// scenario says what to run; running and watching it are runner's and observe's.
	{pkg: "scenario", never: []string{"observe", "sensitivity", "runner"},
		imports: []string{"apps", "fluid", "hpldat", "kernels", "loggops", "models", "platform", "ranks", "traceformat", "units", "internal/inputfile"}},
	// runner runs a scenario's Plan and wires the observers a run asks for.
	{pkg: "runner", imports: []string{"scenario", "platform", "apps", "ranks", "kernels", "fluid", "observe", "sensitivity"}},
	{pkg: "cmd/emu", draws: true},
	{pkg: "validation"},
	// The node loop measures the emu binary a user runs: of emu's packages only
	// apps/hpl's broadcast names and hpldat's writer.
	{pkg: "validation/nodeloop", only: []string{"apps/hpl", "hpldat", "ranks", "kernels", "models", "emu", "fluid", "internal/heap"},
		imports: []string{"apps/hpl", "hpldat"}},
	{pkg: "examples", only: []string{}},
	{pkg: "examples/dahu/gen", only: []string{"models"}},
	{pkg: "internal/heap", only: []string{}},
	{pkg: "internal/stats", only: []string{}},
	{pkg: "internal/atomicfile", only: []string{}},
	{pkg: "internal/jsonout", only: []string{}},
	{pkg: "internal/inputfile", only: []string{}},
	{pkg: "internal/golden", only: []string{}},
	{pkg: "internal/scenariotest", only: []string{}},
	{pkg: "internal/plantest", never: []string{"observe", "sensitivity", "runner"}, imports: []string{"scenario"}},
	{pkg: "internal/loggopspeers", only: []string{"traceformat", "internal/inputfile"}},
	{pkg: "fluid/fluidtest", only: []string{"fluid", "internal/heap"}, imports: []string{"fluid"}},
	{pkg: "models/modelstest", only: []string{"models"}},
}

// plotLibrary is the import path of gonum/plot: its packages (and through
// them fonts, image and PDF writers) are linked only by the packages that
// draw (layers' draws).
const plotLibrary = "gonum.org/v1/plot"

// testKits are for tests only: no package's own files may need them.
var testKits = []string{"internal/golden", "internal/scenariotest", "internal/plantest", "fluid/fluidtest", "models/modelstest"}

// TestLayers checks every package's whole dependency set against layers
// (go list -deps), and that only the packages that draw link gonum/plot.
func TestLayers(t *testing.T) {
	pkgs := listModule(t)
	seen := map[string]bool{}
	for _, l := range layers {
		p, ok := pkgs[l.pkg]
		if !ok {
			t.Errorf("layers names %q, which go list does not find: remove its row", l.pkg)
			continue
		}
		seen[l.pkg] = true
		plotted := false // reported once a package, at the first of gonum/plot's packages it links
		for _, dep := range p.Deps {
			if !l.draws && !plotted && (dep == plotLibrary || strings.HasPrefix(dep, plotLibrary+"/")) {
				t.Errorf("%s links %s (%s): only the packages that draw may link gonum/plot", l.pkg, dep, viaExternal(pkgs, l.pkg, dep))
				plotted = true
			}
			if !isOurs(dep) {
				continue
			}
			d := ours(dep)
			switch {
			case d == "cmd/emu" || strings.HasPrefix(d, "cmd/"):
				t.Errorf("%s depends on %s: nothing may import the CLI", l.pkg, d)
			case slices.Contains(testKits, d):
				t.Errorf("%s depends on %s, a kit for tests only", l.pkg, d)
			case l.only != nil && !slices.Contains(l.only, d):
				t.Errorf("%s depends on %s (%s); it may depend only on %v", l.pkg, d, via(pkgs, l.pkg, d), l.only)
			case slices.Contains(l.never, d):
				t.Errorf("%s depends on %s (%s), which it must never", l.pkg, d, via(pkgs, l.pkg, d))
			}
		}
	}
	for name := range pkgs {
		if !seen[name] {
			t.Errorf("package %q has no row in layers: add one saying what it may depend on (its doc.go's # Imports)", name)
		}
	}
}

// TestImportRules checks every package's own imports of ours (go list's
// Imports) against its row of layers: imports where the row narrows them,
// else only (which TestLayers checks on the whole set, and so on these too).
func TestImportRules(t *testing.T) {
	pkgs := listModule(t)
	for _, l := range layers {
		rule := l.imports
		if rule == nil {
			rule = l.only
		}
		if rule == nil {
			continue
		}
		for _, imp := range pkgs[l.pkg].Imports {
			if !isOurs(imp) {
				continue
			}
			if d := ours(imp); !slices.ContainsFunc(rule, func(r string) bool { return d == r || strings.HasPrefix(d, r+"/") }) {
				t.Errorf("%s imports %s; it may import only %v", l.pkg, d, rule)
			}
		}
	}
}

// via names the direct import of from through which it reaches to.
func via(pkgs map[string]listedPackage, from, to string) string {
	for _, imp := range pkgs[from].Imports {
		if ours(imp) == to {
			return "directly"
		}
	}
	for _, imp := range pkgs[from].Imports {
		if isOurs(imp) && slices.Contains(pkgs[ours(imp)].Deps, module+"/"+to) {
			return "through " + ours(imp)
		}
	}
	return "through the standard library?"
}

// viaExternal names the direct import of from through which it reaches dep,
// a package of another module.
func viaExternal(pkgs map[string]listedPackage, from, dep string) string {
	for _, imp := range pkgs[from].Imports {
		if imp == dep {
			return "directly"
		}
	}
	for _, imp := range pkgs[from].Imports {
		if isOurs(imp) && slices.Contains(pkgs[ours(imp)].Deps, dep) {
			return "through " + ours(imp)
		}
	}
	return "through another module"
}

// ioPackages are the standard packages that reach files, the network or the
// process: a package that does no I/O imports none of them.
var ioPackages = []string{"os", "os/exec", "os/signal", "io/ioutil", "io/fs", "net", "net/http", "syscall", "log", "embed"}

// clockFuncs are package time's functions that read the wall clock or wait on it.
var clockFuncs = []string{"Now", "Since", "Until", "Sleep", "After", "AfterFunc", "Tick", "NewTicker", "NewTimer"}

// pure lists what each package's doc.go promises of its own (non-test) files:
// no I/O, no wall clock, no goroutine started. The simulation core (emu,
// fluid, models) promises all three (shared/DESIGN.md): same seed, same bytes.
var pure = []struct {
	pkg                    string
	noIO, noClock, noGoStm bool
}{
	{"emu", true, true, true},
	{"fluid", true, true, true},
	{"models", true, true, true},
	{"ranks", false, true, false}, // one goroutine per rank, by design
	{"loggops", true, true, true},
	{"sensitivity/goal", true, true, true},
	{"units", true, true, false},
	{"hpldat", true, false, false},
	{"traceformat", false, true, true}, // file I/O in Load
	{"apps/replay", false, true, true},
	{"observe", false, true, true},
	{"plots", false, true, true}, // Sensitivity writes its figures' files
	{"internal/stats", true, false, false},
	{"internal/heap", true, true, true}, // the core's one dependency of ours: pure as the core
}

// TestPurePackages checks pure against each package's own files: its direct
// imports for I/O, and its syntax for calls of the wall clock and go statements.
func TestPurePackages(t *testing.T) {
	pkgs := listModule(t)
	for _, c := range pure {
		p, ok := pkgs[c.pkg]
		if !ok {
			t.Errorf("pure names %q, which go list does not find", c.pkg)
			continue
		}
		if c.noIO {
			for _, imp := range p.Imports {
				if slices.Contains(ioPackages, imp) {
					t.Errorf("%s imports %s: its doc.go says it does no I/O", c.pkg, imp)
				}
			}
		}
		fset := token.NewFileSet()
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range impurities(fset, f, c.noClock, c.noGoStm) {
				t.Errorf("%s: %s", c.pkg, bad)
			}
		}
	}
}

// impurities lists a file's calls of the wall clock (noClock) and its go
// statements (noGo), each with its position.
func impurities(fset *token.FileSet, f *ast.File, noClock, noGo bool) []string {
	timeName := ""
	for _, imp := range f.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path == "time" {
			timeName = "time"
			if imp.Name != nil {
				timeName = imp.Name.Name
			}
		}
	}
	var bad []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			if noGo {
				bad = append(bad, fset.Position(n.Pos()).String()+": starts a goroutine; its doc.go says it starts none")
			}
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && noClock && timeName != "" && x.Name == timeName && slices.Contains(clockFuncs, n.Sel.Name) {
				bad = append(bad, fset.Position(n.Pos()).String()+": time."+n.Sel.Name+" reads the wall clock; its doc.go says it reads none")
			}
		}
		return true
	})
	return bad
}

// TestArchitectureTable checks ARCHITECTURE.md's folder table against layers,
// both ways, so that the prose a reader trusts says what the tests enforce:
// every package of layers has a row and every row's folders are packages of
// layers; a row's "may import (of ours)" column lists exactly the package's
// rule (imports where a row narrows it, else only; "everything" where it has
// none, "nothing of ours" for an empty one), and its "(never …)" exactly
// never. Other parentheses in the column are comments.
func TestArchitectureTable(t *testing.T) {
	data, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := architectureRows(string(data))
	if err != nil {
		t.Fatal(err)
	}
	inTable := map[string]bool{}
	for _, r := range rows {
		for _, pkg := range r.folders {
			inTable[pkg] = true
			i := slices.IndexFunc(layers, func(l layerRow) bool { return l.pkg == pkg })
			if i < 0 {
				t.Errorf("ARCHITECTURE.md, line %d: %q has a row but no row in layers", r.line, pkg)
				continue
			}
			l := layers[i]
			rule := l.imports
			if rule == nil {
				rule = l.only
			}
			if (rule == nil) != (r.may == nil) || !sameSet(rule, r.may) {
				t.Errorf("ARCHITECTURE.md, line %d: %q may import %s; layers says %s", r.line, pkg, describeRule(r.may), describeRule(rule))
			}
			if !sameSet(l.never, r.never) {
				t.Errorf("ARCHITECTURE.md, line %d: %q never %v; layers says never %v", r.line, pkg, r.never, l.never)
			}
		}
	}
	for _, l := range layers {
		if !inTable[l.pkg] {
			t.Errorf("layers has %q, which ARCHITECTURE.md's folder table lacks: add its row", l.pkg)
		}
	}
}

// archRow is one row of ARCHITECTURE.md's folder table: its folders
// (package paths under the module, "" for the root), what they may import
// (nil: everything) and what they must never reach.
type archRow struct {
	line       int
	folders    []string
	may, never []string
}

var (
	backticked  = regexp.MustCompile("`([^`]+)`")
	parenthesis = regexp.MustCompile(`\s*\(([^()]*)\)`)
)

// architectureRows reads the table that follows the header whose last column
// is "may import (of ours)".
func architectureRows(doc string) ([]archRow, error) {
	var rows []archRow
	in := false
	for i, line := range strings.Split(doc, "\n") {
		if !in {
			in = strings.HasPrefix(line, "| folder |") && strings.HasSuffix(line, "| may import (of ours) |")
			continue
		}
		if strings.HasPrefix(line, "|---") {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 3 {
			return nil, fmt.Errorf("line %d: %d cells, want 3 (a | in a cell?)", i+1, len(cells))
		}
		r := archRow{line: i + 1}
		for _, m := range backticked.FindAllStringSubmatch(cells[0], -1) {
			r.folders = append(r.folders, strings.TrimPrefix(strings.TrimPrefix(m[1], "."), "/"))
		}
		if len(r.folders) == 0 {
			return nil, fmt.Errorf("line %d: no `folder` in %q", i+1, cells[0])
		}
		may := parenthesis.ReplaceAllStringFunc(cells[2], func(p string) string {
			inner := parenthesis.FindStringSubmatch(p)[1]
			if rest, ok := strings.CutPrefix(inner, "never "); ok {
				for _, w := range strings.Split(rest, ",") {
					r.never = append(r.never, strings.TrimSpace(w))
				}
			}
			return ""
		})
		switch may = strings.TrimSpace(may); may {
		case "everything":
		case "nothing of ours":
			r.may = []string{}
		default:
			for _, w := range strings.Split(may, ",") {
				r.may = append(r.may, strings.TrimSpace(w))
			}
		}
		rows = append(rows, r)
	}
	if len(rows) < 20 {
		return nil, fmt.Errorf("found %d rows of the folder table (its header changed?)", len(rows))
	}
	return rows, nil
}

func sameSet(a, b []string) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(s string) bool { return !slices.Contains(b, s) })
}

func describeRule(r []string) string {
	switch {
	case r == nil:
		return "everything"
	case len(r) == 0:
		return "nothing of ours"
	}
	s := slices.Clone(r)
	slices.Sort(s)
	return strings.Join(s, ", ")
}

// TestDocGoNamesItsImports checks that each package's doc.go, which says what
// the package may import, names every package of ours it does import (its
// non-test files, go list's Imports): by its path under the module
// ("internal/jsonout", "apps/hpl"), or for a top-level package by its name
// as a word; a doc.go that allows everything (cmd/emu's, validation's) is
// left to TestLayers. A doc.go that says "imports X only" while the code imports Y
// misleads the reader who is about to add an import.
func TestDocGoNamesItsImports(t *testing.T) {
	for name, p := range listModule(t) {
		data, err := os.ReadFile(filepath.Join(p.Dir, "doc.go"))
		if err != nil {
			continue // TestDocsRooms reports a package without one
		}
		doc := string(data)
		if mayImportAll.MatchString(doc) {
			continue // cmd/emu, validation: TestLayers holds them to their rows
		}
		for _, imp := range p.Imports {
			imp, _, _ = strings.Cut(imp, " ") // "path [cmd/emu]": a variant built for a PGO'd main
			if !isOurs(imp) {
				continue
			}
			if d := ours(imp); !docNames(doc, d) {
				t.Errorf("%s/doc.go does not name %s, which the package imports: say so where it lists its imports", cmp.Or(name, "."), d)
			}
		}
	}
}

// mayImportAll matches a doc.go that allows every package of ours.
var mayImportAll = regexp.MustCompile(`may import every package|Imports: everything of ours`)

// docNames reports whether a doc.go names the package at path pkg (under the
// module): the path itself, or a top-level package's name as a whole word.
func docNames(doc, pkg string) bool {
	word := regexp.MustCompile(`(^|[^\w/])` + regexp.QuoteMeta(pkg) + `($|[^\w/])`)
	return word.MatchString(doc)
}

func TestDocNames(t *testing.T) {
	for _, c := range []struct {
		doc, pkg string
		want     bool
	}{
		{"// Imports: ranks only.", "ranks", true},
		{"// Imports: internal/jsonout and models.", "internal/jsonout", true},
		{"// Imports: the applications.", "apps/hpl", false},
		{"// Imports: fluid/fluidtest.", "fluid", false},
		{"// emulates ranks", "emu", false},
		{"// Imports: emu, fluid", "emu", true},
	} {
		if got := docNames(c.doc, c.pkg); got != c.want {
			t.Errorf("docNames(%q, %q) = %v, want %v", c.doc, c.pkg, got, c.want)
		}
	}
}
