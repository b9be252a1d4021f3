package stdlib

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
)

// format is format(fmt, args...): Go's verbs, checked against the values
// before Go's fmt sees them, so that a mismatch is a positioned error
// naming the verb and never Go's %!d(...) text. Verbs: %d %b %o %x %X
// (ints), %e %E %f %F %g %G (numbers), %s %v (any value, as print writes
// it), %q (a string, quoted), %% (a percent sign); flags - + # 0 and
// space, widths and precisions.
func format(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, math.MaxInt); err != nil {
		return nil, err
	}
	f, ok := args.Positional[0].(interp.String)
	if !ok {
		return nil, fmt.Errorf("format: the format must be a string, not %s", args.Positional[0].Type())
	}
	s, err := formatValues(th, string(f), args.Positional[1:])
	if err != nil {
		return nil, fmt.Errorf("format: %v", err)
	}
	return th.NewString(s)
}

// maxVerbWidth bounds a width or precision: a larger one is a mistake,
// and would build a string of that size.
const maxVerbWidth = 1 << 16

// formatValues applies f to vals. Each verb is checked with its value,
// and the text is checked against the string caps as it grows.
func formatValues(th *interp.Thread, f string, vals []interp.Value) (string, error) {
	var b strings.Builder
	used := 0
	for i := 0; i < len(f); {
		j := strings.IndexByte(f[i:], '%')
		if j < 0 {
			b.WriteString(f[i:])
			break
		}
		b.WriteString(f[i : i+j])
		i += j
		v, n, err := parseVerb(f[i:])
		if err != nil {
			return "", err
		}
		i += n
		if v.verb == '%' {
			b.WriteByte('%')
			continue
		}
		if used == len(vals) {
			return "", fmt.Errorf("no value for %s (verb %d; %d values given)", v.spec, used+1, len(vals))
		}
		if err := th.CheckStringLen(b.Len() + v.width + v.prec); err != nil {
			return "", err
		}
		s, err := v.apply(th, vals[used])
		if err != nil {
			return "", fmt.Errorf("%s (verb %d): %v", v.spec, used+1, err)
		}
		b.WriteString(s)
		used++
	}
	if used < len(vals) {
		return "", fmt.Errorf("%d values given but the format has %s", len(vals), plural(used, "verb"))
	}
	return b.String(), nil
}

// verb is one parsed %-directive: its text and its parts.
type verb struct {
	spec        string // as written: "%-8.3f"
	verb        byte
	width, prec int // 0 when absent
}

// parseVerb parses the directive at the start of s (which starts with
// '%') and returns it with its length.
func parseVerb(s string) (verb, int, error) {
	i := 1
	for i < len(s) && strings.IndexByte("-+# 0", s[i]) >= 0 {
		i++
	}
	v := verb{}
	var err error
	if v.width, i, err = digits(s, i); err != nil {
		return v, 0, err
	}
	if i < len(s) && s[i] == '.' {
		if v.prec, i, err = digits(s, i+1); err != nil {
			return v, 0, err
		}
	}
	if i >= len(s) {
		return v, 0, fmt.Errorf("%q ends without a verb", s)
	}
	v.verb, v.spec = s[i], s[:i+1]
	if strings.IndexByte("%dboxXeEfFgGsvq", v.verb) < 0 {
		return v, 0, fmt.Errorf("unknown verb %s (verbs: %%d %%b %%o %%x %%X %%e %%E %%f %%F %%g %%G %%s %%v %%q %%%%)", v.spec)
	}
	if v.verb == '%' && v.spec != "%%" {
		return v, 0, fmt.Errorf("%s: %%%% takes no flags or width", v.spec)
	}
	return v, i + 1, nil
}

// digits reads a decimal number at s[i:] (0 when there is none).
func digits(s string, i int) (int, int, error) {
	n := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if n = n*10 + int(s[i]-'0'); n > maxVerbWidth {
			return 0, 0, fmt.Errorf("width or precision larger than %d", maxVerbWidth)
		}
	}
	return n, i, nil
}

