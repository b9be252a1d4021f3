//go:build unix

package stdlib_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// exec runs src in a fresh cpu interpreter with full file access, the
// predeclared dir, and opts' MemoryLimit; it returns the output.
func exec(t *testing.T, ctx context.Context, dir, src string, limit int64) (string, error) {
	t.Helper()
	env := stdlib.Universe()
	env["dir"] = interp.String(dir)
	var out strings.Builder
	in, err := interp.New(interp.Options{Stdout: &out, Device: "cpu", Predeclared: env,
		Files: interp.AllFiles(), MemoryLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	err = in.Exec(ctx, "t.gs", []byte(src))
	return out.String(), err
}

func mustExec(t *testing.T, dir, src string) string {
	t.Helper()
	out, err := exec(t, context.Background(), dir, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// npyHeader builds a version 1.0 prefix for dict, padded to 64 bytes.
func npyHeader(dict string) []byte {
	pad := 64 - (10+len(dict)+1)%64
	b := append([]byte("\x93NUMPY\x01\x00"), 0, 0)
	binary.LittleEndian.PutUint16(b[8:], uint16(len(dict)+pad+1))
	b = append(b, dict...)
	b = append(b, strings.Repeat(" ", pad)...)
	return append(b, '\n')
}

func TestSaveRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.npy")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d.npy"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"fifo.npy": "a named pipe (FIFO)", "d.npy": "a directory"} {
		_, err := exec(t, context.Background(), dir, `save(dir + "/`+name+`", zeros(3))`, 0)
		if err == nil || !strings.Contains(err.Error(), "save "+filepath.Join(dir, name)+": not a regular file: it is "+want) {
			t.Errorf("%s: got %v, want a refusal", name, err)
		}
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", st.Mode(), err)
	}
}

func TestSaveWritesThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.npy")
	if err := os.Symlink("real/target.npy", link); err != nil {
		t.Fatal(err)
	}
	mustExec(t, dir, `save(dir + "/link.npy", full(4, 7.0))`)
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	out := mustExec(t, dir, `print(load(dir + "/real/target.npy"))`)
	if out != "[7.0, 7.0, 7.0, 7.0]\n" {
		t.Fatalf("target holds %q", out)
	}
}

// TestSaveIgnoresPlantedTmp: a symbolic link at PATH.tmp (the old fixed
// temporary name) must not redirect the write.
func TestSaveIgnoresPlantedTmp(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, "a.npy.tmp")); err != nil {
		t.Fatal(err)
	}
	mustExec(t, dir, `save(dir + "/a.npy", zeros(2))`)
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Fatalf("victim overwritten: %q", b)
	}
}

func TestSaveKeepsMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.npy")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	mustExec(t, dir, `save(dir + "/a.npy", zeros(2))`)
	if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600 (%v)", st.Mode().Perm(), err)
	}
}

