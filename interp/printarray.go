package interp

import "strings"

// printWidth is the widest one-line form print gives an array; a longer
// one prints one row per line, its elements right-aligned to one width
// and its rows wrapped at the same width (NumPy's linewidth, wider than
// its 75 as gscript's lists print with ", ").
const printWidth = 100

// printNode is one axis of an array as print shows it: the element texts
// of a last axis, or the sub-arrays of another; summarised axes hold
// "..." (elems) or nil (kids) where elements are left out.
type printNode struct {
	elems []string
	kids  []*printNode
}

// printTree reads the elements print shows, elem giving each one's text
// by offset, summarising an array of more than printThreshold elements
// to the first and last three entries of each axis.
func printTree(x *Array, elem func(off int) (string, error)) (*printNode, error) {
	a := x.A
	summarise := x.Size() > printThreshold
	var rec func(axis, off int) (*printNode, error)
	rec = func(axis, off int) (*printNode, error) {
		n, st := a.Shape()[axis], a.Strides()[axis]
		node := &printNode{}
		last := axis == x.NDim()-1
		for i := 0; i < n; i++ {
			if summarise && n > 6 && i == 3 {
				if last {
					node.elems = append(node.elems, "...")
				} else {
					node.kids = append(node.kids, nil)
				}
				i = n - 3
			}
			if !last {
				k, err := rec(axis+1, off+i*st)
				if err != nil {
					return nil, err
				}
				node.kids = append(node.kids, k)
				continue
			}
			s, err := elem(off + i*st)
			if err != nil {
				return nil, err
			}
			node.elems = append(node.elems, s)
		}
		return node, nil
	}
	return rec(0, 0)
}

// oneLine is the nested-list form: [[1, 2], [3, 4]].
func (n *printNode) oneLine() string {
	var sb strings.Builder
	n.writeLine(&sb)
	return sb.String()
}

func (n *printNode) writeLine(sb *strings.Builder) {
	sb.WriteByte('[')
	if n.kids == nil {
		sb.WriteString(strings.Join(n.elems, ", "))
	}
	for i, k := range n.kids {
		if i > 0 {
			sb.WriteString(", ")
		}
		if k == nil {
			sb.WriteString("...")
			continue
		}
		k.writeLine(sb)
	}
	sb.WriteByte(']')
}

// width is the longest element text under n.
func (n *printNode) width() int {
	w := 0
	for _, e := range n.elems {
		if e != "..." {
			w = max(w, len(e))
		}
	}
	for _, k := range n.kids {
		if k != nil {
			w = max(w, k.width())
		}
	}
	return w
}

// layout is the multi-line form of an array of ndim axes, as NumPy's:
// a row per line, sub-arrays of three or more axes apart by blank lines,
// and with align (numbers, bools) every element right-aligned to the
// widest; vectors and structs print as they are.
func (n *printNode) layout(ndim int, align bool) string {
	var sb strings.Builder
	w := 0
	if align {
		w = n.width()
	}
	n.writeRows(&sb, 0, ndim, w)
	return sb.String()
}

// writeRows writes n, whose '[' is at column col, with ndim axes.
func (n *printNode) writeRows(sb *strings.Builder, col, ndim, w int) {
	sb.WriteByte('[')
	if n.kids == nil {
		writeWrapped(sb, n.elems, col+1, w)
	}
	for i, k := range n.kids {
		if i > 0 {
			sb.WriteString(",")
			sb.WriteString(strings.Repeat("\n", ndim-1))
			sb.WriteString(strings.Repeat(" ", col+1))
		}
		if k == nil {
			sb.WriteString("...")
			continue
		}
		k.writeRows(sb, col+1, ndim-1, w)
	}
	sb.WriteByte(']')
}

// writeWrapped writes elements right-aligned to w, ", " apart, starting
// at column col and wrapping to it before printWidth.
func writeWrapped(sb *strings.Builder, elems []string, col, w int) {
	at := col
	for i, e := range elems {
		cell := e
		if e != "..." { // NumPy leaves the ellipsis unpadded
			cell = strings.Repeat(" ", max(w-len(e), 0)) + e
		}
		if i > 0 {
			sb.WriteByte(',')
			at++
			if at+1+len(cell)+2 > printWidth {
				sb.WriteString("\n" + strings.Repeat(" ", col))
				at = col
			} else {
				sb.WriteByte(' ')
				at++
			}
		}
		sb.WriteString(cell)
		at += len(cell)
	}
}
