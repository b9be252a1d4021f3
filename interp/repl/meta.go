package repl

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// metaCommand is one `:name` command.
type metaCommand struct {
	name, args, help string
	run              func(s *session, ctx context.Context, arg string)
}

var metaCommands []metaCommand

// init fills the table here rather than in its declaration: :help reads
// the table, which would otherwise be an initialization cycle.
func init() {
	metaCommands = []metaCommand{
		{":help", "[NAME]", "show this help, or a builtin's signature and summary (as help(NAME))", (*session).metaHelp},
		{":devices", "", "list devices, their capabilities and memory paradigm", (*session).metaDevices},
		{":mem", "", "list live arrays: name, device, kind, shape, bytes, allocator", (*session).metaMem},
		{":vars", "", "list global variables", (*session).metaVars},
		{":load", "FILE", "run a script file in this session", (*session).metaLoad},
		{":reset", "", "start a new interpreter (same options); frees every array", (*session).metaReset},
		{":time", "STMT", "run STMT and print its wall time", (*session).metaTime},
		{":quit", "", "leave the REPL (also Ctrl-D)", (*session).metaQuit},
	}
}

func metaNames() []string {
	names := make([]string, len(metaCommands))
	for i, c := range metaCommands {
		names[i] = c.name
	}
	return names
}

// splitMeta splits ":name arg..." at the first space or tab.
func splitMeta(text string) (name, arg string) {
	name, arg, _ = strings.Cut(text, " ")
	if n, a, ok := strings.Cut(name, "\t"); ok {
		name, arg = n, a+" "+arg
	}
	if n, a, ok := strings.Cut(name, "\n"); ok {
		name, arg = n, a+" "+arg
	}
	return name, strings.TrimSpace(arg)
}

// meta runs a meta command. A unique prefix works (":q", ":dev").
func (s *session) meta(ctx context.Context, text string) {
	name, arg := splitMeta(text)
	var found []metaCommand
	for _, c := range metaCommands {
		if c.name == name {
			found = []metaCommand{c}
			break
		}
		if strings.HasPrefix(c.name, name) {
			found = append(found, c)
		}
	}
	switch {
	case len(found) == 1:
		c := found[0]
		optional := strings.HasPrefix(c.args, "[")
		if (c.args == "") != (arg == "") && !(optional && arg == "") {
			fmt.Fprintf(s.stderr, "usage: %s %s\n", c.name, c.args)
			return
		}
		c.run(s, ctx, arg)
	case len(found) == 0:
		fmt.Fprintf(s.stderr, "unknown command %s (:help lists the commands)\n", name)
	default:
		fmt.Fprintf(s.stderr, "ambiguous command %s: %s\n", name, strings.Join(metaNamesOf(found), ", "))
	}
}

func metaNamesOf(cs []metaCommand) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.name)
	}
	return out
}

// metaHelp is :help, or :help NAME, which calls the predeclared help
// (stdlib's, over its table of builtin docs: this package does not
// import stdlib).
func (s *session) metaHelp(ctx context.Context, name string) {
	if name != "" {
		h, ok := s.opts.Interp.Predeclared["help"]
		if !ok {
			fmt.Fprintln(s.stderr, "no help builtin in this session (Options.Interp.Predeclared has none)")
			return
		}
		_, err := s.in.Call(ctx, h, interp.String(name))
		var ee *interp.EvalError
		if errors.As(err, &ee) {
			fmt.Fprintln(s.stderr, ee.Msg) // no position: nothing was entered but the name
		}
		return
	}
	fmt.Fprintln(s.stdout, "Enter gscript statements; a bare expression prints its value and stores it in _.")
	fmt.Fprintln(s.stdout, "A statement continues on the next line while a bracket or string is open.")
	fmt.Fprintln(s.stdout, "Ctrl-C clears the line or interrupts a running statement; Ctrl-D exits;")
	fmt.Fprintln(s.stdout, "Ctrl-R searches the history; Tab completes names and attributes after '.'.")
	fmt.Fprintln(s.stdout, "help(NAME) or :help NAME shows a builtin's signature and summary; help() lists them.")
	fmt.Fprintln(s.stdout, "Commands (a unique prefix is enough):")
	w := tabwriter.NewWriter(s.stdout, 0, 0, 2, ' ', 0)
	for _, c := range metaCommands {
		fmt.Fprintf(w, "  %s %s\t%s\n", c.name, c.args, c.help)
	}
	w.Flush()
}

func (s *session) metaDevices(context.Context, string) {
	if s.opts.Devices == nil {
		fmt.Fprintln(s.stderr, "no device listing is configured (Options.Devices)")
		return
	}
	if err := s.opts.Devices(s.stdout); err != nil {
		fmt.Fprintln(s.stderr, err)
	}
}

