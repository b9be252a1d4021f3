// Package stdlib holds gscript's host builtins: constructors, reductions,
// .npy, text/CSV and PNG files, printing, formatting and conversions, and
// device queries, with the table of their docs (doc.go). Universe returns
// them for interp.Options.Predeclared.
//
// # Decisions
//
//   - sorted, reversed, enumerate and zip return new lists (not lazy
//     iterators, which the language does not have): `for i, v in
//     enumerate(l)` costs one list of pairs. They and list(x) take any
//     iterable interp.Thread.Collect visits (lists, dict keys, string
//     bytes, array rows). zip stops at the shortest argument (Python's).
//   - dict(x) copies a dict or reads a list of [key, value] pairs; an
//     element that is not a pair is an error naming its index.
//   - error(msg) fails with msg as a plain Go error, positioned by the
//     engine at the call (try/catch catches it); a non-string msg is
//     formatted as str() would.
//   - The collectives (dist.go, docs/distributed.md) return nil except
//     all_gather and reduce_scatter, which return their result (a new
//     array or out=); reduce_scatter splits axis 0 into world_size()
//     parts (torch's reduce_scatter_tensor), all_gather adds a leading
//     axis. Alone each is a copy; send and recv then have no peer and
//     fail. barrier is the host's: it does not wait for queued GPU work.
//   - Gradients (docs/autodiff.md, "Library functions"): every builtin
//     either records its backward on a tape (stdlib/grad_*.go), gives a
//     result without a gradient (grad_dispatch.go's noGradBuiltins), or
//     is refused while a tape records and one of its arguments requires
//     a gradient ("<fn> is not differentiable yet"): refusal is the
//     default, so a new builtin cannot give wrong gradients silently. On
//     a tape a full reduction of such an array is a 1-element array, and
//     writes (a[idx] = v, add_at, copy) into an array that requires a
//     gradient are refused, as PyTorch's in-place writes on leaves.
//   - help finds methods as "type.name" (help("list.append"), or
//     help(l.append): the bound method has that name) and lists them
//     after the builtins.
package stdlib

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

type fn = func(th *interp.Thread, args *interp.Args) (interp.Value, error)

// Universe returns every builtin by name. Each call returns a new map.
func Universe() map[string]interp.Value {
	fns := map[string]fn{
		"print": print, "len": length, "range": rangeList, "type": typeOf,
		"str": str, "int": toInt, "float": toFloat, "time": now, "free": free,
		"zeros": zeros, "ones": ones, "full": full, "empty": empty, "arange": arange,
		"linspace": linspace, "array": array, "load": load, "save": save,
		"copy": copyArray, "fill": fill, "matmul": matmul, "to": to, "reshape": reshape, "transpose": transpose,
		"cdiv": cdiv, "rand": randUniform, "randn": randNormal, "randint": randInt,
		"devices": devices, "device_info": deviceInfo, "can_access": canAccess,
		"mem_info": memInfo, "synchronize": synchronize, "free_cached": freeCached,
		"ipc_handle": ipcHandle, "from_ipc": fromIPC, "enable_peer_access": enablePeerAccess,
		"enable_mempool_access": enableMempoolAccess, "replay": replay,
		"prefetch": prefetch, "advise": advise, "explain_access": explainAccess,
		"format": format, "read_file": readFile, "write_file": writeFile,
		"save_text": saveText, "load_text": loadText, "save_image": saveImage,
		"show": showWith(nil),
		"help": help,
	}
	for name, f := range reductions() {
		fns[name] = f
	}
	for name, f := range mathFuncs() {
		fns[name] = f
	}
	for name, f := range distFuncs() {
		fns[name] = f
	}
	for name, f := range searchFuncs() {
		fns[name] = f
	}
	for name, f := range sortFuncs() {
		fns[name] = f
	}
	for name, f := range shapeFuncs() {
		fns[name] = f
	}
	for name, f := range hostFuncs() {
		fns[name] = f
	}
	for name, f := range indexFuncs() {
		fns[name] = f
	}
	for name, f := range linalgFuncs(fns) {
		fns[name] = f
	}
	for name, f := range autodiffFuncs() {
		fns[name] = f
	}
	for _, name := range gradConstructors {
		fns[name] = withGradOption(fns[name])
	}
	guardTaped(fns)
	u := make(map[string]interp.Value, len(fns))
	operands := operandBuiltins()
	for name, f := range fns {
		u[name] = &interp.Builtin{Name: name, Fn: f, Operands: operands[name]}
	}
	return u
}

