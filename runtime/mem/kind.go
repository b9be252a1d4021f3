package mem

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is the class of pointer behind an array (MEMORY.md section 1). The
// values are part of the language: int(CUDA_MANAGED) is 5.
type Kind int

const (
	Unknown     Kind = 0
	Host        Kind = 1
	Pinned      Kind = 2
	CUDADevice  Kind = 3
	CUDAMempool Kind = 4
	CUDAManaged Kind = 5
)

var kindNames = [...]string{"UNKNOWN", "HOST", "PINNED", "CUDA_DEVICE", "CUDA_MEMPOOL", "CUDA_MANAGED"}

// Kinds lists every kind in value order.
var Kinds = []Kind{Unknown, Host, Pinned, CUDADevice, CUDAMempool, CUDAManaged}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// DeviceType separates the CPU from CUDA devices.
type DeviceType uint8

const (
	CPU DeviceType = iota
	CUDA
)

// Device names a device: cpu, or cuda:N.
type Device struct {
	Type    DeviceType
	Ordinal int
}

// CPUDevice is the cpu device.
var CPUDevice = Device{Type: CPU}

func (d Device) String() string {
	if d.Type == CPU {
		return "cpu"
	}
	return "cuda:" + strconv.Itoa(d.Ordinal)
}

// IsCUDA reports whether d is a CUDA device.
func (d Device) IsCUDA() bool { return d.Type == CUDA }

// ParseDevice parses "cpu" or "cuda:N". The bare "cuda" (the current CUDA
// device) depends on interpreter state and is resolved by the caller.
func ParseDevice(s string) (Device, error) {
	if s == "cpu" {
		return CPUDevice, nil
	}
	if rest, ok := strings.CutPrefix(s, "cuda:"); ok {
		n, err := strconv.Atoi(rest)
		if err == nil && n >= 0 && rest == strconv.Itoa(n) {
			return Device{Type: CUDA, Ordinal: n}, nil
		}
	}
	return Device{}, fmt.Errorf("invalid device %q: want \"cpu\", \"cuda\" or \"cuda:N\"", s)
}
