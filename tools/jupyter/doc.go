// Package jupyter is gscript's Jupyter kernel: the messaging protocol 5.3
// over ZeroMQ (github.com/go-zeromq/zmq4, pure Go, so the command stays
// CGO_ENABLED=0), signed with HMAC-SHA256, serving one interpreter per
// kernel so that names, arrays and device memory persist across cells as
// in the REPL. `gscript jupyter kernel -f FILE` runs Serve; `gscript
// jupyter install` writes the kernelspec (InstallSpec).
package jupyter
