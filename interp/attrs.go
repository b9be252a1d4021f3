package interp

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// arrayAttrs are the attributes of arrays, for lookups and completion.
var arrayAttrs = []string{"shape", "dtype", "ndim", "size", "nbytes", "device", "memory_kind", "is_view", "to", "reshape", "astype", "view", "T", "grad", "requires_grad"}

// ArrayAttrNames lists array attributes (for REPL completion).
func ArrayAttrNames() []string { return append([]string(nil), arrayAttrs...) }

func getAttr(th *Thread, x Value, name string) (Value, error) {
	switch x := x.(type) {
	case *Array:
		return arrayAttr(th, x, name)
	case *Record:
		if v, ok := x.Get(name); ok {
			return v, nil
		}
		return nil, fmt.Errorf("record has no field %s (fields: %s)", name, strings.Join(x.Names, ", "))
	case *Config:
		return x.get(name)
	case *Module:
		return x.attr(th, name)
	case *ErrorValue:
		return x.attr(name)
	case *Vector:
		if isStruct(x) {
			return structField(x, name)
		}
		return x.get(name, nil)
	case *List, String, *Dict:
		return boundMethod(x, name)
	case *Tape:
		return tapeAttr(th, x, name)
	}
	return nil, fmt.Errorf("%s has no attribute %s", x.Type(), name)
}

func arrayAttr(th *Thread, x *Array, name string) (Value, error) {
	a := x.A
	switch name {
	case "shape":
		return intList(x.Shape()), nil
	case "dtype":
		if isStructArray(x) {
			return &StructType{S: x.Elem.St}, nil
		}
		if x.Compound() {
			return VecType{x.Elem}, nil
		}
		return DType(a.DType()), nil
	case "ndim":
		return Int(x.NDim()), nil
	case "size":
		return Int(x.Size()), nil
	case "nbytes":
		return Int(a.NBytes()), nil
	case "device":
		return String(a.Device().String()), nil
	case "memory_kind":
		return Kind(a.Kind()), nil
	case "is_view":
		return Bool(a.IsView()), nil
	case "grad":
		if g := a.Grad(); g != nil {
			return x.wrap(g), nil
		}
		return Nil, nil
	case "requires_grad":
		return Bool(a.RequiresGrad()), nil
	case "to":
		return &Builtin{Name: "to", Fn: func(th *Thread, args *Args) (Value, error) {
			if err := args.Check(1, 1); err != nil {
				return nil, err
			}
			if th.Taping() && a.RequiresGrad() {
				return nil, fmt.Errorf("a.to(dev) on a tape: write to(a, dev), which records the copy's gradient")
			}
			return ArrayTo(th, x, args.Positional[0])
		}}, nil
	case "view":
		return viewMethod(x), nil
	case "T":
		return value(PermuteElems(x, nil))
	case "astype":
		return asType(x), nil
	case "reshape":
		return &Builtin{Name: "reshape", Fn: func(th *Thread, args *Args) (Value, error) {
			if err := args.Check(1, 4); err != nil {
				return nil, err
			}
			if th.Taping() && a.RequiresGrad() && !a.IsContiguous() {
				return nil, fmt.Errorf("a.reshape(shape) of a strided array on a tape copies it: write reshape(a, shape), which records the copy's gradient")
			}
			return Reshape(th, x, args.Positional)
		}}, nil
	}
	if hint, ok := numpyMethods[name]; ok {
		return nil, fmt.Errorf("array has no method %s: %s", name, hint)
	}
	return nil, fmt.Errorf("array has no attribute %s (attributes: %s)", name, strings.Join(arrayAttrs, ", "))
}

// numpyMethods are NumPy's array methods that gscript spells otherwise,
// with what to write instead: its reductions and most array functions
// take the array as their first argument.
var numpyMethods = map[string]string{}

func init() {
	for _, f := range []string{"sum", "prod", "min", "max", "mean", "argmin", "argmax", "any", "all", "cumsum",
		"cumprod", "nonzero", "dot", "clip", "round", "take", "copy", "fill", "norm"} {
		numpyMethods[f] = fmt.Sprintf("%s is a function, write %s(a, ...) (axis= as a keyword: %s(a, axis=0))", f, f, f)
	}
	numpyMethods["flatten"] = "write a.reshape([-1]) (a view where a is contiguous) or copy(a).reshape([-1])"
	numpyMethods["ravel"] = numpyMethods["flatten"]
	numpyMethods["tolist"] = "write list(a)"
	numpyMethods["item"] = "index it: a[0] (a 1-element array), a[i, j]"
	numpyMethods["transpose"] = "write a.T or transpose(a, axes)"
}

func intList(xs []int) *List {
	l := &List{nums: make([]uint64, len(xs)), kind: listInts}
	for i, x := range xs {
		l.nums[i] = uint64(x)
	}
	return l
}

