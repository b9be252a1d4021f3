package cuda

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/gscript-lang/gscript/runtime/internal/dl"
)

// NCCL is the loaded NCCL library (libnccl.so.2): the communicator and
// collective entry points, called as nccl.h of NCCL 2.28 declares them.
// Policy (which ranks, checks, timeouts, aborts) is the caller's
// (runtime/dist).
type NCCL struct {
	path    string
	version int

	ncclGetVersion, ncclGetUniqueId, ncclCommInitRankScalable           proc
	ncclCommDestroy, ncclCommAbort, ncclCommGetAsyncError               proc
	ncclGetErrorString, ncclGetLastError                                proc
	ncclAllReduce, ncclBroadcast, ncclReduce, ncclAllGather             proc
	ncclReduceScatter, ncclSend, ncclRecv, ncclGroupStart, ncclGroupEnd proc
}

func (n *NCCL) table() []symbol {
	r := func(q *proc, name string) symbol { return symbol{q, []string{name}, true} }
	return []symbol{
		r(&n.ncclGetVersion, "ncclGetVersion"), r(&n.ncclGetUniqueId, "ncclGetUniqueId"),
		{&n.ncclCommInitRankScalable, []string{"ncclCommInitRankScalable"}, false}, // NCCL 2.23
		r(&n.ncclCommDestroy, "ncclCommDestroy"), r(&n.ncclCommAbort, "ncclCommAbort"),
		r(&n.ncclCommGetAsyncError, "ncclCommGetAsyncError"), r(&n.ncclGetErrorString, "ncclGetErrorString"),
		{&n.ncclGetLastError, []string{"ncclGetLastError"}, false}, // NCCL 2.13
		r(&n.ncclAllReduce, "ncclAllReduce"), r(&n.ncclBroadcast, "ncclBroadcast"), r(&n.ncclReduce, "ncclReduce"),
		r(&n.ncclAllGather, "ncclAllGather"), r(&n.ncclReduceScatter, "ncclReduceScatter"),
		r(&n.ncclSend, "ncclSend"), r(&n.ncclRecv, "ncclRecv"),
		r(&n.ncclGroupStart, "ncclGroupStart"), r(&n.ncclGroupEnd, "ncclGroupEnd"),
	}
}

// Comm is an ncclComm_t.
type Comm uintptr

// UniqueID is an ncclUniqueId: NCCL_UNIQUE_ID_BYTES opaque bytes that
// rank 0 makes and every rank passes to the communicator's init.
type UniqueID [128]byte

// NCCLType is an ncclDataType_t.
type NCCLType int32

// The data types (ncclDataType_t).
const (
	NCCLInt8    NCCLType = 0
	NCCLUint8   NCCLType = 1
	NCCLInt32   NCCLType = 2
	NCCLUint32  NCCLType = 3
	NCCLInt64   NCCLType = 4
	NCCLUint64  NCCLType = 5
	NCCLFloat16 NCCLType = 6
	NCCLFloat32 NCCLType = 7
	NCCLFloat64 NCCLType = 8
)

// NCCLOp is an ncclRedOp_t.
type NCCLOp int32

// The reductions (ncclRedOp_t).
const (
	NCCLSum  NCCLOp = 0
	NCCLProd NCCLOp = 1
	NCCLMax  NCCLOp = 2
	NCCLMin  NCCLOp = 3
	NCCLAvg  NCCLOp = 4
)

// Results (ncclResult_t) that callers test for with IsCode.
const (
	NCCLInvalidUsage = 5
	NCCLRemoteError  = 6
	NCCLInProgress   = 7
)

// ncclResultNames is ncclResult_t from nccl.h.
var ncclResultNames = map[int]string{
	1: "ncclUnhandledCudaError", 2: "ncclSystemError", 3: "ncclInternalError", 4: "ncclInvalidArgument",
	5: "ncclInvalidUsage", 6: "ncclRemoteError", 7: "ncclInProgress", 8: "ncclTimeout",
}

var (
	ncclOnce   sync.Once
	ncclLoaded *NCCL
	ncclErr    error
)

// ErrNoNCCL is wrapped by LoadNCCL's error.
var ErrNoNCCL = errors.New("NCCL not found")

var ncclSonames = []string{"libnccl.so.2", "libnccl.so"}

