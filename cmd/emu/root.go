package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/scenario"
)

// Exit statuses of emu. Bad input (a file, a flag, a key) is 2, as in DESIGN.md;
// a failure that is not the input's fault (a disk full, an internal bug) is 1.
const (
	exitOK      = 0
	exitFailure = 1
	exitInput   = 2
	// exitBrokenPipe is a write to a pipe whose reader has gone (emu run | head)
	// where emu catches SIGPIPE to clean up: 128 + SIGPIPE, what a shell sees of a
	// process the signal ended, and no line (the reader wanted no more).
	exitBrokenPipe = 128 + 13
)

// commands holds the constructors of emu's subcommands. Each file of this package that
// adds a subcommand calls register from its init function:
//
//	func init() { register(newAnalyzeCmd) }
//
// A constructor must build a fresh *cobra.Command on every call (the tests build many
// roots in one process) and must write only to cmd.OutOrStdout() / cmd.ErrOrStderr(),
// never to os.Stdout, so the in-process tests see its output. Its RunE returns an error
// instead of printing it; run prints that error as one line and maps it to an exit
// status (see exitCode).
var commands []func() *cobra.Command

// register adds a subcommand constructor to the registry. Call it from init only.
func register(newCmd func() *cobra.Command) {
	commands = append(commands, newCmd)
}

// failure marks an error that is not the user's input's fault, so run exits with 1
// instead of 2. Anything returned unwrapped by a RunE counts as bad input.
type failure struct{ err error }

func (f failure) Error() string { return f.err.Error() }
func (f failure) Unwrap() error { return f.err }

// asFailure wraps err (nil stays nil) so that run exits 1 for it.
func asFailure(err error) error {
	if err == nil {
		return nil
	}
	return failure{err}
}

// runError classes an error of a validated plan's run: a replayed trace that
// cannot complete (a deadlock, a message nobody receives, under either
// semantics) or has a receive smaller than its message (MPI_ERR_TRUNCATE)
// is the trace's fault, and a message between hosts the platform
// does not connect the platform's, and a kernel model whose calls last for
// days (ranks.InputFault) the model's: bad input (exit 2); anything else went
// wrong in emu (exit 1).
func runError(err error) error {
	var dl *replay.DeadlockError
	var un *replay.UnmatchedError
	var inc *replay.IncompleteError
	var trunc *replay.TruncateError
	var unrouted *ranks.UnroutedError // the platform cannot carry the run's messages
	if errors.As(err, &dl) || errors.As(err, &un) || errors.As(err, &inc) || errors.As(err, &trunc) || errors.As(err, &unrouted) {
		return err
	}
	var fault ranks.InputFault // a kernel model whose calls last for days
	if errors.As(err, &fault) {
		return fault
	}
	return asFailure(err)
}

// inPlatform names the platform file of plan at the head of a run's error
// that is about the machine (a message between hosts it does not connect),
// which otherwise names hosts of a file the line does not name.
func inPlatform(err error, plan *scenario.Plan) error {
	var unrouted *ranks.UnroutedError
	if plan == nil || plan.PlatformFile == "" || !errors.As(err, &unrouted) || strings.HasPrefix(err.Error(), plan.PlatformFile+":") {
		return err
	}
	return fmt.Errorf("%s: %w", plan.PlatformFile, err)
}

// exitCode maps an error returned by a command to emu's exit status.
func exitCode(err error) int {
	var f failure
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &f):
		return exitFailure
	default:
		return exitInput
	}
}

// newRoot builds the command tree: the root command plus every registered subcommand.
func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "emu",
		Short: "Predict MPI application (HPL) performance by emulating it on one machine",
		Long: `emu runs an MPI application — first of all HPL — on this machine, one goroutine
per rank, over a simulated network whose links are shared max-min fairly, with compute
kernels replaced by fitted time models (SimGrid/SMPI style). Every run can record its
execution graph, which answers LLAMP-style latency-sensitivity questions offline.

Inputs are a scenario file (TOML), or HPL's own HPL.dat plus a SimGrid platform XML.
Bad input exits with status 2 and one line naming the file, line or key (a
flag that takes one value given twice is bad input: only --set, tune's
--sweep, fit's --product and calibrate's lists repeat); a
failure that is not the input's (a full disk, an internal error) exits 1, with
one line too; a run ended by SIGINT, SIGTERM, SIGHUP or SIGPIPE (its output's
reader gone: emu run | head) exits 128 + the signal, as the shell expects (an
interrupted calibrate or tune, which keep what they finished and resume from it
when rerun, exits 1 with a line saying so). A command that fails leaves none of
its result files (--json, --trace, --graph, --lp, -o, ...), nor half of one;
calibrate's sample file and tune's --out folder stay to resume from. An output
named by a link is written to what it names, the link kept (--json /dev/stdout
follows the report). In every
command's JSON (--json, --links, fit --report) a list is an array, [] when
empty (no critical latency, no breakpoint), never null; null is a value that is
absent or unbounded (a tolerance not reached).`,
		SilenceUsage:  true, // an error is one line, never a usage dump
		SilenceErrors: true, // run prints the error itself, once
		// Without subcommand or arguments, show the help instead of doing nothing.
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
		// Every subcommand's (cobra runs the closest PersistentPreRunE).
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return refuseEmpty(cmd) },
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.PersistentFlags().BoolP("quiet", "q", false, "no progress output on stderr")
	// Flag errors (unknown flag, bad value) are bad input like any other.
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return flagError(err) })
	for _, newCmd := range commands {
		sub := newCmd()
		sub.SilenceUsage, sub.SilenceErrors = true, true
		root.AddCommand(sub)
	}
	decimalOnly(root) // an integer flag takes decimal only (--seeds 0x10 is refused)
	onceOnly(root)    // a flag that takes one value, given twice, is refused
	namedArgs(root)
	return root
}