func length(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	switch v := args.Positional[0].(type) {
	case *interp.List:
		return interp.Int(v.Len()), nil
	case interp.String:
		return interp.Int(len(v)), nil
	case *interp.Dict:
		return interp.Int(v.Len()), nil
	case *interp.Array:
		if v.A.Freed() {
			return nil, mem.ErrFreed
		}
		return interp.Int(v.A.Shape()[0]), nil
	}
	return nil, fmt.Errorf("len of %s", args.Positional[0].Type())
}

// maxRangeList bounds range() used as a value (for loops over range never
// build a list).
const maxRangeList = 1 << 24

func rangeList(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 3); err != nil {
		return nil, err
	}
	var v [3]int64
	for i, a := range args.Positional {
		n, ok := a.(interp.Int)
		if !ok {
			return nil, fmt.Errorf("range argument must be an int, not %s", a.Type())
		}
		v[i] = int64(n)
	}
	lo, hi, step := int64(0), v[0], int64(1)
	if len(args.Positional) > 1 {
		lo, hi = v[0], v[1]
	}
	if len(args.Positional) == 3 {
		step = v[2]
	}
	if step == 0 {
		return nil, fmt.Errorf("range step must not be zero")
	}
	// The length is known before anything is built, so a range too long
	// to be a list costs nothing.
	n := interp.RangeLen(lo, hi, step)
	if n > maxRangeList {
		return nil, fmt.Errorf("range of more than %d elements as a list: iterate with for instead", maxRangeList)
	}
	if err := th.CheckListLen(int(n)); err != nil {
		return nil, err
	}
	return rangeElems(th, lo, step, int(n))
}

// rangeElems builds the list lo, lo+step, ... of n ints, polling
// cancellation as it goes (millions of ints take a while).
func rangeElems(th *interp.Thread, lo, step int64, n int) (interp.Value, error) {
	elems := make([]int64, n)
	for k := range elems {
		if k%interp.PollEvery == 0 && th.Canceled() {
			return nil, interp.ErrInterrupted
		}
		elems[k] = lo + int64(k)*step
	}
	return th.HoldList(interp.NewIntList(elems))
}

func typeOf(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	return interp.String(args.Positional[0].Type()), nil
}

func str(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	return th.Str(args.Positional[0])
}

func toInt(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	switch v := args.Positional[0].(type) {
	case interp.Int:
		return v, nil
	case interp.Bool:
		if v {
			return interp.Int(1), nil
		}
		return interp.Int(0), nil
	case interp.Kind:
		return interp.Int(v), nil
	case interp.String:
		n, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(string(v)), "_", ""), 0, 64)
		if err != nil {
			return nil, fmt.Errorf("int: cannot parse %q as an int", string(v))
		}
		return interp.Int(n), nil
	}
	if n, err := interp.ToInt(args.Positional[0]); err == nil {
		return interp.Int(n), nil
	}
	f, err := interp.ToFloat(args.Positional[0])
	if err != nil {
		return nil, fmt.Errorf("int: %v", err)
	}
	f = math.Trunc(f)
	if f != f || f < -(1<<63) || f >= 1<<63 {
		return nil, fmt.Errorf("int: %v does not fit an int", f)
	}
	return interp.Int(int64(f)), nil
}

func toFloat(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	switch v := args.Positional[0].(type) {
	case interp.Bool:
		if v {
			return interp.Float(1), nil
		}
		return interp.Float(0), nil
	case interp.String:
		f, err := strconv.ParseFloat(strings.TrimSpace(string(v)), 64)
		if err != nil {
			return nil, fmt.Errorf("float: cannot parse %q as a float", string(v))
		}
		return interp.Float(f), nil
	}
	f, err := interp.ToFloat(args.Positional[0])
	if err != nil {
		return nil, fmt.Errorf("float: %v", err)
	}
	return interp.Float(f), nil
}

func now(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, 0); err != nil {
		return nil, err
	}
	return interp.Float(float64(time.Now().UnixNano()) / 1e9), nil
}

