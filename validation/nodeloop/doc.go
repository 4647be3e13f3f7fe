// Command nodeloop is issue 32 item 7's one-node loop as one command: real
// HPL runs, emu calibrate and emu fit beside them, real runs again, and emu
// run's prediction of each against the median of the real runs before and
// after, repeated -loops times. docs/node.md ("Check a node in one command")
// says how to run it; a loop of the 16 default tests takes 10-12 minutes
// on a 2-core node.
//
//	go run ./validation/nodeloop -hpl /path/to/xhpl -loops 3 -out loop-out
//
// It writes, under -out: configs.txt (the tests), hpl-dat/ (each test's
// HPL.dat), real_runs.csv (every real run: loop, round, repeat, time, load),
// predicted.csv (each loop's prediction and error per test), summary.txt
// (each loop's verdict), and loopK/ (samples, models, each command's log).
// With -apart (the default) each loop also calibrates the one-rank tests on
// their own with one worker, as their real runs leave the other core idle,
// and predicts them with both calibrations (predicted.csv's *_apart columns,
// a second line a loop in summary.txt); the exit status follows the first
// unless -verdict apart. Each -alt KEY=VALUE predicts every test again with
// that setting and the same models (predicted_alt.csv, a line in
// summary.txt). Before each real run and calibration it waits, up to
// -quiet-wait, for the CPUs to be at most -quiet busy, and records how busy
// they were.
//
// The exit status is 0 when every loop meets the bar (every test within
// 10%, 14 of 16 within 5%), 1 when one does not, 2 on bad flags or input,
// 3 when a run failed.
//
// It owns the loop's orchestration and its files; it runs emu and HPL as
// commands and must not import emu's packages beyond apps/hpl's names of the
// broadcasts and hpldat's HPL.dat writer (a loop measures the emu binary a
// user runs).
package main
