package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/emu-hpc/emu/internal/atomicfile"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Plan is everything a Slurm array task needs to evaluate its share of a sweep without
// the submitting shell: the scenario, the fixed overrides and the points. It is written
// as DIR/plan.json at submission.
type Plan struct {
	Scenario string     `json:"scenario"`           // absolute path of the scenario file, "" for the embedded default
	Platform string     `json:"platform,omitempty"` // --platform XML, absolute path
	HPLDat   string     `json:"hpl_dat,omitempty"`  // --hpl-dat file, absolute path
	Sets     []Override `json:"sets,omitempty"`     // overrides applied to every point (--set)
	Points   []Point    `json:"points"`
	Tasks    int        `json:"tasks"` // array size; task t evaluates points t, t+Tasks, ...
}

const planFile = "plan.json"

// WritePlan stores the plan in dir (created if needed), atomically.
func WritePlan(dir string, p Plan) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(dir, planFile), b, 0o644)
}

// ReadPlan loads dir's plan.
func ReadPlan(dir string) (Plan, error) {
	var p Plan
	path := filepath.Join(dir, planFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return p, fmt.Errorf("%s: %v", path, err)
	}
	if p.Tasks <= 0 {
		return p, fmt.Errorf("%s: tasks must be positive, got %d", path, p.Tasks)
	}
	return p, nil
}

// TaskPoints returns the points task t of the plan evaluates (round robin, so tasks get
// similar mixes of cheap and expensive points).
func (p Plan) TaskPoints(t int) []Point {
	var out []Point
	for i := t; i < len(p.Points); i += p.Tasks {
		out = append(out, p.Points[i])
	}
	return out
}

// TaskJournal is the result file of task t inside dir.
func TaskJournal(dir string, t int) string {
	return filepath.Join(dir, fmt.Sprintf("results-%04d.jsonl", t))
}

// TaskJournals lists the result files present in dir, in task order.
func TaskJournals(dir string) ([]string, error) {
	return filepath.Glob(filepath.Join(dir, "results-*.jsonl"))
}

// SlurmOptions shape the job array script.
type SlurmOptions struct {
	Partition string // empty: the cluster's default
	TimeLimit string // sbatch --time, e.g. "1:00:00"; empty: the partition's default
	CPUs      int    // cores per task; ≤ 0 means 1
	Exe       string // emu binary the tasks run (absolute path)
}

// JobScript renders the sbatch script of a plan stored in dir.
func JobScript(dir string, p Plan, o SlurmOptions) string {
	cpus := o.CPUs
	if cpus <= 0 {
		cpus = 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=emu-tune\n")
	fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", p.Tasks-1)
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", cpus)
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", shellQuote(filepath.Join(dir, "slurm-%A_%a.out")))
	if o.Partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", o.Partition)
	}
	if o.TimeLimit != "" {
		fmt.Fprintf(&b, "#SBATCH --time=%s\n", o.TimeLimit)
	}
	fmt.Fprintf(&b, "exec %s tune task %s --task \"$SLURM_ARRAY_TASK_ID\" --jobs %d\n",
		shellQuote(o.Exe), shellQuote(dir), cpus)
	return b.String()
}

// Submit writes dir/job.sh and submits it with sbatch, returning the job id.
// When sbatch fails the error says how to submit the folder by hand.
func Submit(ctx context.Context, dir string, p Plan, o SlurmOptions) (string, error) {
	script := filepath.Join(dir, "job.sh")
	if err := atomicfile.WriteFile(script, []byte(JobScript(dir, p, o)), 0o755); err != nil {
		return "", err
	}
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, "sbatch", "--parsable", script)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		// The folder is complete (plan, job script, binary): say how to submit
		// it by hand, from a login node or once the partition is right.
		why := strings.Join(strings.Fields(errb.String()), " ")
		if why != "" {
			why = ": " + why
		}
		return "", fmt.Errorf("sbatch %s: %v%s; nothing was submitted, but %s holds the plan, job script and emu binary: submit it by hand with `sbatch %s`, then `emu tune collect %s`",
			script, err, why, dir, shellWord(script), shellWord(dir))
	}
	id := strings.TrimSpace(out.String())
	if i := strings.IndexByte(id, ';'); i >= 0 { // "jobid;cluster" on federated clusters
		id = id[:i]
	}
	if id == "" {
		return "", fmt.Errorf("sbatch %s: no job id in its output", script)
	}
	return id, atomicfile.WriteFile(filepath.Join(dir, "job_id"), []byte(id+"\n"), 0o644)
}

// CopyExecutable copies the running binary into dir/bin/emu so array tasks run the same
// code even when the submitter ran a temporary `go run` build.
func CopyExecutable(dir string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	src, err := os.Open(self)
	if err != nil {
		return "", err
	}
	defer src.Close()
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		return "", err
	}
	dst := filepath.Join(dir, "bin", "emu")
	tmp := dst + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, src); err != nil {
		f.Close()
		os.Remove(tmp)
		return "", err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return dst, os.Rename(tmp, dst)
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellWord is s as one shell word to show a user: as it is when no
// character in it is special to the shell, else quoted.
func shellWord(s string) string {
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("/._-+,:@%=", r)) {
			return shellQuote(s)
		}
	}
	return s
}
