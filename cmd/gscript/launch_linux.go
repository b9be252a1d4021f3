package main

import "syscall"

// childAttr puts each rank in a process group of its own, so that a
// terminal's Ctrl-C reaches the launcher alone (which passes it on
// once), and kills the rank if the launcher dies.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