func free(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	x, err := anyArrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	a := x.A
	if a.IsView() {
		return nil, fmt.Errorf("free of a view: free the array it views")
	}
	return interp.Nil, a.Free()
}

// arrayArg returns positional argument i as a live array of scalars: an
// array of a compound type is refused (interp.Array.Plain), as every
// builtin that takes one through here works on scalar elements.
func arrayArg(args *interp.Args, i int) (*mem.Array, error) {
	v, err := anyArrayArg(args, i)
	if err != nil {
		return nil, err
	}
	return v.Plain(args.Fn)
}

// memArg returns positional argument i's memory, of any element type,
// for builtins that work on an array's bytes (prefetch, advise ...).
func memArg(args *interp.Args, i int) (*mem.Array, error) {
	v, err := anyArrayArg(args, i)
	if err != nil {
		return nil, err
	}
	return v.A, nil
}

// anyArrayArg returns positional argument i as a live array, of any
// element type.
func anyArrayArg(args *interp.Args, i int) (*interp.Array, error) {
	v, ok := args.Positional[i].(*interp.Array)
	if !ok {
		return nil, fmt.Errorf("%s: argument %d must be an array, not %s", args.Fn, i+1, args.Positional[i].Type())
	}
	if v.A.Freed() {
		return nil, mem.ErrFreed
	}
	return v, nil
}

// dtypeArg reads a dtype= argument of a builtin that makes arrays of
// scalars, defaulting to def.
func dtypeArg(args *interp.Args, def ir.Type) (ir.Type, error) {
	t, err := elemTypeArg(args, dtype.Of(def))
	if err == nil && !t.IsScalar() {
		err = fmt.Errorf("%s with dtype=%s is not supported (arrays of %s come from zeros, ones, empty, full, array, load and array declarations)", args.Fn, t, t)
	}
	return t.Elem, err
}

// elemTypeArg reads a dtype= argument that may name a vector, matrix or
// quaternion type, defaulting to def.
func elemTypeArg(args *interp.Args, def dtype.Type) (dtype.Type, error) {
	v := args.Kwarg("dtype")
	if v == nil {
		return def, nil
	}
	t, ok := interp.TypeValue(v)
	if !ok {
		return dtype.Type{}, fmt.Errorf("%s: dtype must be a dtype such as f32, not %s", args.Fn, v.Type())
	}
	return t, nil
}

// stringKwarg reads a string keyword argument, defaulting to def.
func stringKwarg(args *interp.Args, name, def string) (string, error) {
	v := args.Kwarg(name)
	if v == nil {
		return def, nil
	}
	s, ok := v.(interp.String)
	if !ok {
		return "", fmt.Errorf("%s: %s= must be a string, not %s", args.Fn, name, v.Type())
	}
	return string(s), nil
}

// intKwarg reads an int keyword argument, defaulting to def.
func intKwarg(args *interp.Args, name string, def int) (int, error) {
	v := args.Kwarg(name)
	if v == nil {
		return def, nil
	}
	n, ok := v.(interp.Int)
	if !ok {
		return 0, fmt.Errorf("%s: %s= must be an int, not %s", args.Fn, name, v.Type())
	}
	return int(n), nil
}

// floatKwarg reads a number keyword argument, defaulting to def.
func floatKwarg(args *interp.Args, name string, def float64) (float64, error) {
	v := args.Kwarg(name)
	if v == nil {
		return def, nil
	}
	f, err := interp.ToFloat(v)
	if err != nil || math.IsNaN(f) {
		return 0, fmt.Errorf("%s: %s= must be a number, not %s", args.Fn, name, v.Type())
	}
	return f, nil
}

// replay is replay(g[, times]): queue a captured graph times times.
func replay(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 2); err != nil {
		return nil, err
	}
	g, ok := args.Positional[0].(*interp.Graph)
	if !ok {
		return nil, fmt.Errorf("replay: want a graph from a capture block, not %s", args.Positional[0].Type())
	}
	times := 1
	if len(args.Positional) == 2 {
		n, err := interp.ToInt(args.Positional[1])
		if err != nil {
			return nil, fmt.Errorf("replay: %v", err)
		}
		times = n
	}
	return interp.Nil, th.Replay(g, times)
}
