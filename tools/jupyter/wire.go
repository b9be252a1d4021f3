package jupyter

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// ConnectionInfo is a connection file: where the five sockets listen and
// the key that signs messages. Jupyter writes it and starts the kernel
// with its path.
type ConnectionInfo struct {
	Transport       string `json:"transport"` // "tcp" or "ipc"
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	SignatureScheme string `json:"signature_scheme"` // "hmac-sha256", or "" with no key
	Key             string `json:"key"`
}

// ReadConnectionFile reads and checks a connection file.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	var c ConnectionInfo
	b, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("connection file %s: %w", path, err)
	}
	if err := c.check(); err != nil {
		return c, fmt.Errorf("connection file %s: %w", path, err)
	}
	return c, nil
}

func (c ConnectionInfo) check() error {
	switch {
	case c.Transport != "tcp" && c.Transport != "ipc":
		return fmt.Errorf("transport %q: want tcp or ipc", c.Transport)
	case c.Key != "" && c.SignatureScheme != "hmac-sha256":
		return fmt.Errorf("signature scheme %q: only hmac-sha256 is supported", c.SignatureScheme)
	case c.IP == "":
		return errors.New("no ip")
	}
	return nil
}

// endpoint is the ZeroMQ address of a port: tcp://ip:port, or for ipc
// Jupyter's ipc://ip-port (ip is then a path prefix).
func (c ConnectionInfo) endpoint(port int) string {
	if c.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", c.IP, port)
	}
	return fmt.Sprintf("tcp://%s:%d", c.IP, port)
}

// delimiter separates a message's routing identities from its parts.
const delimiter = "<IDS|MSG>"

// protocolVersion is the messaging protocol spoken.
const protocolVersion = "5.3"

// header is a message's header.
type header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// message is one message on the wire: the routing identities, the
// header, the parent's header as received (a reply echoes the request's
// header bytes), metadata, content and any binary buffers.
type message struct {
	ids       [][]byte
	header    header
	rawHeader []byte
	parent    json.RawMessage
	metadata  json.RawMessage
	content   json.RawMessage
	buffers   [][]byte
}

// signer signs and checks messages with HMAC-SHA256 over the header,
// parent header, metadata and content frames; with no key, messages are
// neither signed nor checked (the protocol's empty signature).
type signer struct{ key []byte }

func (s signer) sign(parts ...[]byte) []byte {
	if len(s.key) == 0 {
		return nil
	}
	m := hmac.New(sha256.New, s.key)
	for _, p := range parts {
		m.Write(p)
	}
	return []byte(hex.EncodeToString(m.Sum(nil)))
}

// errBadSignature is a message whose signature does not match: refused.
var errBadSignature = errors.New("bad signature")

// decode parses a multipart message and checks its signature. Any
// malformed message is an error (the kernel logs it and goes on).
func (s signer) decode(frames [][]byte) (*message, error) {
	i := 0
	for i < len(frames) && string(frames[i]) != delimiter {
		i++
	}
	if len(frames)-i < 6 {
		return nil, fmt.Errorf("malformed message: %d frames, want the delimiter and 5 parts after the identities", len(frames))
	}
	sig, parts := frames[i+1], frames[i+2:i+6]
	if len(s.key) > 0 && !hmac.Equal(sig, s.sign(parts...)) {
		return nil, errBadSignature
	}
	m := &message{ids: frames[:i], rawHeader: parts[0], parent: parts[1], metadata: parts[2], content: parts[3], buffers: frames[i+6:]}
	if err := json.Unmarshal(parts[0], &m.header); err != nil {
		return nil, fmt.Errorf("malformed header: %w", err)
	}
	if m.header.MsgType == "" {
		return nil, errors.New("malformed header: no msg_type")
	}
	for _, p := range parts[1:] {
		if !json.Valid(p) {
			return nil, errors.New("malformed message: a part is not JSON")
		}
	}
	return m, nil
}

// encode lays a message out as frames, signed.
func (s signer) encode(m *message) [][]byte {
	parts := [][]byte{m.rawHeader, m.parent, m.metadata, m.content}
	frames := append([][]byte{}, m.ids...)
	frames = append(frames, []byte(delimiter), s.sign(parts...))
	frames = append(frames, parts...)
	return append(frames, m.buffers...)
}

// newMessage makes a message of type typ answering parent (nil for
// none) in session, with content marshalled to JSON.
func newMessage(session, typ string, parent *message, content any) (*message, error) {
	h := header{MsgID: newID(), Session: session, Username: "kernel",
		Date: time.Now().UTC().Format("2006-01-02T15:04:05.000000Z"), MsgType: typ, Version: protocolVersion}
	rawHeader, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(content)
	if err != nil {
		return nil, err
	}
	m := &message{header: h, rawHeader: rawHeader, parent: json.RawMessage("{}"), metadata: json.RawMessage("{}"), content: body}
	if parent != nil {
		m.parent, m.ids = bytes.Clone(parent.rawHeader), parent.ids
	}
	return m, nil
}

// newID is a random UUID (version 4), the form Jupyter's ids take.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
