package cuda

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Error is a failed CUDA driver or NVRTC call: the function that failed and
// the library's own name and description of the result code.
type Error struct {
	Code int    // CUresult or nvrtcResult value
	Name string // e.g. CUDA_ERROR_OUT_OF_MEMORY
	Msg  string // e.g. out of memory
	Func string // e.g. cuMemAlloc_v2
}

// Error formats as "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY: out of memory".
func (e *Error) Error() string {
	s := e.Func + ": " + e.Name
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	return s
}

// Result codes that callers of this package test for (the full list is
// CUresult in cuda.h; IsCode works with any of them).
const (
	CodeInvalidValue             = 1
	CodeOutOfMemory              = 2
	CodeNotInitialized           = 3
	CodeNoDevice                 = 100
	CodeInvalidContext           = 201
	CodeNotFound                 = 500
	CodeNotReady                 = 600
	CodeIllegalAddress           = 700
	CodePeerAccessAlreadyEnabled = 704
	CodePeerAccessNotEnabled     = 705
	CodeNotPermitted             = 800
	CodeNotSupported             = 801
	CodeStreamCaptureUnsupported = 900
	CodeStreamCaptureInvalidated = 901
	CodeStreamCaptureWrongThread = 908
)

// IsCode reports whether err is (or wraps) a CUDA *Error with this code.
func IsCode(err error, code int) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// ErrNotAvailable is wrapped by every error that means "this process cannot
// use CUDA at all": no driver library, a driver too old, cuInit failing.
var ErrNotAvailable = errors.New("CUDA is not available")

// ErrNoDevice is wrapped when the driver works but reports no device.
var ErrNoDevice = errors.New("no CUDA device found")

// SymbolError is a call to a driver or NVRTC function that the loaded
// library does not export (an older driver than the call needs).
type SymbolError struct {
	Lib, Symbol string
}

func (e *SymbolError) Error() string {
	return fmt.Sprintf("%s: not exported by %s (the installed library is too old for this call)", e.Symbol, e.Lib)
}

