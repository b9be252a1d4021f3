package jupyter

import (
	"bytes"
	"testing"

	"github.com/gscript-lang/gscript/interp"
)

// FuzzDecode: no frames make decode panic, and what it accepts was
// signed with the key.
func FuzzDecode(f *testing.F) {
	s := signer{[]byte("key")}
	m, _ := newMessage("s", "kernel_info_request", nil, map[string]any{})
	f.Add(bytes.Join(s.encode(m), []byte{0}))
	f.Add([]byte("<IDS|MSG>\x00\x00{}\x00{}\x00{}\x00{}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		frames := bytes.Split(b, []byte{0})
		if m, err := s.decode(frames); err == nil && m.header.MsgType == "" {
			t.Errorf("accepted a message without a type")
		}
	})
}

// FuzzRequests: any content of a complete, inspect or is_complete
// request is answered or refused with an error, never a panic.
func FuzzRequests(f *testing.F) {
	k, err := newKernel(ConnectionInfo{Transport: "tcp", IP: "127.0.0.1"}, Options{Interp: interp.Options{Device: "cpu"}})
	if err != nil {
		f.Fatal(err)
	}
	defer k.in.Close()
	for _, seed := range []string{`{"code": "xs.sh", "cursor_pos": 5}`, `{"code": "é.", "cursor_pos": -3}`,
		`{"code": "zeros", "cursor_pos": 99}`, `{"code": 3}`, `[]`, `{"code": ":time {"}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, content string) {
		for _, typ := range []string{"complete_request", "inspect_request", "is_complete_request"} {
			handlers[typ].fn(k, &message{content: []byte(content)})
		}
	})
}
