package goal

import "github.com/emu-hpc/emu/sensitivity"

// recorder builds the sensitivity graph during a replay; see record.go.
type recorder struct{ err error }

func newRecorder(e *engine, b *sensitivity.Builder) *recorder { return &recorder{} }
func (r *recorder) ready(op int32)                             {}
func (r *recorder) calc(op int32)                              {}
func (r *recorder) send(op int32)                              {}
func (r *recorder) message(sendOp int32)                       {}
func (r *recorder) matchPosted(recvOp, sendOp int32)           {}
func (r *recorder) matchArrived(recvOp, sendOp int32)          {}
func (r *recorder) rendezvous(sendOp int32, c, n int)          {}
