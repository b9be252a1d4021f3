package ir

// FieldNeed is what the field accesses of a kernel need of one array
// argument, whose byte axis is only known at launch: its last axis must
// have stride 1 and at least Bytes bytes, and its data address and the
// strides of its other axes (in bytes: the elements are u8) must be
// multiples of Align, so that every access is inside its element and
// aligned.
type FieldNeed struct {
	Param int // entry parameter index
	Bytes int // the largest Imm + size of the accesses
	Align int // the size of the largest accessed type
}

// FieldNeeds lists, in parameter order, the array parameters of k's entry
// that field accesses reach, directly or through the calls of device
// funcs, with what they need; nil when there are none. Backends compute
// it once per compile and check each launch's arguments against it. k
// must have passed Verify.
func FieldNeeds(k *Kernel) []FieldNeed {
	w := &fieldWalk{k: k, sums: map[*Func][]FieldNeed{}}
	var out []FieldNeed
	for _, n := range w.summary(k.Entry) {
		if n.Bytes > 0 {
			out = append(out, n)
		}
	}
	return out
}

// fieldWalk computes, once per func, the needs of its own parameters.
type fieldWalk struct {
	k    *Kernel
	sums map[*Func][]FieldNeed
}

// summary is f's needs by parameter index (Bytes 0: none). A func being
// summarised is entered with an empty summary, so that malformed
// recursive IR ends; the backends refuse recursion anyway.
func (w *fieldWalk) summary(f *Func) []FieldNeed {
	if s, ok := w.sums[f]; ok {
		return s
	}
	s := make([]FieldNeed, len(f.Params))
	for i := range s {
		s[i].Param = i
	}
	w.sums[f] = s
	w.stmts(f, s, f.Body)
	return s
}

func (w *fieldWalk) stmts(f *Func, s []FieldNeed, list []Stmt) {
	for _, st := range list {
		switch st := st.(type) {
		case *Inst:
			w.inst(f, s, st)
		case *If:
			w.stmts(f, s, st.Then)
			w.stmts(f, s, st.Else)
		case *Loop:
			w.stmts(f, s, st.Cond)
			w.stmts(f, s, st.Body)
			w.stmts(f, s, st.Post)
		}
	}
}

func (w *fieldWalk) inst(f *Func, s []FieldNeed, in *Inst) {
	switch {
	case in.Op == OpCall:
		for i, n := range w.summary(w.k.Funcs[in.Callee]) {
			if a := in.ArrayArgs[i]; a >= 0 && n.Bytes > 0 {
				s[a].need(n.Bytes, n.Align)
			}
		}
	case (in.Op == OpLoadField || in.Op == OpStoreField) && in.Space == SpaceParam:
		var t Type // the value's type: the destination's or the stored register's
		if in.Op == OpLoadField {
			t = f.Regs[in.Dst]
		} else {
			t = f.Regs[in.Args[len(in.Args)-1]]
		}
		off, _ := FieldOffset(in.Imm)
		s[in.Param].need(off+t.Size(), t.Size())
	}
}

func (n *FieldNeed) need(bytes, align int) {
	n.Bytes, n.Align = max(n.Bytes, bytes), max(n.Align, align)
}
