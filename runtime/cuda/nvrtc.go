package cuda

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/gscript-lang/gscript/runtime/internal/dl"
)

// NVRTC is the loaded runtime compiler library.
type NVRTC struct {
	path         string
	major, minor int

	nvrtcVersion, nvrtcGetErrorString, nvrtcCreateProgram, nvrtcDestroyProgram proc
	nvrtcCompileProgram, nvrtcGetProgramLogSize, nvrtcGetProgramLog            proc
	nvrtcGetPTXSize, nvrtcGetPTX, nvrtcGetCUBINSize, nvrtcGetCUBIN             proc
}

func (n *NVRTC) table() []symbol {
	r := func(q *proc, name string) symbol { return symbol{q, []string{name}, true} }
	return []symbol{
		r(&n.nvrtcVersion, "nvrtcVersion"), r(&n.nvrtcGetErrorString, "nvrtcGetErrorString"),
		r(&n.nvrtcCreateProgram, "nvrtcCreateProgram"), r(&n.nvrtcDestroyProgram, "nvrtcDestroyProgram"),
		r(&n.nvrtcCompileProgram, "nvrtcCompileProgram"),
		r(&n.nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize"), r(&n.nvrtcGetProgramLog, "nvrtcGetProgramLog"),
		r(&n.nvrtcGetPTXSize, "nvrtcGetPTXSize"), r(&n.nvrtcGetPTX, "nvrtcGetPTX"),
		r(&n.nvrtcGetCUBINSize, "nvrtcGetCUBINSize"), r(&n.nvrtcGetCUBIN, "nvrtcGetCUBIN"),
	}
}

var (
	nvrtcOnce   sync.Once
	nvrtcLoaded *NVRTC
	nvrtcErr    error
)

// LoadNVRTC finds and opens NVRTC once per process (search order in
// nvrtcCandidates).
func LoadNVRTC() (*NVRTC, error) {
	nvrtcOnce.Do(func() { nvrtcLoaded, nvrtcErr = loadNVRTC(nvrtcCandidates(osEnv{})) })
	return nvrtcLoaded, nvrtcErr
}

// loadNVRTC opens the first candidate that loads and has every symbol.
func loadNVRTC(candidates []string) (*NVRTC, error) {
	var tried []string
	for _, c := range candidates {
		lib, err := dl.Open(c, true)
		if err != nil {
			continue
		}
		n := &NVRTC{path: c}
		missing := ""
		for _, s := range n.table() {
			s.p.names = s.names
			if s.p.addr = dl.Sym(lib, s.names[0]); s.p.addr == 0 && missing == "" {
				missing = s.names[0]
			}
		}
		if missing != "" {
			tried = append(tried, c+" (lacks "+missing+")")
			continue
		}
		if err := n.readVersion(); err != nil {
			return nil, err
		}
		return n, nil
	}
	msg := "NVRTC (the CUDA runtime compiler) not found: install the CUDA toolkit, set CUDA_HOME, or pip install nvidia-cuda-nvrtc"
	if len(tried) > 0 {
		msg += "; unusable: " + strings.Join(tried, ", ")
	}
	return nil, fmt.Errorf("%w: %s", ErrNotAvailable, msg)
}

func (n *NVRTC) readVersion() error {
	var major, minor int32
	if err := n.call2(&n.nvrtcVersion, uintptr(unsafe.Pointer(&major)), uintptr(unsafe.Pointer(&minor))); err != nil {
		return err
	}
	n.major, n.minor = int(major), int(minor)
	return nil
}

// Path is the library that was loaded (a path, or a soname the loader
// resolved).
func (n *NVRTC) Path() string { return n.path }

// Version is NVRTC's CUDA version.
func (n *NVRTC) Version() (major, minor int) { return n.major, n.minor }

// newError names an nvrtcResult. nvrtcGetErrorString returns the enum's
// name ("NVRTC_ERROR_COMPILATION"), so Msg stays empty unless the caller
// has more to say.
func (n *NVRTC) newError(fn string, code int) *Error {
	r, _, _ := purego.SyscallN(n.nvrtcGetErrorString.addr, uintptr(code))
	name := goString(r)
	if name == "" {
		name = fmt.Sprintf("nvrtcResult(%d)", code)
	}
	return &Error{Code: code, Name: name, Func: fn}
}

// Compile compiles CUDA C++ src (name is the file name in diagnostics)
// with opts. With an sm_XX target (-arch=sm_90, --gpu-architecture=sm_90)
// it returns a cubin; otherwise (compute_XX or the default) PTX text
// without a trailing NUL. The log is returned whenever NVRTC wrote one,
// also on failure.
func (n *NVRTC) Compile(src, name string, opts []string) (image []byte, log string, err error) {
	csrc, cname := cString(src), cString(name)
	var prog uintptr
	if err := n.call6(&n.nvrtcCreateProgram, uintptr(unsafe.Pointer(&prog)), uintptr(unsafe.Pointer(&csrc[0])),
		uintptr(unsafe.Pointer(&cname[0])), 0, 0, 0); err != nil {
		return nil, "", err
	}
	defer n.call1(&n.nvrtcDestroyProgram, uintptr(unsafe.Pointer(&prog)))
	cerr := n.compile(prog, opts)
	log, lerr := n.programLog(prog)
	if cerr != nil {
		if e, ok := cerr.(*Error); ok {
			e.Msg = firstError(log)
		}
		return nil, log, cerr
	}
	if lerr != nil {
		return nil, log, lerr
	}
	if wantsCUBIN(opts) {
		image, err = n.output(prog, &n.nvrtcGetCUBINSize, &n.nvrtcGetCUBIN)
	} else {
		image, err = n.output(prog, &n.nvrtcGetPTXSize, &n.nvrtcGetPTX)
		image = trimNUL(image)
	}
	return image, log, err
}

// compile runs nvrtcCompileProgram with opts as C strings.
func (n *NVRTC) compile(prog uintptr, opts []string) error {
	cs := make([][]byte, len(opts))
	ptrs := make([]unsafe.Pointer, len(opts)+1) // +1: never pass an empty array
	for i, o := range opts {
		cs[i] = cString(o)
		ptrs[i] = unsafe.Pointer(&cs[i][0])
	}
	err := n.call3(&n.nvrtcCompileProgram, prog, uintptr(len(opts)), uintptr(unsafe.Pointer(&ptrs[0])))
	runtime.KeepAlive(cs)
	return err
}

func (n *NVRTC) programLog(prog uintptr) (string, error) {
	b, err := n.output(prog, &n.nvrtcGetProgramLogSize, &n.nvrtcGetProgramLog)
	return string(trimNUL(b)), err
}

// output reads one size-then-bytes result (log, PTX or cubin).
func (n *NVRTC) output(prog uintptr, size, get *proc) ([]byte, error) {
	var sz uintptr
	if err := n.call2(size, prog, uintptr(unsafe.Pointer(&sz))); err != nil {
		return nil, err
	}
	if sz == 0 {
		return nil, nil
	}
	b := make([]byte, sz)
	if err := n.call2(get, prog, uintptr(unsafe.Pointer(&b[0]))); err != nil {
		return nil, err
	}
	return b, nil
}

func trimNUL(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return b
}

// wantsCUBIN reports whether opts select a real architecture (sm_XX), for
// which NVRTC can emit a cubin; the last -arch option wins, as in nvcc.
func wantsCUBIN(opts []string) bool {
	arch := ""
	for i, o := range opts {
		switch {
		case o == "-arch" || o == "--gpu-architecture":
			if i+1 < len(opts) {
				arch = opts[i+1]
			}
		case strings.HasPrefix(o, "-arch="):
			arch = strings.TrimPrefix(o, "-arch=")
		case strings.HasPrefix(o, "--gpu-architecture="):
			arch = strings.TrimPrefix(o, "--gpu-architecture=")
		}
	}
	return strings.HasPrefix(arch, "sm_")
}

// firstError picks the first diagnostic line that says "error" from a
// compile log, for the error message (the whole log is returned too).
func firstError(log string) string {
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, "error") {
			return strings.TrimSpace(l)
		}
	}
	return "see the compile log"
}
