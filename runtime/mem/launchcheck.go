package mem

import (
	"fmt"
	"strings"
	"sync"
)

// LaunchMode is config.launch_access (MEMORY.md section 4). The zero
// value is gscript's default, checked.
type LaunchMode uint8

const (
	Checked LaunchMode = iota // INACCESSIBLE is an error, UNKNOWN warns once
	Relaxed                   // no access check (except for cpu launches)
	Strict                    // every array must live on the launch device
)

var launchModeNames = [...]string{"checked", "relaxed", "strict"}

func (m LaunchMode) String() string {
	if int(m) < len(launchModeNames) {
		return launchModeNames[m]
	}
	return fmt.Sprintf("LaunchMode(%d)", int(m))
}

// ParseLaunchMode parses "relaxed", "checked" or "strict".
func ParseLaunchMode(s string) (LaunchMode, error) {
	for i, n := range launchModeNames {
		if s == n {
			return LaunchMode(i), nil
		}
	}
	return 0, fmt.Errorf("invalid launch_access %q: want \"relaxed\", \"checked\" or \"strict\"", s)
}

// LaunchError is an array argument that a launch may not use. Its text
// names the kernel, the parameter and the call site's variable, both
// devices, the memory kind, what failed, and the remedies; it ends with the
// one step explain_access names (MEMORY.md section 9).
type LaunchError struct {
	Kernel    string
	Param     string // the kernel's parameter
	Arg       string // the argument at the call site (the parameter's name when it is no variable)
	LaunchDev Device
	ArrayDev  Device
	Kind      Kind
	Reason    string // the capability or access state that failed
	Fix       Fix    // the one step that would make it accessible
	Strict    bool   // refused by strict mode, not by the access rules
}

func (e *LaunchError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "kernel %s: argument %s is an array on %s (memory_kind=%s)", e.Kernel, argDesc(e.Param, e.Arg), e.ArrayDev, e.Kind)
	if e.Strict {
		fmt.Fprintf(&b, " but the launch is on %s, and launch_access = \"strict\" requires every array on the launch device", e.LaunchDev)
		fmt.Fprintf(&b, "; move it with %s.to(%q), or set config.launch_access = \"checked\" to allow arrays %s can access", e.Arg, e.LaunchDev.String(), e.LaunchDev)
		return b.String()
	}
	fmt.Fprintf(&b, " that launch device %s cannot access: %s", e.LaunchDev, e.Reason)
	fmt.Fprintf(&b, "; move it with %s.to(%q)", e.Arg, e.LaunchDev.String())
	if e.LaunchDev.IsCUDA() {
		b.WriteString(", enable peer or pool access between the devices, use managed memory, or set config.launch_access = \"relaxed\" if the hardware allows it")
	} else {
		b.WriteString(", or use managed memory on a device with concurrent_managed_access (a cpu launch never gets memory the CPU cannot dereference, even in relaxed mode)")
	}
	if e.Fix != FixNone {
		b.WriteString("; remedy: " + e.Fix.Remedy(e.LaunchDev, e.ArrayDev, e.Arg))
	}
	return b.String()
}

// argDesc names a launch argument as "param (variable)", or "param" when
// the call site passes no differently named variable.
func argDesc(param, arg string) string {
	if param == arg || arg == "" {
		return param
	}
	return param + " (" + arg + ")"
}

// warnKey is one (kernel, argument, source device, launch device).
type warnKey struct {
	kernel, arg string
	src, dst    Device
}

// DefaultWarnLimit bounds the warn-once cache of a LaunchChecker.
const DefaultWarnLimit = 1024

// LaunchChecker applies the launch access policy. It keeps the warn-once
// cache for UNKNOWN decisions, bounded: past Limit keys the oldest is
// forgotten (and may warn again). Safe for concurrent use.
type LaunchChecker struct {
	State *AccessState
	Warn  func(msg string) // nil drops warnings
	Limit int              // 0: DefaultWarnLimit

	mu     sync.Mutex
	warned map[warnKey]struct{}
	ring   []warnKey
	next   int
}

// NewLaunchChecker returns a checker deciding with state and warning
// through warn.
func NewLaunchChecker(state *AccessState, warn func(string)) *LaunchChecker {
	return &LaunchChecker{State: state, Warn: warn}
}

// Check decides whether a launch of kernel on launchDev may receive a for
// parameter param, passed as argName at the call site, under mode. A nil
// error means go ahead.
func (c *LaunchChecker) Check(mode LaunchMode, kernel, param, argName string, launchDev Device, a *Array) error {
	if a.Freed() {
		return fmt.Errorf("kernel %s: argument %s: %w", kernel, argDesc(param, argName), ErrFreed)
	}
	owner := a.Device()
	if owner == launchDev {
		return nil
	}
	if mode == Strict {
		return &LaunchError{Kernel: kernel, Param: param, Arg: argName, LaunchDev: launchDev, ArrayDev: owner, Kind: a.Kind(), Strict: true}
	}
	r := c.State.CanAccess(launchDev, a)
	switch {
	case r.Access == Accessible:
		return nil
	case !launchDev.IsCUDA():
		// The CPU would crash on memory it cannot dereference: refused in
		// every mode, UNKNOWN included.
	case mode == Relaxed:
		return nil
	case r.Access == AccessUnknown:
		c.warnOnce(kernel, argDesc(param, argName), owner, launchDev, a.Kind(), r.Reason)
		return nil
	}
	return &LaunchError{Kernel: kernel, Param: param, Arg: argName, LaunchDev: launchDev, ArrayDev: owner, Kind: a.Kind(), Reason: r.Reason, Fix: r.Fix}
}

func (c *LaunchChecker) warnOnce(kernel, arg string, src, dst Device, kind Kind, reason string) {
	k := warnKey{kernel, arg, src, dst}
	c.mu.Lock()
	_, seen := c.warned[k]
	if !seen {
		c.remember(k)
	}
	c.mu.Unlock()
	if seen || c.Warn == nil {
		return
	}
	c.Warn(fmt.Sprintf("kernel %s: argument %s is an array on %s (memory_kind=%s) whose accessibility from %s cannot be proven (%s); launching anyway (warned once per kernel, argument and devices)",
		kernel, arg, src, kind, dst, reason))
}

// remember adds k to the bounded cache (c.mu held).
func (c *LaunchChecker) remember(k warnKey) {
	limit := c.Limit
	if limit <= 0 {
		limit = DefaultWarnLimit
	}
	if c.warned == nil {
		c.warned = map[warnKey]struct{}{}
	}
	if len(c.ring) < limit {
		c.ring = append(c.ring, k)
	} else {
		delete(c.warned, c.ring[c.next])
		c.ring[c.next] = k
		c.next = (c.next + 1) % limit
	}
	c.warned[k] = struct{}{}
}

// WarnCacheLen is the number of remembered warnings.
func (c *LaunchChecker) WarnCacheLen() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.warned)
}
