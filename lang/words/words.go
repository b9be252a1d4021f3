// Package words is the one table of the words completion offers, shared
// by the REPL's completer (interp/repl) and the language server
// (tools/lsp), so the two cannot drift apart: the kernel-body words
// here, and for host code the lists the packages that own them keep
// (syntax.Keywords, the interpreter's PredeclaredNames, interp's
// ConfigNames and ArrayAttrNames).
package words

import (
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/lang/check"
)

// KernelKeywords are the keywords of kernel and func bodies.
var KernelKeywords = strings.Fields("let if else for in while break continue return true false shared local")

// KernelValues are the predeclared values a kernel body sees.
var KernelValues = []string{"inf", "nan"}

// Kernel is every word a kernel or func body may use besides the
// script's own names (its funcs, structs and consts): the checker's
// builtins and conversions, the keywords and the values, sorted.
func Kernel() []string {
	out := slices.Concat(check.KernelBuiltins(), KernelKeywords, KernelValues)
	slices.Sort(out)
	return slices.Compact(out)
}

// Components are the lane names of a vector or quaternion of n lanes.
func Components(n int) []string {
	return strings.Split("x y z w", " ")[:min(n, 4)]
}

// StringEnd is the index of the quote closing the string that opens at
// text[i], or the last index when it is not closed (strings end at a
// newline too): the completers that scan a line's text skip strings with
// it.
func StringEnd(text string, i int) int {
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case '"', '\n':
			return j
		}
	}
	return len(text) - 1
}