// namedArgs makes every subcommand's argument-count error say which command
// refused what and what it takes: cobra's own "accepts 1 arg(s), received 0"
// named neither, so `emu analyze` alone or `emu calibrate merge` without a file
// left a newcomer guessing. The error becomes "analyze GRAPH|SCHEDULE.goal:
// accepts 1 arg(s), received 0".
func namedArgs(cmd *cobra.Command) {
	for _, sub := range cmd.Commands() {
		if check := sub.Args; check != nil {
			sub.Args = func(c *cobra.Command, args []string) error {
				err := check(c, args)
				if err == nil {
					return nil
				}
				path := strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
				use := strings.TrimPrefix(c.Use, c.Name())
				return fmt.Errorf("%s%s: %w", path, use, err)
			}
		}
		namedArgs(sub)
	}
}

// shellsOnly makes `emu completion SHELL` refuse a shell cobra writes no
// script for: cobra's completion command runs nothing itself, so `emu
// completion tcsh` printed the command's help and exited 0, as if it had
// written a script (qa48).
func shellsOnly(root *cobra.Command) {
	root.InitDefaultCompletionCmd() // cobra adds it in Execute otherwise, after this
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		var shells []string
		for _, sh := range c.Commands() {
			shells = append(shells, sh.Name())
		}
		c.Args = func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("completion: unknown shell %q, want one of %s", args[0], strings.Join(shells, ", "))
			}
			return nil
		}
		c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	}
}

// badNumber matches pflag's error for a flag value strconv refused (Atoi: an
// element of a list flag, calibrate's --nb 64,x).
var badNumber = regexp.MustCompile(`^invalid argument "(.*)" for "(.*)" flag: strconv\.(ParseInt|ParseUint|ParseFloat|ParseBool|Atoi): parsing ".*": (invalid syntax|value out of range)$`)

// flagError says what a numeric or boolean flag wants, in emu's form
// (--seeds "x": want an integer), instead of strconv's own words.
func flagError(err error) error {
	if r, ok := asRepeated(err); ok {
		return r
	}
	if d, ok := asNotDecimal(err); ok {
		return d
	}
	m := badNumber.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	want := map[string]string{"ParseInt": "an integer", "ParseUint": "an integer ≥ 0", "ParseFloat": "a number", "ParseBool": "true or false",
		"Atoi": "comma-separated integers"}[m[3]]
	if m[4] == "value out of range" {
		want += " in range"
	}
	return fmt.Errorf("%s %q: want %s", m[2], m[1], want)
}

// run executes emu with the given arguments and returns the exit status. It never
// panics: a panic inside a command is reported as one line, exit status 1.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "emu: internal error: %v\n", p)
			code = exitFailure
		}
	}()
	root := newRoot(stdout, stderr)
	shellsOnly(root) // here, not in newRoot: the CLI reference leaves cobra's completion out
	root.SetArgs(args)
	err := root.Execute()
	if errors.Is(err, syscall.EPIPE) {
		return exitBrokenPipe
	}
	if err != nil {
		fmt.Fprintln(stderr, "emu: "+oneLine(pathFirst(err)))
	}
	return exitCode(err)
}

// pathFirst is err's message with the system's "open PATH: no such file or
// directory" (a *fs.PathError, wherever it is wrapped) said as every other
// error of emu's says a file's: "PATH: no such file or directory".
func pathFirst(err error) string {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op != "" && pe.Path != "" {
		msg = strings.Replace(msg, pe.Error(), pe.Path+": "+pe.Err.Error(), 1)
	}
	return msg
}

// oneLine keeps an error message to one line: joined errors (errors.Join) and
// multi-line messages show their first line and how many more there were.
func oneLine(msg string) string {
	msg = strings.TrimSpace(msg)
	first, rest, found := strings.Cut(msg, "\n")
	if !found {
		return msg
	}
	more := strings.Count(rest, "\n") + 1
	return fmt.Sprintf("%s (and %d more)", strings.TrimSpace(first), more)
}

// isQuiet reports whether --quiet was given (progress output must stay off).
func isQuiet(cmd *cobra.Command) bool {
	q, err := cmd.Flags().GetBool("quiet")
	return err == nil && q
}

// writeFileAtomic writes a result file through a temporary file in the same folder
// and a rename, so that an error (or a crash) never leaves a half-written file at
// path. write's error, or an I/O error, is returned and path is left untouched.
func writeFileAtomic(path string, write func(w io.Writer) error) error {
	var s staging
	defer s.discard()
	if err := s.write(path, write); err != nil {
		return err
	}
	return s.commit()
}

// refuseEmpty refuses a string flag given an empty value (--json "", most
// often an unset shell variable): no flag of emu takes "" to mean anything,
// and taking it as "not given" would silently drop the output or the setting
// asked for.
func refuseEmpty(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if err == nil && f.Value.Type() == "string" && f.Value.String() == "" {
			err = fmt.Errorf("--%s: empty value (leave the flag out instead)", f.Name)
		}
	})
	return err
}
