package cuda

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// fakeEnv is a file system (a set of paths; directories are implied by
// the files under them) and an environment.
type fakeEnv struct {
	env   map[string]string
	files map[string]bool
}

func newFakeEnv(env map[string]string, files ...string) fakeEnv {
	f := fakeEnv{env: env, files: map[string]bool{}}
	for _, p := range files {
		for d := p; d != "/" && d != "."; d = path.Dir(d) {
			f.files[d] = true
		}
	}
	return f
}

func (f fakeEnv) Getenv(k string) string { return f.env[k] }
func (f fakeEnv) Exists(p string) bool   { return f.files[p] }
func (f fakeEnv) Glob(pattern string) []string {
	var out []string
	for p := range f.files {
		if ok, _ := path.Match(pattern, p); ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func TestNVRTCSearchOrder(t *testing.T) {
	env := newFakeEnv(map[string]string{
		"CUDA_HOME": "/opt/cuda-13", "CUDA_PATH": "/opt/cuda-12", "VIRTUAL_ENV": "/venv",
		"PYTHONPATH": "/pp1::/pp2", "HOME": "/home/u",
	},
		"/opt/cuda-13/lib64/libnvrtc.so.13", "/opt/cuda-13/lib64/libnvrtc.so",
		"/opt/cuda-12/lib64/libnvrtc.so.12",
		"/usr/local/cuda/lib64/libnvrtc.so.13",
		"/pp2/nvidia/cu13/lib/libnvrtc.so.13",
		"/venv/lib/python3.12/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12",
		"/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libnvrtc.so.13",
		"/home/u/.local/lib/python3.11/site-packages/nvidia/cu13/lib/libnvrtc.so.13",
		"/usr/lib/python3/dist-packages/nvidia/cu13/lib/libnvrtc.so.13",
		"/usr/local/lib/python3.10/dist-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12",
		"/usr/local/lib/python3.10/dist-packages/other/libnvrtc.so.13", // not a wheel layout
		"/opt/cuda-13/lib64/libcudart.so.13",
	)
	want := []string{
		"/opt/cuda-13/lib64/libnvrtc.so.13", "/opt/cuda-13/lib64/libnvrtc.so",
		"/opt/cuda-12/lib64/libnvrtc.so.12",
		"/usr/local/cuda/lib64/libnvrtc.so.13",
		"libnvrtc.so.13", "libnvrtc.so.12",
		"/pp2/nvidia/cu13/lib/libnvrtc.so.13",
		"/venv/lib/python3.12/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12",
		"/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libnvrtc.so.13",
		"/home/u/.local/lib/python3.11/site-packages/nvidia/cu13/lib/libnvrtc.so.13",
		"/usr/local/lib/python3.10/dist-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12",
		"/usr/lib/python3/dist-packages/nvidia/cu13/lib/libnvrtc.so.13",
	}
	if got := nvrtcCandidates(env); !reflect.DeepEqual(got, want) {
		t.Errorf("candidates:\n got %q\nwant %q", got, want)
	}
}

func TestNVRTCSearchEmpty(t *testing.T) {
	// Nothing installed: only the loader's own search remains.
	got := nvrtcCandidates(newFakeEnv(nil))
	if !reflect.DeepEqual(got, []string{"libnvrtc.so.13", "libnvrtc.so.12"}) {
		t.Errorf("got %q", got)
	}
	// CUDA_HOME equal to the default is not tried twice.
	env := newFakeEnv(map[string]string{"CUDA_HOME": "/usr/local/cuda"}, "/usr/local/cuda/lib64/libnvrtc.so.13")
	if got := nvrtcCandidates(env); len(got) != 3 || got[0] != "/usr/local/cuda/lib64/libnvrtc.so.13" {
		t.Errorf("duplicate candidates: %q", got)
	}
}

func TestLoadNVRTCNotFound(t *testing.T) {
	_, err := loadNVRTC([]string{"/nonexistent/libnvrtc.so.13", "libgscript-no-nvrtc.so.1"})
	if !errors.Is(err, ErrNotAvailable) || !strings.Contains(err.Error(), "NVRTC (the CUDA runtime compiler) not found") {
		t.Errorf("got %v", err)
	}
	// A library without the NVRTC symbols is named as unusable.
	_, err = loadNVRTC([]string{"libc.so.6"})
	if err == nil || !strings.Contains(err.Error(), "libc.so.6 (lacks nvrtcVersion)") {
		t.Errorf("got %v", err)
	}
}

func TestWantsCUBIN(t *testing.T) {
	cases := map[string]bool{
		"":                          false,
		"-arch=sm_90":               true,
		"--gpu-architecture=sm_90a": true,
		"-arch=compute_90":          false,
		"--gpu-architecture=compute_90 -lineinfo": false,
		"-arch sm_80":                               true,
		"-arch=compute_80 -arch=sm_90":              true, // the last one wins
		"-arch=sm_90 --gpu-architecture=compute_90": false,
		"-default-device -std=c++17":                false,
	}
	for opts, want := range cases {
		if got := wantsCUBIN(strings.Fields(opts)); got != want {
			t.Errorf("wantsCUBIN(%q) = %v, want %v", opts, got, want)
		}
	}
}

func TestFirstError(t *testing.T) {
	log := "k.cu(3): warning: unused\nk.cu(5): error: identifier \"y\" is undefined\n\n1 error detected"
	if got := firstError(log); got != `k.cu(5): error: identifier "y" is undefined` {
		t.Errorf("got %q", got)
	}
	if got := firstError(""); got != "see the compile log" {
		t.Errorf("got %q", got)
	}
}

func TestNVRTCIdentity(t *testing.T) {
	root := t.TempDir()
	lib := filepath.Join(root, "lib64")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(lib, "libnvrtc.so.13.0.88"), []byte("not really a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("libnvrtc.so.13.0.88", filepath.Join(lib, "libnvrtc.so.13")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CUDA_HOME", root)
	id, ok := NVRTCIdentity()
	if !ok || !strings.Contains(id, "libnvrtc.so.13.0.88 size=20 mtime=") {
		t.Fatalf("NVRTCIdentity = %q, %v", id, ok)
	}
}