// TestSaveErrorNamesPath: errors name the script's path, never a temporary
// file, and leave nothing behind.
func TestSaveErrorNamesPath(t *testing.T) {
	dir := t.TempDir()
	_, err := exec(t, context.Background(), dir, `save(dir + "/missing/a.npy", zeros(2))`, 0)
	want := "save " + filepath.Join(dir, "missing/a.npy") + ": no such file or directory"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), ".tmp") {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestConcurrentSaves: saves racing to one path all succeed, the file
// then holds exactly one writer's complete data, and no temporary file is
// left. (With one fixed temporary name, writers truncated each other's
// file: a save failed, or succeeded while the file held a mix.)
func TestConcurrentSaves(t *testing.T) {
	dir := t.TempDir()
	const writers, n = 8, 1 << 20
	for round := range 3 {
		var wg sync.WaitGroup
		errs := make([]error, writers)
		for i := range writers {
			wg.Go(func() {
				_, errs[i] = exec(t, context.Background(), dir, fmt.Sprintf(`save(dir + "/a.npy", full(%d, %d.0))`, n, i), 0)
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, writer %d: %v", round, i, err)
			}
		}
		out := mustExec(t, dir, `let a = load(dir + "/a.npy")
print(len(a), min(a) == max(a), min(a))`)
		var got, v int
		var same bool
		if _, err := fmt.Sscanf(out, "%d %t %d.0", &got, &same, &v); err != nil || got != n || !same || v < 0 || v >= writers {
			t.Fatalf("round %d: file holds %q, want one writer's data", round, out)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Fatalf("left behind: %v", ents)
		}
	}
}

// TestLoadFIFO: a FIFO is refused at once, not read (which would block
// until a writer came).
func TestLoadFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "f.npy"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := exec(t, context.Background(), dir, `load(dir + "/f.npy")`, 0)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file: it is a named pipe (FIFO)") {
			t.Fatalf("got %v, want a refusal", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("load of a FIFO hangs")
	}
}

// sparse makes an f32 .npy file of n elements without writing its data.
func sparse(t *testing.T, path string, n int64) {
	t.Helper()
	h := npyHeader(fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }", n))
	if err := os.WriteFile(path, h, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, int64(len(h))+4*n); err != nil {
		t.Fatal(err)
	}
}

// TestLoadChecksLimitFirst: a file larger than the memory limit is refused
// before its data is read into Go memory.
func TestLoadChecksLimitFirst(t *testing.T) {
	dir := t.TempDir()
	sparse(t, filepath.Join(dir, "big.npy"), 64<<20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := exec(t, context.Background(), dir, `load(dir + "/big.npy")`, 1<<20)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "memory limit") {
		t.Fatalf("got %v, want the memory limit", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Fatalf("allocated %d bytes before refusing", grew)
	}
}

// TestLoadHonoursCancel: a deadline ends a large load between chunks.
func TestLoadHonoursCancel(t *testing.T) {
	dir := t.TempDir()
	sparse(t, filepath.Join(dir, "big.npy"), 1<<28)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := exec(t, ctx, dir, `let a = load(dir + "/big.npy")`, 0)
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("got %v, want an interrupted load", err)
	}
}

// TestLoadFortranBigEndian reads data that needs both conversions through
// the chunked path.
func TestLoadFortranBigEndian(t *testing.T) {
	dir := t.TempDir()
	b := npyHeader("{'descr': '>i4', 'fortran_order': True, 'shape': (2, 3), }")
	for _, v := range []uint32{1, 4, 2, 5, 3, 6} { // column-major
		b = binary.BigEndian.AppendUint32(b, v)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.npy"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out := mustExec(t, dir, `print(load(dir + "/f.npy"))`); out != "[[1, 2, 3], [4, 5, 6]]\n" {
		t.Fatalf("got %q", out)
	}
}

// TestLoadHidesContents: loading a file that is not .npy says so without
// showing its bytes.
func TestLoadHidesContents(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("hunter2 is the password"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := exec(t, context.Background(), dir, `load(dir + "/secret")`, 0)
	if err == nil || strings.Contains(err.Error(), "hunter") || !strings.Contains(err.Error(), "not a .npy file") {
		t.Fatalf("got %v", err)
	}
}

// TestSaveKeepsTemporaryAlive: save writes the bytes of the array memory
// itself; an array made only for the call (`save(p, full(...))`) must stay
// reachable until the write ends, or a collection frees it under the write
// ("bad address", or another array's data in the file).
func TestSaveKeepsTemporaryAlive(t *testing.T) {
	dir := t.TempDir()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	for i := range 20 {
		src := fmt.Sprintf(`save(dir + "/t.npy", full(1 << 20, %d.0))
let a = load(dir + "/t.npy")
print(min(a) == max(a), max(a))`, i)
		if out := mustExec(t, dir, src); out != fmt.Sprintf("true %d.0\n", i) {
			t.Fatalf("save %d: %q", i, out)
		}
	}
}

// Every writer takes sync=: with it or without, the file is replaced
// whole and no temporary file is left beside it; sync must be a bool.
func TestWritersSync(t *testing.T) {
	dir := t.TempDir()
	for _, sync := range []string{"true", "false"} {
		out := mustExec(t, dir, `let m = arange(6, dtype=f32).reshape([2, 3])
save(dir + "/m.npy", m, sync=`+sync+`)
save_text(dir + "/m.csv", m, sync=`+sync+`)
write_file(dir + "/n.txt", "hi\n", sync=`+sync+`)
save_image(dir + "/m.png", m, sync=`+sync+`)
print(equal(load(dir + "/m.npy"), m), equal(load_text(dir + "/m.csv"), m), read_file(dir + "/n.txt"), end="")`)
		if out != "true true hi\n" {
			t.Errorf("sync=%s: got %q", sync, out)
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 4 {
		t.Errorf("files left: %v", ents)
	}
	_, err = exec(t, context.Background(), dir, `save(dir + "/m.npy", zeros(3), sync=1)`, 0)
	if err == nil || !strings.Contains(err.Error(), "save: sync must be a bool, not int") {
		t.Errorf("sync=1: %v", err)
	}
}
