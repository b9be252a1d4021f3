package syntax

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/gscript-lang/gscript/lang/pos"
)

// number scans a numeric literal. Like go/scanner it takes every letter and
// digit that follows, so "0b102" or "12abc" is one bad literal with one error
// rather than a confusing token pair.
func (s *scanner) number() {
	p := s.pos()
	start := s.off
	typ := tInt
	if s.src[s.off] == '0' && isBaseLetter(s.peekAt(1)) {
		s.off += 2
		s.alnum()
	} else {
		s.digits()
		if s.off < len(s.src) && s.src[s.off] == '.' {
			typ = tFloat
			s.off++
			s.digits()
		}
		if c := s.peekAt(0); c == 'e' || c == 'E' {
			typ = tFloat
			s.off++
			if c := s.peekAt(0); c == '+' || c == '-' {
				s.off++
			}
			s.digits()
		}
		s.alnum() // a trailing letter makes the literal invalid
	}
	raw := string(s.src[start:s.off])
	if msg := checkNumber(raw, typ == tFloat); msg != "" {
		s.errorf(p, "%s", msg)
	}
	s.emit(typ, raw, p)
}

func isBaseLetter(c byte) bool {
	switch c {
	case 'x', 'X', 'b', 'B', 'o', 'O':
		return true
	}
	return false
}

func (s *scanner) digits() {
	for s.off < len(s.src) && (isDigit(s.src[s.off]) || s.src[s.off] == '_') {
		s.off++
	}
}

func (s *scanner) alnum() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		if !isDigit(c) && c != '_' && !(c < 0x80 && isLetter(rune(c))) {
			return
		}
		s.off++
	}
}

// checkNumber validates a literal's spelling and range; "" means valid.
func checkNumber(raw string, isFloat bool) string {
	if msg := checkUnderscores(raw); msg != "" {
		return msg
	}
	if isFloat {
		return checkFloat(raw)
	}
	base, digits := intBase(raw)
	if digits == "" {
		return fmt.Sprintf("%s literal %s has no digits", baseName(base), pos.Clip(raw))
	}
	for _, c := range strings.ReplaceAll(digits, "_", "") {
		if digitVal(c) >= base {
			return invalidDigit(raw, c, base)
		}
	}
	if base == 10 && len(raw) > 1 && raw[0] == '0' {
		return legacyOctal(raw)
	}
	if _, err := parseInt(raw); err != nil {
		return fmt.Sprintf("integer literal %s is too large (the maximum is %d)", pos.Clip(raw), uint64(math.MaxUint64))
	}
	return ""
}

func invalidDigit(raw string, c rune, base int) string {
	if digitVal(c) >= 10 {
		return fmt.Sprintf("invalid character %q in number %s", c, pos.Clip(raw))
	}
	return fmt.Sprintf("invalid digit %q in %s literal %s", c, baseName(base), pos.Clip(raw))
}

// legacyOctal explains a decimal literal with a leading zero, which C and
// old Go read as octal.
func legacyOctal(raw string) string {
	rest := strings.TrimLeft(strings.ReplaceAll(raw, "_", ""), "0")
	if rest == "" {
		rest = "0"
	}
	if strings.Trim(rest, "01234567") == "" {
		return fmt.Sprintf("invalid number %s: leading zeros are not allowed (write 0o%s for octal, %s for decimal)", pos.Clip(raw), pos.Clip(rest), pos.Clip(rest))
	}
	return fmt.Sprintf("invalid number %s: leading zeros are not allowed (write %s for decimal)", pos.Clip(raw), pos.Clip(rest))
}

func checkFloat(raw string) string {
	for _, c := range raw {
		if c >= 'a' && c <= 'z' && c != 'e' || c >= 'A' && c <= 'Z' && c != 'E' {
			return fmt.Sprintf("invalid character %q in number %s", c, pos.Clip(raw))
		}
	}
	if i := strings.IndexAny(raw, "eE"); i >= 0 && strings.Trim(raw[i+1:], "+-_") == "" {
		return fmt.Sprintf("exponent has no digits in %s", pos.Clip(raw))
	}
	if _, err := parseFloat(raw); errors.Is(err, strconv.ErrRange) {
		return fmt.Sprintf("float literal %s is out of range", pos.Clip(raw))
	} else if err != nil {
		return fmt.Sprintf("invalid number %s", pos.Clip(raw))
	}
	return ""
}

// checkUnderscores applies Go's rule: '_' only between digits, or right
// after a base prefix.
func checkUnderscores(raw string) string {
	if !strings.Contains(raw, "_") {
		return ""
	}
	body, isDig := raw, isDigit
	if len(raw) > 2 && raw[0] == '0' && isBaseLetter(raw[1]) {
		body, isDig = "0"+raw[2:], isHexDigit // the prefix counts as a digit before '_'
	}
	for i := 0; i < len(body); i++ {
		if body[i] != '_' {
			continue
		}
		if i == 0 || i == len(body)-1 || !isDig(body[i-1]) || !isDig(body[i+1]) {
			return fmt.Sprintf("'_' must separate successive digits in %s", pos.Clip(raw))
		}
	}
	return ""
}

func isHexDigit(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func intBase(raw string) (int, string) {
	if len(raw) >= 2 && raw[0] == '0' {
		switch raw[1] {
		case 'x', 'X':
			return 16, raw[2:]
		case 'b', 'B':
			return 2, raw[2:]
		case 'o', 'O':
			return 8, raw[2:]
		}
	}
	return 10, raw
}

func baseName(base int) string {
	switch base {
	case 16:
		return "hexadecimal"
	case 8:
		return "octal"
	case 2:
		return "binary"
	}
	return "decimal"
}

func digitVal(c rune) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 99
}

// parseInt decodes a validated integer literal.
func parseInt(raw string) (uint64, error) {
	base, digits := intBase(raw)
	return strconv.ParseUint(strings.ReplaceAll(digits, "_", ""), base, 64)
}

// parseFloat decodes a validated float literal; out of range is an error
// rather than ±Inf.
func parseFloat(raw string) (float64, error) {
	return strconv.ParseFloat(strings.ReplaceAll(raw, "_", ""), 64)
}

// literalValue decodes a literal token for ast.BasicLit (errors were
// already reported by the scanner, so a bad literal decodes to zero).
func literalValue(t lexer.Token) (kind string, v any) {
	switch t.Type {
	case tInt:
		n, _ := parseInt(t.Value)
		return "int", n
	case tFloat:
		f, err := parseFloat(t.Value)
		if err != nil {
			f = 0
		}
		return "float", f
	}
	str, err := strconv.Unquote(t.Value)
	if err != nil {
		str = t.Value[1 : len(t.Value)-1]
	}
	return "string", str
}
