package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/dist"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// writeDevices writes the device table: one row per device with its
// memory, paradigm and capabilities, then the cpu's BLAS library (OpenBLAS
// or gonum, and why) and, with CUDA devices, the NCCL that their
// collectives use. `gscript devices` prints it, and the
// REPL's :devices through repl.Options.Devices, so both show the same.
func writeDevices(w io.Writer) error {
	caps := []string{"managed", "concurrent", "pageable", "host_page_tables", "direct_host", "host_atomics", "pools", "unified"}
	fmt.Fprintf(w, "%-8s %-26s %-4s %-5s %-9s %-13s %s\n", "DEVICE", "NAME", "CC", "SMs", "MEMORY", "PARADIGM", strings.Join(caps, " "))
	for _, name := range stdlib.DeviceNames() {
		dev, err := mem.ParseDevice(name)
		if err != nil {
			return err
		}
		r, err := stdlib.DeviceInfo(dev)
		if err != nil {
			fmt.Fprintf(w, "%-8s %v\n", name, err)
			continue
		}
		get := func(n string) interp.Value { v, _ := r.Get(n); return v }
		if !dev.IsCUDA() {
			fmt.Fprintf(w, "%-8s %-26s %-4s %-5d %-9s %-13s %s\n", name, fmt.Sprintf("cpu (%d cores)", runtime.NumCPU()), "-", 0, gib(get("total_memory")), "host", "-")
			continue
		}
		var flags []string
		for i, n := range []string{"managed_memory", "concurrent_managed_access", "pageable_memory_access",
			"pageable_memory_access_uses_host_page_tables", "direct_managed_mem_access_from_host",
			"host_native_atomic_supported", "memory_pools_supported", "unified_addressing"} {
			flags = append(flags, fmt.Sprintf("%*s", len(caps[i]), get(n)))
		}
		fmt.Fprintf(w, "%-8s %-26s %-4s %-5s %-9s %-13s %s\n", name, get("name"), get("compute_capability"),
			get("multiprocessor_count"), gib(get("total_memory")), get("paradigm"), strings.Join(flags, " "))
	}
	if b := backend.BLASName(mem.Device{Type: mem.CPU}); b != "" {
		fmt.Fprintf(w, "cpu matmul: %s\n", b)
	}
	if n := mem.CUDADeviceCount(); n == 0 {
		if err := mem.CUDAAvailable(); err != nil {
			fmt.Fprintf(w, "(no CUDA devices: %v)\n", err)
		}
		return nil
	}
	if info, err := dist.NCCLInfo(); err != nil {
		fmt.Fprintf(w, "collectives on CUDA arrays: none (%v)\n", err)
	} else {
		fmt.Fprintf(w, "collectives on CUDA arrays: %s\n", info)
	}
	return nil
}

func gib(v interp.Value) string {
	n, ok := v.(interp.Int)
	if !ok {
		return "?"
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