func (s *session) metaVars(context.Context, string) {
	w := tabwriter.NewWriter(s.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tTYPE\tVALUE")
	for _, g := range s.in.Globals() {
		fmt.Fprintf(w, "%s\t%s\t%s\n", g.Name, g.Value.Type(), oneLine(g.Value.String(), 60))
	}
	w.Flush()
}

// oneLine shortens s to one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-3]) + "..."
	}
	return s
}

func (s *session) metaLoad(ctx context.Context, path string) {
	path = strings.Trim(path, `"'`)
	src, err := syntax.ReadSourceFile(path)
	if err != nil {
		fmt.Fprintln(s.stderr, err)
		return
	}
	err = s.interruptible(ctx, func(ctx context.Context) error { return s.in.Exec(ctx, path, src) })
	if errors.As(err, &s.exited) {
		s.quit = true // the file's exit(code) ends the session, as an entry's does
		return
	}
	if err != nil {
		fmt.Fprintln(s.stderr, err)
	}
}

func (s *session) metaReset(context.Context, string) {
	in, err := interp.New(s.opts.Interp)
	if err != nil {
		fmt.Fprintln(s.stderr, err)
		return
	}
	if err := s.in.Close(); err != nil {
		fmt.Fprintln(s.stderr, err)
	}
	s.in, s.last = in, nil
}

func (s *session) metaTime(ctx context.Context, stmt string) {
	s.timed(func() { s.exec(ctx, stmt) })
}

func (s *session) metaQuit(context.Context, string) { s.quit = true }

// memRow is one live buffer as :mem shows it.
type memRow struct {
	names                   string
	id                      uint64
	device, kind, allocator string
	bytes                   int
	shape                   []int
}

func (s *session) metaMem(context.Context, string) {
	// A collection first, so that arrays nothing refers to any more are
	// not listed as live.
	runtime.GC()
	rows := s.liveRows()
	nameRows(rows, s.namedArrays())
	w := tabwriter.NewWriter(s.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tDEVICE\tKIND\tSHAPE\tBYTES\tALLOCATOR")
	total := 0
	for _, r := range rows {
		shape := "-"
		if r.shape != nil {
			shape = fmt.Sprint(r.shape)
		}
		total += r.bytes
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\n", r.names, r.device, r.kind, shape, r.bytes, r.allocator)
	}
	w.Flush()
	fmt.Fprintf(s.stdout, "%d arrays, %d bytes\n", len(rows), total)
}

// liveRows is one unnamed row per live buffer of the interpreter, oldest
// first.
func (s *session) liveRows() []memRow {
	live := s.in.Tracker().Live()
	rows := make([]memRow, len(live))
	for i, b := range live {
		rows[i] = memRow{names: "-", id: b.ID, device: b.Device.String(), kind: b.Kind.String(), allocator: b.Allocator, bytes: b.Bytes}
	}
	return rows
}

// namedArray is a global (or `_`) whose value is a live array.
type namedArray struct {
	name string
	a    *interp.Array
}

func (s *session) namedArrays() []namedArray {
	var out []namedArray
	for _, g := range s.in.Globals() {
		if a, ok := g.Value.(*interp.Array); ok && !a.A.Freed() {
			out = append(out, namedArray{g.Name, a})
		}
	}
	if a, ok := s.last.(*interp.Array); ok && !a.A.Freed() {
		out = append(out, namedArray{"_", a})
	}
	return out
}

// nameRows names each live buffer's row after the arrays (globals and
// `_`) that use it, views included; a buffer no global reaches keeps "-".
func nameRows(rows []memRow, arrays []namedArray) {
	byID := map[uint64]int{}
	for i, r := range rows {
		byID[r.id] = i
	}
	for _, g := range groupByBuffer(arrays) {
		if i, ok := byID[g[0].a.A.BufferID()]; ok {
			rows[i].names, rows[i].shape = joinNames(g), g[0].a.Shape()
		}
	}
}

// groupByBuffer groups arrays that share a buffer, non-views first (the
// first one's shape is the row's).
func groupByBuffer(arrays []namedArray) [][]namedArray {
	var groups [][]namedArray
outer:
	for _, na := range arrays {
		for i, g := range groups {
			if g[0].a.A.SameBuffer(na.a.A) {
				if !na.a.A.IsView() {
					groups[i] = append([]namedArray{na}, g...)
				} else {
					groups[i] = append(g, na)
				}
				continue outer
			}
		}
		groups = append(groups, []namedArray{na})
	}
	return groups
}

func joinNames(g []namedArray) string {
	names := make([]string, len(g))
	for i, na := range g {
		names[i] = na.name
	}
	return strings.Join(names, ",")
}
