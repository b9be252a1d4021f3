package stdlib

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// DeviceNames lists the devices of this machine: cpu, then cuda:0...
func DeviceNames() []string {
	names := []string{"cpu"}
	for i := 0; i < mem.CUDADeviceCount(); i++ {
		names = append(names, fmt.Sprintf("cuda:%d", i))
	}
	return names
}

func devices(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, 0); err != nil {
		return nil, err
	}
	l := interp.NewList()
	for _, n := range DeviceNames() {
		if err := th.Append(l, interp.String(n)); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// capabilityNames are the MEMORY.md section 3 capabilities, all false on cpu.
var capabilityNames = []string{
	"unified_addressing", "managed_memory", "concurrent_managed_access", "pageable_memory_access",
	"pageable_memory_access_uses_host_page_tables", "direct_managed_mem_access_from_host",
	"host_native_atomic_supported", "memory_pools_supported", "integrated", "can_map_host_memory",
}

func capabilityValues(c mem.Caps) []bool {
	return []bool{c.UnifiedAddressing, c.ManagedMemory, c.ConcurrentManagedAccess, c.PageableMemoryAccess,
		c.PageableMemoryAccessUsesHostPageTables, c.DirectManagedMemAccessFromHost,
		c.HostNativeAtomicSupported, c.MemoryPoolsSupported, c.Integrated, c.CanMapHostMemory}
}

// DeviceInfo describes dev as the record device_info returns.
func DeviceInfo(dev mem.Device) (*interp.Record, error) {
	r := &interp.Record{}
	add := func(n string, v interp.Value) { r.Names = append(r.Names, n); r.Values = append(r.Values, v) }
	add("device", interp.String(dev.String()))
	if !dev.IsCUDA() {
		add("name", interp.String("cpu"))
		add("paradigm", interp.String("host"))
		for _, c := range capabilityNames {
			add(c, interp.Bool(false))
		}
		_, total := hostMemory()
		add("total_memory", interp.Int(total))
		return r, nil
	}
	info, err := mem.Props(dev)
	if err != nil {
		return nil, err
	}
	add("name", interp.String(info.Name))
	add("paradigm", interp.String(info.Paradigm))
	for i, v := range capabilityValues(info.Caps) {
		add(capabilityNames[i], interp.Bool(v))
	}
	add("total_memory", interp.Int(int64(info.TotalMem)))
	add("compute_capability", interp.String(fmt.Sprintf("%d.%d", info.Major, info.Minor)))
	add("multiprocessor_count", interp.Int(info.Multiprocessors))
	return r, nil
}

func deviceInfo(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, 1); err != nil {
		return nil, err
	}
	dev, err := th.DeviceArg(args.Get(0, ""))
	if err != nil {
		return nil, err
	}
	return DeviceInfo(dev)
}

func memInfo(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, 1); err != nil {
		return nil, err
	}
	dev, err := th.DeviceArg(args.Get(0, ""))
	if err != nil {
		return nil, err
	}
	free, total := hostMemory()
	var cached int64
	if dev.IsCUDA() {
		if free, total, err = mem.DeviceMemory(dev); err != nil {
			return nil, err
		}
		if cached, err = mem.PoolCached(dev); err != nil {
			return nil, err
		}
	}
	var arrays []interp.Value
	used := 0
	for _, b := range th.Tracker.Live() {
		if b.Device != dev {
			continue
		}
		used += b.Bytes
		arrays = append(arrays, &interp.Record{
			Names:  []string{"device", "kind", "bytes", "allocator"},
			Values: []interp.Value{interp.String(b.Device.String()), interp.Kind(b.Kind), interp.Int(b.Bytes), interp.String(b.Allocator)},
		})
	}
	return &interp.Record{
		Names:  []string{"device", "free", "total", "used_by_arrays", "cached", "arrays"},
		Values: []interp.Value{interp.String(dev.String()), interp.Int(free), interp.Int(total), interp.Int(used), interp.Int(cached), interp.NewList(arrays...)},
	}, nil
}

// hostMemory reads MemAvailable and MemTotal from /proc/meminfo (0 where
// it cannot be read).
func hostMemory() (free, total int64) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		kb, err := strconv.ParseInt(fields[1], 10, 64)
		if err != nil {
			continue
		}
		switch fields[0] {
		case "MemAvailable:":
			free = kb * 1024
		case "MemTotal:":
			total = kb * 1024
		}
	}
	return free, total
}

// freeCached returns the memory that allocator pools keep for reuse on a
// device (every device without one) and the number of bytes it released
// from the default pools: the pools keep freed memory across
// synchronize() (runtime/mem's pool cache), and an allocation that fails
// trims them itself, so a script needs this only to hand memory to other
// programs.
func freeCached(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	devs, err := devicesArg(th, args)
	if err != nil {
		return nil, err
	}
	var released int64
	for _, dev := range devs {
		before, err := mem.PoolCached(dev)
		if err != nil {
			return nil, err
		}
		if err := th.Allocs.TrimCaches(dev); err != nil {
			return nil, err
		}
		after, err := mem.PoolCached(dev)
		if err != nil {
			return nil, err
		}
		released += max(before-after, 0)
	}
	return interp.Int(released), nil
}

// devicesArg is the device an optional argument names, or every device.
func devicesArg(th *interp.Thread, args *interp.Args) ([]mem.Device, error) {
	if err := args.Check(0, 1); err != nil {
		return nil, err
	}
	if v := args.Get(0, ""); v != nil {
		dev, err := th.DeviceArg(v)
		return []mem.Device{dev}, err
	}
	var devs []mem.Device
	for _, name := range DeviceNames() {
		dev, err := mem.ParseDevice(name)
		if err != nil {
			return nil, err
		}
		devs = append(devs, dev)
	}
	return devs, nil
}

func synchronize(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	devs, err := devicesArg(th, args)
	if err != nil {
		return nil, err
	}
	for _, dev := range devs {
		if err := th.SyncDevice(dev); err != nil {
			return nil, err
		}
	}
	return interp.Nil, nil
}
