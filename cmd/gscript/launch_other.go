//go:build !linux

package main

import "syscall"

// childAttr: the ranks share the launcher's process group (there is no
// parent-death signal to kill a rank the launcher leaves behind).
func childAttr() *syscall.SysProcAttr { return nil }
