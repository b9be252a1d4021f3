package stdlib

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/interp"
)

func devices(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, 0); err != nil {
		return nil, err
	}
	return &interp.List{Elems: []interp.Value{interp.String("cpu")}}, nil
}

// capabilityNames are the MEMORY.md section 3 capabilities, all false on cpu.
var capabilityNames = []string{
	"unified_addressing", "managed_memory", "concurrent_managed_access", "pageable_memory_access",
	"pageable_memory_access_uses_host_page_tables", "direct_managed_mem_access_from_host",
	"host_native_atomic_supported", "memory_pools_supported", "integrated", "can_map_host_memory",
}

func deviceInfo(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, 1); err != nil {
		return nil, err
	}
	dev, err := th.DeviceArg(args.Get(0, ""))
	if err != nil {
		return nil, err
	}
	r := &interp.Record{}
	add := func(n string, v interp.Value) { r.Names = append(r.Names, n); r.Values = append(r.Values, v) }
	add("device", interp.String(dev.String()))
	add("name", interp.String("cpu"))
	add("paradigm", interp.String("host"))
	for _, c := range capabilityNames {
		add(c, interp.Bool(false))
	}
	_, total := hostMemory()
	add("total_memory", interp.Int(total))
	return r, nil
}

func canAccess(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	dev, err := th.DeviceArg(args.Positional[0])
	if err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 1)
	if err != nil {
		return nil, err
	}
	return interp.Bool(a.Device() == dev), nil
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
	arrays := &interp.List{}
	used := 0
	for _, b := range th.Tracker.Live() {
		if b.Device != dev {
			continue
		}
		used += b.Bytes
		arrays.Elems = append(arrays.Elems, &interp.Record{
			Names:  []string{"device", "kind", "bytes", "allocator"},
			Values: []interp.Value{interp.String(b.Device.String()), interp.Kind(b.Kind), interp.Int(b.Bytes), interp.String(b.Allocator)},
		})
	}
	return &interp.Record{
		Names:  []string{"device", "free", "total", "used_by_arrays", "arrays"},
		Values: []interp.Value{interp.String(dev.String()), interp.Int(free), interp.Int(total), interp.Int(used), arrays},
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

func synchronize(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, 1); err != nil {
		return nil, err
	}
	if _, err := th.DeviceArg(args.Get(0, "")); err != nil {
		return nil, err
	}
	// cpu launches complete before launch returns: nothing to wait for.
	return interp.Nil, nil
}
