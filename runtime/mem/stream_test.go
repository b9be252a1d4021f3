package mem

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

// streamRoundTrip writes a with WriteStream from a pattern and reads it back
// with ReadStream: every byte in order, whatever the chunking.
func streamRoundTrip(t *testing.T, a *Array) {
	t.Helper()
	want := make([]byte, a.NBytes())
	for i := range want {
		want[i] = byte(i*7 + i>>12)
	}
	in := bytes.NewReader(want)
	err := a.WriteStream(func(b []byte) error {
		if len(b) == 0 || len(b) > StagingChunk {
			t.Fatalf("chunk of %d bytes", len(b))
		}
		_, err := in.Read(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := a.ReadStream(func(b []byte) error { got.Write(b); return nil }); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("%s array: read back differs", a.Kind())
	}
	// Host reads see what the stream wrote.
	b, err := a.ReadHost()
	if err != nil || !bytes.Equal(b[:a.NBytes()], want) {
		t.Fatalf("ReadHost after WriteStream differs: %v", err)
	}
}

// Host memory is streamed in place, in chunks; a strided view is refused.
func TestStreamHost(t *testing.T) {
	tr := NewTracker(nil)
	a, err := tr.New(HostAllocator{}, CPUDevice, ir.F32, []int{StagingChunk/4*2 + 123})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	streamRoundTrip(t, a)
	v, _ := a.Reshape([]int{a.Size()})
	if v, err = v.Slice(0, 10); err != nil {
		t.Fatal(err)
	}
	stride := *v
	stride.strides = []int{2}
	if err := stride.ReadStream(func([]byte) error { return nil }); !errors.Is(err, errStreamView) {
		t.Errorf("strided view: %v", err)
	}
}

// Device memory streams through the staging pair: several chunks and a
// tail, and a callback's error stops the stream and leaves the device
// usable.
func TestGPUStreamDevice(t *testing.T) {
	needGPU(t)
	tr := NewTracker(nil)
	for _, alloc := range []Allocator{DeviceAllocator{}, MempoolAllocator{}} {
		a, err := tr.New(alloc, cuda0, ir.F32, []int{StagingChunk/4*3 + 1001})
		if err != nil {
			t.Fatal(err)
		}
		streamRoundTrip(t, a)
		boom := errors.New("boom")
		calls := 0
		err = a.ReadStream(func([]byte) error {
			if calls++; calls == 2 {
				return boom
			}
			return nil
		})
		if !errors.Is(err, boom) || calls != 2 {
			t.Errorf("ReadStream stopped with %v after %d calls", err, calls)
		}
		if err := a.WriteStream(func([]byte) error { return boom }); !errors.Is(err, boom) {
			t.Errorf("WriteStream: %v", err)
		}
		streamRoundTrip(t, a) // the staging buffers and the stream still work
		a.Free()
	}
}
