// Package repr formats floats the way gscript prints them everywhere (host
// printing and the CPU executor's device print): like Python's repr, i.e.
// the shortest decimal that round-trips, in fixed notation when the decimal
// exponent is in [-4, 16) and in exponent notation otherwise. An f32 value
// uses its own shortest f32 digits (0.1, not 0.10000000149011612).
package repr

import (
	"math"
	"strconv"
	"strings"
)

// FormatFloat formats f like Python's repr: "1.0", "0.1", "1e-07", "1e+16",
// "123456789.0", "-0.0", "inf", "-inf", "nan". bitSize is 32 or 64; with 32,
// f must hold an f32 value and the digits are f32's shortest round-trip ones.
func FormatFloat(f float64, bitSize int) string {
	switch {
	case math.IsNaN(f):
		return "nan" // Python prints nan without a sign
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	if bitSize != 32 {
		bitSize = 64
	}
	// 'e' with precision -1 gives the shortest round-trip digits as
	// "-d.ddde±XX"; split it into sign, digits and decimal exponent.
	s := strconv.FormatFloat(f, 'e', -1, bitSize)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	mant, expStr, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expStr)
	digits := strings.Replace(mant, ".", "", 1)

	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if exp < -4 || exp >= 16 {
		writeExp(&b, digits, exp)
	} else {
		writeFixed(&b, digits, exp)
	}
	return b.String()
}

// writeExp writes d[.ddd]e±XX with at least two exponent digits, as Python.
func writeExp(b *strings.Builder, digits string, exp int) {
	b.WriteByte(digits[0])
	if len(digits) > 1 {
		b.WriteByte('.')
		b.WriteString(digits[1:])
	}
	b.WriteByte('e')
	if exp < 0 {
		b.WriteByte('-')
		exp = -exp
	} else {
		b.WriteByte('+')
	}
	if exp < 10 {
		b.WriteByte('0')
	}
	b.WriteString(strconv.Itoa(exp))
}

// writeFixed writes the digits with the point after exp+1 of them, padding
// with zeros, and always at least one digit after the point ("1.0").
func writeFixed(b *strings.Builder, digits string, exp int) {
	if exp < 0 {
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -exp-1))
		b.WriteString(digits)
		return
	}
	intLen := exp + 1
	if len(digits) <= intLen {
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", intLen-len(digits)))
		b.WriteString(".0")
		return
	}
	b.WriteString(digits[:intLen])
	b.WriteByte('.')
	b.WriteString(digits[intLen:])
}