// LoadNCCL finds and opens NCCL once per process: the loader's path, the
// CUDA toolkit's lib64 and the nvidia-nccl pip wheels, as for cuBLAS. The
// error wraps ErrNoNCCL and says what to install.
func LoadNCCL() (*NCCL, error) {
	ncclOnce.Do(func() { ncclLoaded, ncclErr = loadNCCL(toolkitCandidates(osEnv{}, ncclSonames, "nccl")) })
	return ncclLoaded, ncclErr
}

func loadNCCL(candidates []string) (*NCCL, error) {
	var tried []string
	for _, cand := range candidates {
		lib, err := dl.Open(cand, false)
		if err != nil {
			continue
		}
		n := &NCCL{path: cand}
		missing := ""
		for _, s := range n.table() {
			s.p.names = s.names
			if s.p.addr = dl.Sym(lib, s.names[0]); s.p.addr == 0 && s.required && missing == "" {
				missing = s.names[0]
			}
		}
		if missing == "" {
			var v int32
			missing = "ncclGetVersion's answer"
			if n.call1(&n.ncclGetVersion, uintptr(unsafe.Pointer(&v))) == nil {
				n.version, missing = int(v), ""
			}
		}
		if missing != "" {
			tried = append(tried, cand+" (lacks "+missing+")")
			continue
		}
		return n, nil
	}
	msg := "libnccl.so.2 in the loader's path, the CUDA toolkit's lib64 or a pip wheel" +
		" (install NCCL: apt-get install libnccl2, or pip install nvidia-nccl-cu12)"
	if len(tried) > 0 {
		msg += "; unusable: " + strings.Join(tried, ", ")
	}
	return nil, fmt.Errorf("%w: %s", ErrNoNCCL, msg)
}

// Path is the library that was loaded.
func (n *NCCL) Path() string { return n.path }

// Version is NCCL_VERSION_CODE of the library (22803 for 2.28.3).
func (n *NCCL) Version() int { return n.version }

// VersionString is the version as "2.28.3".
func (n *NCCL) VersionString() string {
	v := n.version
	return fmt.Sprintf("%d.%d.%d", v/10000, v/100%100, v%100)
}

// result turns an ncclResult_t into an error naming the call, with
// NCCL's description of the result.
func (n *NCCL) result(p *proc, r uintptr) error {
	code := int(int32(uint32(r)))
	if code == 0 {
		return nil
	}
	name, ok := ncclResultNames[code]
	if !ok {
		name = "ncclResult_t(" + strconv.Itoa(code) + ")"
	}
	return &Error{Code: code, Name: name, Msg: goString(syscall(n.ncclGetErrorString.addr, uintptr(code))), Func: p.name()}
}

//go:uintptrescapes
func (n *NCCL) call0(p *proc) error { return n.result(p, syscall(p.addr)) }

//go:uintptrescapes
func (n *NCCL) call1(p *proc, a0 uintptr) error { return n.result(p, syscall(p.addr, a0)) }

//go:uintptrescapes
func (n *NCCL) call2(p *proc, a0, a1 uintptr) error { return n.result(p, syscall(p.addr, a0, a1)) }

//go:uintptrescapes
func (n *NCCL) call6(p *proc, a0, a1, a2, a3, a4, a5 uintptr) error {
	return n.result(p, syscall(p.addr, a0, a1, a2, a3, a4, a5))
}

//go:uintptrescapes
func (n *NCCL) call7(p *proc, a0, a1, a2, a3, a4, a5, a6 uintptr) error {
	return n.result(p, syscall(p.addr, a0, a1, a2, a3, a4, a5, a6))
}

//go:uintptrescapes
func (n *NCCL) call8(p *proc, a0, a1, a2, a3, a4, a5, a6, a7 uintptr) error {
	return n.result(p, syscall(p.addr, a0, a1, a2, a3, a4, a5, a6, a7))
}

// GetUniqueID makes the id rank 0 shares with the others (ncclGetUniqueId).
func (n *NCCL) GetUniqueID() (UniqueID, error) {
	var id UniqueID
	err := n.call1(&n.ncclGetUniqueId, uintptr(unsafe.Pointer(&id)))
	return id, err
}

// CommInitRankScalable joins rank of nranks to the communicator of ids
// (ncclCommInitRankScalable, NCCL 2.23; the default config), on the
// device current on the calling thread. Every rank calls it at once.
func (n *NCCL) CommInitRankScalable(nranks, rank int, ids []UniqueID) (Comm, error) {
	if n.ncclCommInitRankScalable.addr == 0 {
		return 0, &SymbolError{Lib: n.path + " (NCCL " + n.VersionString() + "; 2.23 or newer has it)", Symbol: "ncclCommInitRankScalable"}
	}
	var c Comm
	err := n.call6(&n.ncclCommInitRankScalable, uintptr(unsafe.Pointer(&c)), uintptr(nranks), uintptr(rank),
		uintptr(len(ids)), uintptr(unsafe.Pointer(&ids[0])), 0)
	return c, err
}

