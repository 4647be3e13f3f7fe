package main

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/emu-hpc/emu/apps/hpl"
	"github.com/emu-hpc/emu/calibration"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// appCalls emulates the scenario to predict (model mode, its own or the
// embedded default's kernel models standing in for this node's) and returns
// the kernel calls the ranks of its first host make, and how many ranks share
// that host, and the scenario's BLAS backend: the calls a calibration of that node should measure, and the
// number of workers that load the node as the run will.
//
// --hpl-dat may list several files, comma-separated: their tests are
// emulated one after the other, each a run of its own, so that a calibration
// covers exactly the runs to predict (an HPL.dat is a cross product: eleven
// chosen runs took one of 72, and each run's share of the draw with it).
func appCalls(sf *scenarioFlags, file string) ([]calibration.AppCall, int, string, error) {
	dats := strings.Split(sf.hplDat, ",")
	if len(dats) == 1 {
		return appCallsOf(sf, file, 0)
	}
	var (
		calls  []calibration.AppCall
		onNode int
		be     string
	)
	for _, dat := range dats {
		one := *sf
		one.hplDat = strings.TrimSpace(dat)
		if one.hplDat == "" {
			return nil, 0, "", fmt.Errorf("--hpl-dat %q: an empty file name in the list", sf.hplDat)
		}
		first := 0 // calls come in run order: the next file's runs follow the last call's
		if len(calls) > 0 {
			first = calls[len(calls)-1].Run + 1
		}
		more, n, b, err := appCallsOf(&one, file, first)
		if err != nil {
			return nil, 0, "", err
		}
		calls, onNode, be = append(calls, more...), max(onNode, n), b
	}
	return calls, onNode, be, nil
}

// appCallsOf is appCalls for one HPL.dat, its runs numbered from first.
func appCallsOf(sf *scenarioFlags, file string, first int) ([]calibration.AppCall, int, string, error) {
	plan, err := sf.plan(file)
	if err != nil {
		return nil, 0, "", err
	}
	if plan.App != scenario.AppHPL {
		return nil, 0, "", fmt.Errorf("calibrate: the scenario runs %s; recording an application's kernel calls needs HPL", plan.App)
	}
	plan.Kernels.Mode = kernels.Model // only the calls' shapes are wanted, not their work
	if plan.Kernels.Models == nil || plan.Kernels.Models.For("dgemm", "") == nil {
		// HPL's broadcasts poll while they update, so how the update is cut
		// into calls depends on how long its calls take: without models
		// of its own the run is emulated with the default's, a node of about
		// 100 Gflop/s per core, rather than with free kernels.
		def, err := scenario.Default().Validate()
		if err != nil {
			return nil, 0, "", err
		}
		plan.Kernels.Models = def.Kernels.Models
	}
	place := plan.Platform.Placement(plan.Ranks)
	onNode := 0
	for _, h := range place {
		if h == place[0] {
			onNode++
		}
	}
	// One emulation per test of the HPL.dat, so that calibration can give
	// each run the same weight (calibration.AppCall.Run).
	var calls []calibration.AppCall
	for run, test := range plan.HPL {
		one := *plan
		dat := test.Dat()
		one.HPL, one.HPLDat = []hpl.Params{test}, &dat
		log := &observe.KernelLog{Shapes: true, Ranks: func(r int) bool { return place[r] == place[0] }}
		if _, err := runner.Run(&one, runner.Options{Kernels: log}); err != nil {
			return nil, 0, "", fmt.Errorf("calibrate: emulating the run to record its kernel calls: %w", err)
		}
		for _, s := range log.Calls() {
			calls = append(calls, calibration.AppCall{Count: s.Calls, Run: first + run, Call: calibration.Call{
				Kernel: s.Kernel, M: s.M, N: s.N, K: s.K,
				Side: s.Form.Side(), TransA: s.Form.TransA(), TransB: s.Form.TransB(),
			}})
		}
	}
	return calls, min(onNode, runtime.NumCPU()), plan.Kernels.Backend, nil
}
