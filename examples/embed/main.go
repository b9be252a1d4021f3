// Command embed shows gscript inside a Go service: a handler runs a
// user-supplied script over the service's data with a time budget, step
// budgets for host code and cpu kernels, a memory budget and an output
// budget, and returns the script's result or its error.
// Scripts get no file access (Options.Files is nil): load and save fail.
//
//	go run ./examples/embed
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// Service holds data the scripts analyse. Scripts see it as the array
// `data` (wrapped without copying) and must define `fn analyse(data)`.
type Service struct {
	data []float32
}

// Handle compiles and runs one user script with budgets, returning the
// value of analyse(data) as text.
func (s *Service) Handle(script string, budget time.Duration) (string, error) {
	env := stdlib.Universe()
	prog, err := interp.Compile("user.gs", []byte(script), env)
	if err != nil {
		return "", fmt.Errorf("rejected: %w", err)
	}
	var out strings.Builder
	in, err := interp.New(interp.Options{
		Stdout: &limitWriter{w: &out, left: maxOutput}, Stderr: io.Discard, Device: "cpu", Predeclared: env,
		MaxSteps: 1_000_000, MaxKernelSteps: 10_000_000, MemoryLimit: 64 << 20,
		// Files: nil, so untrusted scripts cannot read or write files.
	})
	if err != nil {
		return "", err
	}
	defer in.Close()
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	if err := in.Run(ctx, prog); err != nil {
		return "", err
	}
	data, err := interp.WrapSlice(in, s.data)
	if err != nil {
		return "", err
	}
	v, err := in.Call(ctx, "analyse", data)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out.String() + " " + v.String()), nil
}

// maxOutput bounds what one script may print: the service buffers it.
const maxOutput = 64 << 10

// limitWriter passes on at most left bytes, then fails: a script printing
// without end gets an error instead of filling the service's memory.
type limitWriter struct {
	w    io.Writer
	left int
}

var errOutputLimit = errors.New("output limit reached")

func (l *limitWriter) Write(p []byte) (int, error) {
	if len(p) > l.left {
		return 0, errOutputLimit
	}
	l.left -= len(p)
	return l.w.Write(p)
}

const goodScript = `
kernel square(x: array[f32], y: array[f32]) {
    let i = tid()
    y[i] = x[i] * x[i]
}
fn analyse(data) {
    let sq = zeros(len(data))
    launch square[len(data)](data, sq)
    return [mean(data), sqrt(mean(sq))]
}
`

const slowScript = `
fn analyse(data) {
    let n = 0
    while true { n += 1 }
    return n
}
`

const saveScript = `
fn analyse(data) {
    save("/tmp/stolen.npy", data)
    return 0
}
`

const kernelLoopScript = `
kernel spin(x: array[f32]) {
    let i = tid()
    while true { x[i] = x[i] + 1.0 }
}
fn analyse(data) {
    launch spin[len(data)](data)
    return 0
}
`

const floodScript = `
fn analyse(data) {
    while true { print(data) }
    return 0
}
`

const badScript = `
fn analyse(data) {
    return dta[0]
}
`

func main() {
	s := &Service{data: make([]float32, 1000)}
	for i := range s.data {
		s.data[i] = float32(i%10) - 4.5
	}
	failed := false
	for _, c := range []struct{ name, script string }{{"mean and rms", goodScript}, {"runaway loop", slowScript},
		{"file write", saveScript}, {"kernel loop", kernelLoopScript}, {"output flood", floodScript}, {"typo", badScript}} {
		res, err := s.Handle(c.script, 200*time.Millisecond)
		var ee *interp.EvalError
		switch {
		case err == nil:
			fmt.Printf("%s: %s\n", c.name, res)
		case errors.As(err, &ee):
			fmt.Printf("%s: script failed at %v: %s\n", c.name, ee.Pos, ee.Msg)
		default:
			fmt.Printf("%s: %v\n", c.name, err)
		}
		if c.name == "mean and rms" && err != nil || c.name == "file write" && !errors.Is(err, interp.ErrNoFileAccess) ||
			c.name == "output flood" && !errors.Is(err, errOutputLimit) {
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}
