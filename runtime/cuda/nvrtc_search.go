package cuda

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// searchEnv is what the NVRTC search looks at: the environment and the
// file system. Tests give it a fake one.
type searchEnv interface {
	Getenv(key string) string
	Glob(pattern string) []string // sorted matches, nil on error
	Exists(path string) bool
}

// osEnv is the real process environment and file system.
type osEnv struct{}

func (osEnv) Getenv(k string) string { return os.Getenv(k) }

func (osEnv) Glob(p string) []string {
	m, _ := filepath.Glob(p)
	sort.Strings(m)
	return m
}

func (osEnv) Exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// nvrtcSonames are the library names tried in each directory, newest
// first; the unversioned name comes last (it is a development symlink).
var nvrtcSonames = []string{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}

// nvrtcCandidates lists what LoadNVRTC tries, in order: existing files in
// $CUDA_HOME/lib64, $CUDA_PATH/lib64 and /usr/local/cuda/lib64; the bare
// sonames libnvrtc.so.13 and .12, which the dynamic loader resolves through
// its own path (LD_LIBRARY_PATH, ld.so.cache); then the NVIDIA pip wheels
// in every Python site directory found (nvidia/cuda_nvrtc/lib for CUDA 12
// wheels, nvidia/cu13/lib for CUDA 13 wheels). Duplicates are dropped.
func nvrtcCandidates(env searchEnv) []string {
	return toolkitCandidates(env, nvrtcSonames, "cuda_nvrtc")
}

// cublasSonames are cuBLAS's library names, in nvrtcSonames' order.
var cublasSonames = []string{"libcublas.so.13", "libcublas.so.12", "libcublas.so"}

// cublasCandidates lists what LoadCUBLAS tries: the places NVRTC is looked
// for, in the same order (cuBLAS ships beside it in the toolkit's lib64;
// its CUDA 12 wheel is nvidia/cublas/lib).
func cublasCandidates(env searchEnv) []string {
	return toolkitCandidates(env, cublasSonames, "cublas")
}

// toolkitCandidates is the search of a CUDA toolkit library with these
// sonames (versioned ones first, the unversioned development link last)
// whose CUDA 12 pip wheel is nvidia/<wheel>/lib.
func toolkitCandidates(env searchEnv, sonames []string, wheel string) []string {
	var dirs []string
	for _, v := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if root := env.Getenv(v); root != "" {
			dirs = append(dirs, filepath.Join(root, "lib64"))
		}
	}
	dirs = append(dirs, "/usr/local/cuda/lib64")
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	addDir := func(dir string) {
		for _, n := range sonames {
			if p := filepath.Join(dir, n); env.Exists(p) {
				add(p)
			}
		}
	}
	for _, d := range dirs {
		addDir(d)
	}
	for _, n := range sonames[:len(sonames)-1] {
		add(n)
	}
	for _, site := range siteDirs(env) {
		addDir(filepath.Join(site, "nvidia", wheel, "lib"))
		addDir(filepath.Join(site, "nvidia", "cu13", "lib"))
	}
	return out
}

// siteDirs lists Python site directories: $PYTHONPATH entries, the active
// virtual environment and conda environment, the user site, then the
// system ones under /usr/local/lib and /usr/lib.
func siteDirs(env searchEnv) []string {
	var out []string
	for _, p := range strings.Split(env.Getenv("PYTHONPATH"), ":") {
		if p != "" {
			out = append(out, p)
		}
	}
	prefixes := []string{}
	for _, v := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
		if root := env.Getenv(v); root != "" {
			prefixes = append(prefixes, filepath.Join(root, "lib"))
		}
	}
	if home := env.Getenv("HOME"); home != "" {
		prefixes = append(prefixes, filepath.Join(home, ".local", "lib"))
	}
	prefixes = append(prefixes, "/usr/local/lib", "/usr/lib")
	for _, pre := range prefixes {
		for _, py := range env.Glob(filepath.Join(pre, "python3*")) {
			for _, sub := range []string{"site-packages", "dist-packages"} {
				if d := filepath.Join(py, sub); env.Exists(d) {
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// NVRTCIdentity names the NVRTC library that LoadNVRTC would open, without
// opening it: the resolved file of the first candidate that is a path (its
// name carries the full version, e.g. libnvrtc.so.13.0.88), with its size
// and modification time. ok is false when the first candidate is a bare
// soname that only the dynamic loader can resolve; then the caller must
// load NVRTC to learn its version. The kernel cache keys on this so that a
// warm start never pays for loading NVRTC (over 100 ms on the H200).
func NVRTCIdentity() (id string, ok bool) {
	cands := nvrtcCandidates(osEnv{})
	if len(cands) == 0 || !filepath.IsAbs(cands[0]) {
		return "", false
	}
	p, err := filepath.EvalSymlinks(cands[0])
	if err != nil {
		return "", false
	}
	st, err := os.Stat(p)
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("%s size=%d mtime=%d", p, st.Size(), st.ModTime().UnixNano()), true
}
