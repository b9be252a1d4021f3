package syntax

// Continuation follows an entry line by line, as a REPL reads it, and says
// whether a bracket or a string is still open at the end of the last line.
// It runs the scanner over each new line only, carrying the open brackets
// across lines, so an entry of n lines costs O(n) to follow; the REPL then
// parses once, when nothing is open, and asks IsIncomplete about the rest
// (a statement cut off after "=" or an operator). The zero value is an
// empty entry.
type Continuation struct {
	stack    []bracket
	cutStr   bool // the last line ended inside a string literal
	dangling bool // the last line's last token cannot end a statement ("+", "=", ","): the newline did not end it
	settled  bool // the entry can only be complete: a string was cut, or a limit hit
}

// Feed adds one line (without its newline) to the entry.
func (c *Continuation) Feed(line string) {
	if c.settled {
		return
	}
	if c.cutStr {
		// Strings do not span lines: this line completes the entry with
		// the parser's error.
		c.settled = true
		return
	}
	s := &scanner{src: []byte(line + "\n"), line: 1, stack: c.stack}
	s.run()
	c.stack, c.cutStr = s.stack, s.cutStr
	if n := len(s.toks); n > 0 { // a blank or comment line changes nothing
		c.dangling = s.toks[n-1].Type != tTerm
	}
	if s.stopped {
		c.settled = true // a nesting limit: the parser reports it
	}
}

// Open reports whether the entry so far ends inside a bracket or a string,
// or after a token that cannot end a statement, so that it surely needs
// another line.
func (c *Continuation) Open() bool {
	return !c.settled && (len(c.stack) > 0 || c.cutStr || c.dangling)
}