// CommDestroy frees a communicator after its work (ncclCommDestroy).
func (n *NCCL) CommDestroy(c Comm) error { return n.call1(&n.ncclCommDestroy, uintptr(c)) }

// CommAbort frees a communicator at once, ending its pending work
// (ncclCommAbort).
func (n *NCCL) CommAbort(c Comm) error { return n.call1(&n.ncclCommAbort, uintptr(c)) }

// CommGetAsyncError is the communicator's asynchronous error
// (ncclCommGetAsyncError): nil while all is well, an error wrapping
// NCCLRemoteError when a peer failed.
func (n *NCCL) CommGetAsyncError(c Comm) error {
	var r int32
	if err := n.call2(&n.ncclCommGetAsyncError, uintptr(c), uintptr(unsafe.Pointer(&r))); err != nil {
		return err
	}
	return n.result(&n.ncclCommGetAsyncError, uintptr(uint32(r)))
}

// LastError is NCCL's description of the last error on c
// (ncclGetLastError; "" before NCCL 2.13).
func (n *NCCL) LastError(c Comm) string {
	if n.ncclGetLastError.addr == 0 {
		return ""
	}
	return goString(syscall(n.ncclGetLastError.addr, uintptr(c)))
}

// AllReduce queues ncclAllReduce of count elements on s.
func (n *NCCL) AllReduce(send, recv DevicePtr, count int, t NCCLType, op NCCLOp, c Comm, s Stream) error {
	return n.call7(&n.ncclAllReduce, uintptr(send), uintptr(recv), uintptr(count), uintptr(t), uintptr(op), uintptr(c), uintptr(s))
}

// Broadcast queues ncclBroadcast of root's count elements on s.
func (n *NCCL) Broadcast(send, recv DevicePtr, count int, t NCCLType, root int, c Comm, s Stream) error {
	return n.call7(&n.ncclBroadcast, uintptr(send), uintptr(recv), uintptr(count), uintptr(t), uintptr(root), uintptr(c), uintptr(s))
}

// Reduce queues ncclReduce into root's recv on s.
func (n *NCCL) Reduce(send, recv DevicePtr, count int, t NCCLType, op NCCLOp, root int, c Comm, s Stream) error {
	return n.call8(&n.ncclReduce, uintptr(send), uintptr(recv), uintptr(count), uintptr(t), uintptr(op), uintptr(root), uintptr(c), uintptr(s))
}

// AllGather queues ncclAllGather of sendCount elements per rank on s.
func (n *NCCL) AllGather(send, recv DevicePtr, sendCount int, t NCCLType, c Comm, s Stream) error {
	return n.call6(&n.ncclAllGather, uintptr(send), uintptr(recv), uintptr(sendCount), uintptr(t), uintptr(c), uintptr(s))
}

// ReduceScatter queues ncclReduceScatter, recvCount elements per rank, on s.
func (n *NCCL) ReduceScatter(send, recv DevicePtr, recvCount int, t NCCLType, op NCCLOp, c Comm, s Stream) error {
	return n.call7(&n.ncclReduceScatter, uintptr(send), uintptr(recv), uintptr(recvCount), uintptr(t), uintptr(op), uintptr(c), uintptr(s))
}

// Send queues ncclSend of count elements to peer on s.
func (n *NCCL) Send(buf DevicePtr, count int, t NCCLType, peer int, c Comm, s Stream) error {
	return n.call6(&n.ncclSend, uintptr(buf), uintptr(count), uintptr(t), uintptr(peer), uintptr(c), uintptr(s))
}

// Recv queues ncclRecv of count elements from peer on s.
func (n *NCCL) Recv(buf DevicePtr, count int, t NCCLType, peer int, c Comm, s Stream) error {
	return n.call6(&n.ncclRecv, uintptr(buf), uintptr(count), uintptr(t), uintptr(peer), uintptr(c), uintptr(s))
}

// GroupStart and GroupEnd bracket calls NCCL launches together.
func (n *NCCL) GroupStart() error { return n.call0(&n.ncclGroupStart) }

// GroupEnd ends a group (ncclGroupEnd).
func (n *NCCL) GroupEnd() error { return n.call0(&n.ncclGroupEnd) }
