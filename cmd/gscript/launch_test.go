package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/runtime/mem"
)

// The launcher's tests run real processes: the binary, built once, and
// its ranks.

var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// binary is the gscript command, built once for the package's tests.
func binary(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the launcher's tests signal processes as Linux does")
	}
	goTool(t)
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "gscript-launch"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "gscript")
		out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// launchCmd is the binary run with args, its ranks' waits bounded by a
// short timeout (no test waits 300 s). A run gets --device cpu, which the
// launcher passes on: these are the tests of cpu ranks, on any machine.
func launchCmd(t *testing.T, env []string, args ...string) *exec.Cmd {
	if args[0] == "run" {
		args = append([]string{"run", "--device", "cpu"}, args[1:]...)
	}
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append(os.Environ(), "GSCRIPT_DIST_TIMEOUT=20")
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// runLaunch runs the binary and returns its status and output.
func runLaunch(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := launchCmd(t, env, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	return exitCode(cmd.Run()), out.String(), errOut.String()
}

func sortedLines(s string) []string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	slices.Sort(lines)
	return lines
}

// TestLaunchCollectives: every collective on every dtype over 4 ranks
// (testdata/dist/collectives.gs checks each result on each rank).
func TestLaunchCollectives(t *testing.T) {
	code, out, errOut := runLaunch(t, nil, "run", "-n", "4", "--tag-output", "testdata/dist/collectives.gs")
	want := []string{"[0] ok 0 of 4", "[1] ok 1 of 4", "[2] ok 2 of 4", "[3] ok 3 of 4"}
	if code != 0 || !slices.Equal(sortedLines(out), want) {
		t.Errorf("status %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

// TestLaunchMismatch: ranks whose arrays differ all fail with the same
// error, naming both sides, and nothing hangs.
func TestLaunchMismatch(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"let x = zeros(4 + rank() / 3)\nall_reduce(x)\n",
			"all_reduce: the ranks disagree: ranks 0, 1, 2 all_reduce f32[4] on cpu op=sum; rank 3 all_reduce f32[5] on cpu op=sum"},
		{"let x = zeros(4)\nlet op = \"sum\"\nif rank() == 1 {\n    op = \"max\"\n}\nall_reduce(x, op=op)\n",
			"ranks 0, 2, 3 all_reduce f32[4] on cpu op=sum; rank 1 all_reduce f32[4] on cpu op=max"},
		{"let x = zeros(4, dtype=i32)\nif rank() == 0 {\n    x = zeros(4)\n}\nbroadcast(x)\n",
			"rank 0 broadcast f32[4] on cpu root=0; ranks 1, 2, 3 broadcast i32[4] on cpu root=0"},
	} {
		start := time.Now()
		code, _, errOut := runLaunch(t, nil, "run", "-n", "4", writeScript(t, tc.src))
		if code != 1 || strings.Count(errOut, tc.want) != 4 {
			t.Errorf("%q: status %d, want 1 and the error on 4 ranks:\n%s", tc.src, code, errOut)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%q took %v", tc.src, d)
		}
	}
}

// TestLaunchExitStatus: the first rank to fail gives the launcher's
// status, and the launcher stops the others (here waiting for it).
func TestLaunchExitStatus(t *testing.T) {
	src := writeScript(t, "if rank() == 2 {\n    exit(3)\n}\nbarrier()\n")
	start := time.Now()
	code, _, errOut := runLaunch(t, nil, "run", "-n", "3", src)
	if code != 3 || !strings.Contains(errOut, "gscript run: rank 2 exited with status 3; stopping the other ranks") {
		t.Errorf("status %d, stderr:\n%s", code, errOut)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v: the other ranks were not stopped", d)
	}
	if code, _, _ := runLaunch(t, nil, "run", "-n", "2", writeScript(t, "barrier()\n")); code != 0 {
		t.Errorf("barrier alone: status %d", code)
	}
}

// TestLaunchInterrupt: Ctrl-C (SIGINT to the launcher) stops ranks that
// wait for each other (two recvs, unchecked); the status is 130.
func TestLaunchInterrupt(t *testing.T) {
	src := writeScript(t, "let x = zeros(4)\nprint(\"waiting\")\nrecv(x, (rank() + 1) % 2)\n")
	cmd := launchCmd(t, []string{"GSCRIPT_DIST_CHECK=0"}, "run", "-n", "2", src)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	for range 2 {
		if _, err := r.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(100 * time.Millisecond) // into recv
	cmd.Process.Signal(os.Interrupt)
	go io.Copy(io.Discard, r)
	done := make(chan error)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if code := exitCode(err); code != 130 || strings.Count(errOut.String(), "interrupted") != 2 {
			t.Errorf("status %d, stderr:\n%s", code, errOut.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the launcher did not stop")
	}
}

// TestKilledRank: three ranks started as torchrun starts them; rank 1,
// once in the group, loops and is killed: the others, in all_reduce,
// fail at once naming it.
func TestKilledRank(t *testing.T) {
	src := writeScript(t, "barrier()\nprint(\"in\")\nwhile rank() == 1 {\n}\nall_reduce(zeros(4))\n")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	cmds := make([]*exec.Cmd, 3)
	outs := make([]bytes.Buffer, 3)
	in := make(chan string, 3)
	for r := range cmds {
		cmds[r] = launchCmd(t, []string{fmt.Sprintf("RANK=%d", r), "WORLD_SIZE=3", "MASTER_ADDR=127.0.0.1", "MASTER_PORT=" + port}, "run", src)
		cmds[r].Stderr = &outs[r]
		pipe, err := cmds[r].StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmds[r].Start(); err != nil {
			t.Fatal(err)
		}
		defer cmds[r].Process.Kill()
		go func() {
			line, _ := bufio.NewReader(pipe).ReadString('\n')
			in <- line
			io.Copy(io.Discard, pipe)
		}()
	}
	for range cmds {
		if line := <-in; line != "in\n" {
			t.Fatalf("a rank printed %q", line)
		}
	}
	time.Sleep(100 * time.Millisecond) // rank 1 in its loop, the others in all_reduce
	start := time.Now()
	cmds[1].Process.Kill()
	for _, r := range []int{0, 2} {
		err := cmds[r].Wait()
		if code := exitCode(err); code != 1 || !strings.Contains(outs[r].String(), "rank 1 closed its connection (it exited, crashed or was killed)") {
			t.Errorf("rank %d: status %d, stderr:\n%s", r, code, outs[r].String())
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the others took %v to fail", d)
	}
}

// TestTwoNodes: two launchers on 127.0.0.1 as two nodes of two ranks.
func TestTwoNodes(t *testing.T) {
	binary(t) // built (or skipped) here: the nodes run in goroutines
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	master := ln.Addr().String()
	ln.Close()
	src := writeScript(t, "let x = full(2, rank())\nall_reduce(x)\nprint(rank(), local_rank(), world_size(), local_world_size(), x)\n")
	outs := make([]string, 2)
	codes := make([]int, 2)
	var wg sync.WaitGroup
	for node := range 2 {
		wg.Go(func() {
			codes[node], outs[node], _ = runLaunch(t, nil, "run", "-n", "2", "--nodes", "2", "--node-rank", fmt.Sprint(node), "--master", master, src)
		})
	}
	wg.Wait()
	got := sortedLines(outs[0] + outs[1])
	want := []string{"0 0 4 2 [6.0, 6.0]", "1 1 4 2 [6.0, 6.0]", "2 0 4 2 [6.0, 6.0]", "3 1 4 2 [6.0, 6.0]"}
	if codes[0] != 0 || codes[1] != 0 || !slices.Equal(got, want) {
		t.Errorf("statuses %v, output %q, want %q", codes, got, want)
	}
}

// TestLaunchUsage: the launcher's flags, refused where they do not fit.
func TestLaunchUsage(t *testing.T) {
	ok := writeScript(t, "print(1)\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "-n", "2", ok}, "are flags of run -n N"},
		{[]string{"run", "--nodes", "2", ok}, "are flags of run -n N"},
		{[]string{"run", "-n", "2", "--nodes", "2", ok}, "--nodes 2 needs --master HOST:PORT"},
		{[]string{"run", "-n", "2", "--nodes", "2", "--node-rank", "2", "--master", "h:1", ok}, "--node-rank 2 is not one of the 2 nodes"},
		{[]string{"run", "-n", "-1", ok}, "at least 1"},
		{[]string{"run", "-n", "2", "--master", "nohost", ok}, `--master "nohost" is not HOST:PORT`},
		{[]string{"run", "-n", "2", "-"}, "FILE cannot be - (stdin)"},
	} {
		code, _, errOut := gscript(t, "", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("gscript %v = %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	code, _, errOut := gscript(t, "", "run", ok)
	if code != 0 || errOut != "" {
		t.Errorf("a script alone: %d %q", code, errOut)
	}
}

// TestDistExamples: examples/dist_sum.gs and dist_sgd.gs over 4 ranks;
// the regression's loss curve is the one of a run alone.
func TestDistExamples(t *testing.T) {
	code, out, errOut := runLaunch(t, nil, "run", "-n", "4", "../../examples/dist_sum.gs")
	if code != 0 || strings.Count(out, "total 8796090925056\n") != 4 {
		t.Errorf("dist_sum: status %d\n%s%s", code, out, errOut)
	}
	code, alone, errOut := runLaunch(t, nil, "run", "../../examples/dist_sgd.gs")
	if code != 0 || !strings.Contains(alone, "step 40: mean squared error") {
		t.Fatalf("dist_sgd alone: status %d\n%s%s", code, alone, errOut)
	}
	code, four, errOut := runLaunch(t, nil, "run", "-n", "4", "../../examples/dist_sgd.gs")
	if code != 0 || strings.ReplaceAll(four, "4 ranks", "1 ranks") != alone {
		t.Errorf("dist_sgd on 4 ranks: status %d\n%s%s\nalone:\n%s", code, four, errOut, alone)
	}
}

// TestDevicesShowsNCCL: with CUDA devices, gscript devices names the
// NCCL their collectives use (the GPU machines have it).
func TestDevicesShowsNCCL(t *testing.T) {
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	var out bytes.Buffer
	if err := writeDevices(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "collectives on CUDA arrays: NCCL 2.") {
		t.Errorf("gscript devices:\n%s", out.String())
	}
}