// loadLibError explains a failed dlopen of lib: a missing file is the common
// case and gets the install hint; anything else keeps the loader's words.
func loadLibError(lib, dlerr, hint string) error {
	if dlerr == "" || containsAny(dlerr, "No such file", "not found", "cannot open shared object") {
		return fmt.Errorf("%w: %s not found (%s)", ErrNotAvailable, lib, hint)
	}
	return fmt.Errorf("%w: cannot load %s: %s", ErrNotAvailable, lib, dlerr)
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// fallbackName names a CUresult when cuGetErrorName cannot (a code newer
// than the driver, or the driver itself failing).
func fallbackName(code int) string {
	if n, ok := cuResultNames[code]; ok {
		return n
	}
	return "CUresult(" + strconv.Itoa(code) + ")"
}

// cuResultNames is CUresult from cuda.h (CUDA 13.0).
var cuResultNames = map[int]string{
	0:   "CUDA_SUCCESS",
	1:   "CUDA_ERROR_INVALID_VALUE",
	2:   "CUDA_ERROR_OUT_OF_MEMORY",
	3:   "CUDA_ERROR_NOT_INITIALIZED",
	4:   "CUDA_ERROR_DEINITIALIZED",
	5:   "CUDA_ERROR_PROFILER_DISABLED",
	6:   "CUDA_ERROR_PROFILER_NOT_INITIALIZED",
	7:   "CUDA_ERROR_PROFILER_ALREADY_STARTED",
	8:   "CUDA_ERROR_PROFILER_ALREADY_STOPPED",
	34:  "CUDA_ERROR_STUB_LIBRARY",
	36:  "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER",
	46:  "CUDA_ERROR_DEVICE_UNAVAILABLE",
	100: "CUDA_ERROR_NO_DEVICE",
	101: "CUDA_ERROR_INVALID_DEVICE",
	102: "CUDA_ERROR_DEVICE_NOT_LICENSED",
	200: "CUDA_ERROR_INVALID_IMAGE",
	201: "CUDA_ERROR_INVALID_CONTEXT",
	202: "CUDA_ERROR_CONTEXT_ALREADY_CURRENT",
	205: "CUDA_ERROR_MAP_FAILED",
	206: "CUDA_ERROR_UNMAP_FAILED",
	207: "CUDA_ERROR_ARRAY_IS_MAPPED",
	208: "CUDA_ERROR_ALREADY_MAPPED",
	209: "CUDA_ERROR_NO_BINARY_FOR_GPU",
	210: "CUDA_ERROR_ALREADY_ACQUIRED",
	211: "CUDA_ERROR_NOT_MAPPED",
	212: "CUDA_ERROR_NOT_MAPPED_AS_ARRAY",
	213: "CUDA_ERROR_NOT_MAPPED_AS_POINTER",
	214: "CUDA_ERROR_ECC_UNCORRECTABLE",
	215: "CUDA_ERROR_UNSUPPORTED_LIMIT",
	216: "CUDA_ERROR_CONTEXT_ALREADY_IN_USE",
	217: "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED",
	218: "CUDA_ERROR_INVALID_PTX",
	219: "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT",
	220: "CUDA_ERROR_NVLINK_UNCORRECTABLE",
	221: "CUDA_ERROR_JIT_COMPILER_NOT_FOUND",
	222: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
	223: "CUDA_ERROR_JIT_COMPILATION_DISABLED",
	224: "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY",
	225: "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC",
	226: "CUDA_ERROR_CONTAINED",
	300: "CUDA_ERROR_INVALID_SOURCE",
	301: "CUDA_ERROR_FILE_NOT_FOUND",
	302: "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND",
	303: "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED",
	304: "CUDA_ERROR_OPERATING_SYSTEM",
	400: "CUDA_ERROR_INVALID_HANDLE",
	401: "CUDA_ERROR_ILLEGAL_STATE",
	402: "CUDA_ERROR_LOSSY_QUERY",
	500: "CUDA_ERROR_NOT_FOUND",
	600: "CUDA_ERROR_NOT_READY",
	700: "CUDA_ERROR_ILLEGAL_ADDRESS",
	701: "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
	702: "CUDA_ERROR_LAUNCH_TIMEOUT",
	703: "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING",
	704: "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED",
	705: "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED",
	708: "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE",
	709: "CUDA_ERROR_CONTEXT_IS_DESTROYED",
	710: "CUDA_ERROR_ASSERT",
	711: "CUDA_ERROR_TOO_MANY_PEERS",
	712: "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
	713: "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
	714: "CUDA_ERROR_HARDWARE_STACK_ERROR",
	715: "CUDA_ERROR_ILLEGAL_INSTRUCTION",
	716: "CUDA_ERROR_MISALIGNED_ADDRESS",
	717: "CUDA_ERROR_INVALID_ADDRESS_SPACE",
	718: "CUDA_ERROR_INVALID_PC",
	719: "CUDA_ERROR_LAUNCH_FAILED",
	720: "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
	721: "CUDA_ERROR_TENSOR_MEMORY_LEAK",
	800: "CUDA_ERROR_NOT_PERMITTED",
	801: "CUDA_ERROR_NOT_SUPPORTED",
	802: "CUDA_ERROR_SYSTEM_NOT_READY",
	803: "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
	804: "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
	805: "CUDA_ERROR_MPS_CONNECTION_FAILED",
	806: "CUDA_ERROR_MPS_RPC_FAILURE",
	807: "CUDA_ERROR_MPS_SERVER_NOT_READY",
	808: "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED",
	809: "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED",
	810: "CUDA_ERROR_MPS_CLIENT_TERMINATED",
	811: "CUDA_ERROR_CDP_NOT_SUPPORTED",
	812: "CUDA_ERROR_CDP_VERSION_MISMATCH",
	900: "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
	901: "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED",
	902: "CUDA_ERROR_STREAM_CAPTURE_MERGE",
	903: "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED",
	904: "CUDA_ERROR_STREAM_CAPTURE_UNJOINED",
	905: "CUDA_ERROR_STREAM_CAPTURE_ISOLATION",
	906: "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT",
	907: "CUDA_ERROR_CAPTURED_EVENT",
	908: "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD",
	909: "CUDA_ERROR_TIMEOUT",
	910: "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE",
	911: "CUDA_ERROR_EXTERNAL_DEVICE",
	912: "CUDA_ERROR_INVALID_CLUSTER_SIZE",
	913: "CUDA_ERROR_FUNCTION_NOT_LOADED",
	914: "CUDA_ERROR_INVALID_RESOURCE_TYPE",
	915: "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION",
	916: "CUDA_ERROR_KEY_ROTATION",
	999: "CUDA_ERROR_UNKNOWN",
}