func setAttr(x Value, name string, v Value) error {
	if c, ok := x.(*Config); ok {
		return c.set(name, v)
	}
	if p, ok := x.(*Vector); ok && isStruct(p) {
		return fmt.Errorf("cannot assign to field %s: %s values are immutable (build a new one with %s(...))", name, p.T, p.T)
	}
	return fmt.Errorf("cannot assign to attribute %s of %s", name, x.Type())
}

// Config is the predeclared `config` value.
type Config struct {
	mode                  mem.LaunchMode // LaunchAccess, parsed
	LaunchAccess          string
	Debug                 bool
	AllowOversubscription bool
	Prefetch              string // "auto" or "off" (MEMORY.md section 8)
	// AllowTF32 lets f32 matrix products use TF32 tensor cores (PyTorch's
	// allow_tf32): faster, with 10-bit mantissa inputs. Off: exact f32.
	AllowTF32 bool
	// FastMath compiles every script kernel compiled from then on with
	// fast math (TYPES.md section 5), as if declared `fast`; kernels the
	// library builds (fills, array expressions, reductions) stay strict.
	FastMath bool
	tracker  *mem.Tracker // where Prefetch takes effect: host accesses read it there
}

var launchAccessModes = []string{"relaxed", "checked", "strict"}

// configSettings are config's attributes, in the order it prints them.
var configSettings = []string{"launch_access", "debug", "allow_oversubscription", "prefetch", "allow_tf32", "fast_math"}

// ConfigNames lists config's settings (for REPL completion).
func ConfigNames() []string { return append([]string(nil), configSettings...) }

func newConfig() *Config { return &Config{LaunchAccess: "checked", Prefetch: "auto"} }

func (*Config) Type() string { return "record" }

func (c *Config) String() string {
	return (&Record{
		Names:  configSettings,
		Values: []Value{String(c.LaunchAccess), Bool(c.Debug), Bool(c.AllowOversubscription), String(c.Prefetch), Bool(c.AllowTF32), Bool(c.FastMath)},
	}).String()
}

func (c *Config) get(name string) (Value, error) {
	switch name {
	case "launch_access":
		return String(c.LaunchAccess), nil
	case "debug":
		return Bool(c.Debug), nil
	case "allow_oversubscription":
		return Bool(c.AllowOversubscription), nil
	case "prefetch":
		return String(c.Prefetch), nil
	case "allow_tf32":
		return Bool(c.AllowTF32), nil
	case "fast_math":
		return Bool(c.FastMath), nil
	}
	return nil, fmt.Errorf("config has no setting %s (settings: %s)", name, strings.Join(configSettings, ", "))
}

func (c *Config) set(name string, v Value) error {
	switch name {
	case "launch_access":
		s, ok := v.(String)
		if !ok || !slices.Contains(launchAccessModes, string(s)) {
			return fmt.Errorf("config.launch_access must be \"relaxed\", \"checked\" or \"strict\", not %s", describe(v))
		}
		c.LaunchAccess = string(s)
		c.mode, _ = mem.ParseLaunchMode(c.LaunchAccess)
		return nil
	case "prefetch":
		return c.setPrefetch(v)
	case "debug", "allow_oversubscription", "allow_tf32", "fast_math":
		b, ok := v.(Bool)
		if !ok {
			return fmt.Errorf("config.%s must be a bool, not %s", name, describe(v))
		}
		*map[string]*bool{"debug": &c.Debug, "allow_oversubscription": &c.AllowOversubscription, "allow_tf32": &c.AllowTF32, "fast_math": &c.FastMath}[name] = bool(b)
		return nil
	}
	_, err := c.get(name)
	return err
}

func (c *Config) setPrefetch(v Value) error {
	s, ok := v.(String)
	m, err := mem.ParsePrefetchMode(string(s))
	if !ok || err != nil {
		return fmt.Errorf("config.prefetch must be \"auto\" or \"off\", not %s", describe(v))
	}
	c.Prefetch = string(s)
	if c.tracker != nil {
		c.tracker.SetPrefetch(m)
	}
	return nil
}

// universe is the language's own predeclared values: dtypes, memory kinds
// and config. The standard library adds the functions.
func universe() map[string]Value {
	u := map[string]Value{}
	for _, k := range mem.Kinds {
		u[k.String()] = Kind(k)
	}
	for _, t := range dtypes {
		u[t.String()] = DType(t)
	}
	for _, t := range dtype.Compounds() {
		u[t.String()] = VecType{t}
	}
	// Kernels see inf and nan too; the checker handles them there.
	u["inf"], u["nan"] = Float(math.Inf(1)), Float(math.NaN())
	return u
}