// apply formats one value, after checking that the verb fits it.
func (v verb) apply(th *interp.Thread, x interp.Value) (string, error) {
	switch v.verb {
	case 'd', 'b', 'o', 'x', 'X':
		n, err := intOperand(x)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf(v.spec, n), nil
	case 'e', 'E', 'f', 'F', 'g', 'G':
		f, err := floatOperand(x)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf(v.spec, f), nil
	case 'q':
		s, ok := x.(interp.String)
		if !ok {
			return "", fmt.Errorf("wants a string, got %s", describe(x))
		}
		return fmt.Sprintf(v.spec, string(s)), nil
	}
	s, err := th.Format(x) // %s and %v: what print writes
	if err != nil {
		return "", err
	}
	return fmt.Sprintf(v.spec[:len(v.spec)-1]+"s", s), nil
}

// intOperand is an int verb's value: a host int or an integer scalar (as
// int64, or uint64 for u64 so that large values print as they are).
// Floats are refused rather than truncated: say int(x) to truncate.
func intOperand(x interp.Value) (any, error) {
	switch x := x.(type) {
	case interp.Int:
		return int64(x), nil
	case interp.Scalar:
		switch {
		case x.T == ir.U64:
			return x.Bits, nil
		case x.T.IsInt():
			return interp.ToInt(x)
		}
	}
	return nil, fmt.Errorf("wants an int, got %s (use a float verb such as %%f, or int(x))", describe(x))
}

// floatOperand is a float verb's value: any number. An f32 scalar stays
// a float32 so that %g and %v print its shortest f32 form (0.1, not
// 0.10000000149011612).
func floatOperand(x interp.Value) (any, error) {
	if s, ok := x.(interp.Scalar); ok && s.T == ir.F32 {
		return math.Float32frombits(uint32(s.Bits)), nil
	}
	if _, ok := x.(interp.Bool); !ok {
		if f, err := interp.ToFloat(x); err == nil {
			return f, nil
		}
	}
	return nil, fmt.Errorf("wants a number, got %s", describe(x))
}

// describe names a value in a message: its type, and a short value too.
func describe(v interp.Value) string {
	switch v := v.(type) {
	case interp.Int, interp.Float, interp.Bool, interp.Scalar:
		return v.Type() + " " + v.String()
	case interp.String:
		if len(v) <= 20 {
			return "string " + strconv.Quote(string(v))
		}
	}
	return v.Type()
}

// plural is "1 verb", "2 verbs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// print is print(values..., sep=" ", end="\n", file="stdout"): file is
// "stdout", "stderr" or a path, appended to through the embedding
// program's file access (Options.Files).
func print(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, math.MaxInt, "sep", "end", "file"); err != nil {
		return nil, err
	}
	sep, err := stringKwarg(args, "sep", " ")
	if err != nil {
		return nil, err
	}
	end, err := stringKwarg(args, "end", "\n")
	if err != nil {
		return nil, err
	}
	file, err := stringKwarg(args, "file", "stdout")
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for i, v := range args.Positional {
		if i > 0 {
			b.WriteString(sep)
		}
		s, err := th.Format(v)
		if err != nil {
			return nil, err
		}
		b.WriteString(s)
	}
	b.WriteString(end)
	return interp.Nil, writeOut(th, file, b.String())
}

// writeOut writes print's text to its file.
func writeOut(th *interp.Thread, file, s string) error {
	switch file {
	case "stdout":
		_, err := fmt.Fprint(th.Stdout, s)
		return err
	case "stderr":
		_, err := fmt.Fprint(th.Stderr, s)
		return err
	}
	// print writes text, so it refuses the suffixes write_file refuses.
	if err := refuseSuffix("print", file, "text", npySuffixes, imageSuffixes); err != nil {
		return err
	}
	if err := th.Files().Append(file, []byte(s)); err != nil {
		return fmt.Errorf("print to %s: %w", file, err)
	}
	return nil
}
