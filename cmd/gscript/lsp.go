package main

import (
	"context"
	"io"

	"github.com/gscript-lang/gscript/tools/lsp"
)

// lspCommand is `gscript lsp`: the language server on stdin and stdout
// until the client's exit. --stdio, which clients such as VS Code's pass
// to say the transport, is the only one there is and is accepted.
func lspCommand(args []string, stdin io.Reader, stdout io.Writer) error {
	for _, a := range args {
		if a != "--stdio" {
			return usageError("lsp takes no arguments but --stdio (it serves on stdin and stdout)")
		}
	}
	if code := lsp.Serve(context.Background(), stdin, stdout, version); code != 0 {
		return &exitError{code: code}
	}
	return nil
}
