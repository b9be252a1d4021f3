package cpu

import (
	"fmt"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
)

// Shared and local arrays live in one allocation per frame: the block's
// shared arrays first (one copy, at Kernel.SharedBytes' offsets), then
// every local array of every func instance, one copy per lane. A local
// array is stored element-major: element k of lane i is at
// (k*width + i)*size from its start, so that lanes indexing the same
// element (the common case: a loop over a register tile) touch adjacent
// memory, and its strides are the C strides times width. A local array of
// u8 that field accesses name is stored record-major instead: its last
// axis holds structs' bytes, which stay together so that a field is one
// aligned typed access: byte j of element k of lane i is at
// (k*width + i)*E + j for E bytes per element (ir.Verify makes E a
// multiple of every field's size, and the array starts 8-aligned).

// maxSharedBytes is the shared memory one block may use on the cpu: the
// H200's opt-in limit per block, so that a script fits on both devices
// or on neither.
const maxSharedBytes = 232448

// maxLocalBytes bounds a thread's local arrays (every call site of a func
// counts, as funcs are inlined): CUDA's limit of local memory per thread.
const maxLocalBytes = 512 << 10

// maxLocalFrame bounds the local arrays of one frame of a flat kernel:
// its blocks have fewer lanes when the arrays are large.
const maxLocalFrame = 16 << 20

// maxFrameBytes bounds the memory of a launch's frames together: a
// kernel with large local arrays runs on fewer workers.
const maxFrameBytes = 1 << 30

// bufLayout is one shared or local array of the program.
type bufLayout struct {
	buf    ir.Buffer
	local  bool
	record bool // a local array stored record-major (field accesses)
	at     int  // byte offset in frame memory (a local array: per lane, until layout)
}

// unit is the bytes of a local array that each lane has together: an
// element, or a record-major array's element bytes.
func (b *bufLayout) unit() int {
	if b.record {
		return b.buf.Dims[len(b.buf.Dims)-1]
	}
	return b.buf.Elem.Size()
}

// addLocals allocates the local arrays of a func instance and returns
// their indices in Program.bufs.
func (c *compiler) addLocals(f *ir.Func) []int {
	idx := make([]int, len(f.Locals))
	record := fieldLocals(f.Body, make([]bool, len(f.Locals)))
	for i, b := range f.Locals {
		align := b.Elem.Size() // a power of two: aligns the array's elements
		if record[i] {
			align = 8 // the largest field
		}
		c.localBytes = (c.localBytes + align - 1) &^ (align - 1)
		idx[i] = len(c.p.bufs)
		c.p.bufs = append(c.p.bufs, bufLayout{buf: b, local: true, record: record[i], at: c.localBytes})
		c.localBytes += b.Bytes()
	}
	return idx
}

// fieldLocals marks the local arrays that field accesses of body name.
func fieldLocals(body []ir.Stmt, marks []bool) []bool {
	for _, s := range body {
		switch s := s.(type) {
		case *ir.Inst:
			if (s.Op == ir.OpLoadField || s.Op == ir.OpStoreField) && s.Space == ir.SpaceLocal {
				marks[s.Param] = true
			}
		case *ir.If:
			fieldLocals(s.Then, marks)
			fieldLocals(s.Else, marks)
		case *ir.Loop:
			fieldLocals(s.Cond, marks)
			fieldLocals(s.Body, marks)
			fieldLocals(s.Post, marks)
		}
	}
	return marks
}

// addShared lays out the kernel's shared arrays, refusing more than a
// block may have (at the array that crosses the limit).
func (c *compiler) addShared() error {
	off := 0
	for _, b := range c.k.Shared {
		off = (off + 15) &^ 15
		c.p.bufs = append(c.p.bufs, bufLayout{buf: b, at: off})
		if off += b.Bytes(); off > maxSharedBytes {
			at := b.Pos
			if !at.IsValid() {
				at = c.k.Entry.Pos
			}
			return &pos.Error{Pos: at, Msg: fmt.Sprintf("kernel %s: shared arrays take %d bytes per block, more than the %d bytes a block may have on cpu",
				c.k.Entry.Name, c.k.SharedBytes(), maxSharedBytes)}
		}
	}
	c.p.sharedBytes = (off + 7) &^ 7
	return nil
}

// layout fixes the block width, the local arrays' offsets and the
// workers whose frames fit in maxFrameBytes once every instance is known.
func (c *compiler) layout() error {
	p := c.p
	if c.localBytes > maxLocalBytes {
		return &pos.Error{Pos: c.k.Entry.Pos, Msg: fmt.Sprintf("kernel %s: local arrays take %d bytes per thread (each call of a func counted), more than the %d bytes a thread may have",
			c.k.Entry.Name, c.localBytes, maxLocalBytes)}
	}
	p.width = lanes
	if p.blk != nil {
		p.width = p.blk.threads
	}
	for p.blk == nil && p.width > ir.WarpSize && p.width*c.localBytes > maxLocalFrame {
		p.width /= 2
	}
	for i := range p.bufs {
		if b := &p.bufs[i]; b.local {
			b.at = p.sharedBytes + b.at*p.width
		}
	}
	p.memBytes = (p.sharedBytes + c.localBytes*p.width + 7) &^ 7
	p.maxWorkers = max(1, maxFrameBytes/(p.memBytes+len(p.regs)*lanes*8+1))
	return nil
}

// newBufs makes a frame's memory and its shared and local arrays.
func (p *Program) newBufs(fr *frame) {
	fr.bufMem = make([]uint64, p.memBytes/8)
	fr.bufs = make([]arrayInfo, len(p.bufs))
	for i, b := range p.bufs {
		a := arrayInfo{name: b.buf.Name, ndim: len(b.buf.Dims)}
		if len(fr.bufMem) > 0 {
			a.data = unsafe.Add(unsafe.Pointer(&fr.bufMem[0]), b.at)
		}
		st := 1
		if b.local {
			st = p.width
		}
		for ax := a.ndim - 1; ax >= 0; ax-- {
			a.shape[ax], a.strides[ax] = b.buf.Dims[ax], st
			if b.record && ax == a.ndim-1 {
				a.strides[ax] = 1 // the element's bytes, together
			}
			st *= b.buf.Dims[ax]
		}
		fr.bufs[i] = a
	}
}

// clearShared gives a block zeroed shared arrays.
func (p *Program) clearShared(fr *frame) {
	clear(fr.bufMem[:p.sharedBytes/8])
}

// zeroChunk is how many bytes of local arrays zeroLocals clears between
// polls of the launch's cancellation: a block kernel's frame may hold
// hundreds of MB of them, seconds of clearing.
const zeroChunk = 1 << 20

// zeroLocals zeroes the local arrays bufs for the lanes of m (a func
// starting on them); false when the launch stopped (canceled, or another
// worker failed) before it was done.
func zeroLocals(fr *frame, m mask, bufs []int) bool {
	w := fr.ln.p.width
	cleared := 0
	for _, j := range bufs {
		b := &fr.ln.p.bufs[j]
		size := b.unit()
		mem := unsafe.Slice((*byte)(fr.bufs[j].data), b.buf.Bytes()*w)
		for row := 0; row < len(mem); row += w * size {
			if m.all {
				clear(mem[row : row+fr.n*size])
				cleared += fr.n * size
			} else {
				for _, i := range m.idx {
					clear(mem[row+int(i)*size : row+int(i+1)*size])
				}
				cleared += len(m.idx) * size
			}
			if cleared >= zeroChunk {
				if fr.ln.stopped() {
					return false
				}
				cleared = 0
			}
		}
	}
	return true
}
