package jupyter

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/gscript-lang/gscript/interp"
)

// client is a Jupyter client over real ZeroMQ sockets: shell and control
// DEALERs, an iopub SUB and a heartbeat REQ, signing with key.
type client struct {
	t                  *testing.T
	sig                signer
	session            string
	shell, control, hb zmq4.Socket
	iopub              zmq4.Socket
	pub                chan *message
	log                *syncBuffer
	served             chan struct{} // closed when the kernel's serve returns
	serveErr           error
	interrupts         chan os.Signal
	kernel             *Kernel
}

// syncBuffer is the kernel's log, read by the test while the kernel writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func freePorts(t *testing.T, n int) []int {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
		defer l.Close()
	}
	return ports
}

// startKernel serves a kernel on the cpu on fresh ports and connects a
// client.
func startKernel(t *testing.T) *client {
	t.Helper()
	return startKernelOn(t, "cpu")
}

// startKernelOn is startKernel with dev as the default device.
func startKernelOn(t *testing.T, dev string) *client {
	t.Helper()
	p := freePorts(t, 5)
	info := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: p[0], ControlPort: p[1], StdinPort: p[2],
		IOPubPort: p[3], HBPort: p[4], SignatureScheme: "hmac-sha256", Key: "a-secret-key"}
	c := &client{t: t, sig: signer{[]byte(info.Key)}, session: newID(), pub: make(chan *message, 1000),
		log: &syncBuffer{}, served: make(chan struct{}), interrupts: make(chan os.Signal, 1)}
	k, err := newKernel(info, Options{Interp: interp.Options{Device: dev}, Log: c.log, Interrupts: c.interrupts, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	c.kernel = k
	ctx, cancel := context.WithCancel(context.Background())
	go func() { c.serveErr = k.serve(ctx); close(c.served) }()
	c.shell, c.control = zmq4.NewDealer(ctx), zmq4.NewDealer(ctx)
	c.iopub, c.hb = zmq4.NewSub(ctx), zmq4.NewReq(ctx)
	for _, d := range []struct {
		s    zmq4.Socket
		port int
	}{{c.shell, p[0]}, {c.control, p[1]}, {c.iopub, p[3]}, {c.hb, p[4]}} {
		if err := d.s.Dial(info.endpoint(d.port)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			zm, err := c.iopub.Recv()
			if err != nil {
				return
			}
			if m, err := c.sig.decode(zm.Frames); err == nil {
				c.pub <- m
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		for _, s := range []zmq4.Socket{c.shell, c.control, c.iopub, c.hb} {
			s.Close()
		}
		select {
		case <-c.served:
		case <-time.After(10 * time.Second):
			t.Error("the kernel did not stop")
		}
	})
	c.waitIOPub()
	return c
}

// waitIOPub sends kernel_info until a status message arrives on iopub:
// a SUB misses what is published before its subscription reaches the
// kernel, as Jupyter's clients know.
func (c *client) waitIOPub() {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		c.request(c.shell, "kernel_info_request", map[string]any{})
		select {
		case m := <-c.pub:
			if m.header.MsgType == "status" {
				c.drain()
				return
			}
		case <-time.After(200 * time.Millisecond):
		}
	}
	c.t.Fatal("no iopub message from the kernel")
}

// drain empties the iopub queue.
func (c *client) drain() {
	for {
		select {
		case <-c.pub:
		case <-time.After(100 * time.Millisecond):
			return
		}
	}
}

// send sends a signed request and returns it.
func (c *client) send(sock zmq4.Socket, typ string, content any) *message {
	c.t.Helper()
	m, err := newMessage(c.session, typ, nil, content)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := sock.SendMulti(zmq4.NewMsgFrom(c.sig.encode(m)...)); err != nil {
		c.t.Fatal(err)
	}
	return m
}

// request sends a request and waits for its reply.
func (c *client) request(sock zmq4.Socket, typ string, content any) (*message, map[string]any) {
	c.t.Helper()
	req := c.send(sock, typ, content)
	return req, c.reply(sock, req)
}

func (c *client) reply(sock zmq4.Socket, req *message) map[string]any {
	c.t.Helper()
	type result struct {
		m   *message
		err error
	}
	ch := make(chan result, 1)
	go func() {
		zm, err := sock.Recv()
		if err != nil {
			ch <- result{nil, err}
			return
		}
		m, err := c.sig.decode(zm.Frames)
		ch <- result{m, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			c.t.Fatal(r.err)
		}
		var parent header
		json.Unmarshal(r.m.parent, &parent)
		if parent.MsgID != req.header.MsgID {
			c.t.Fatalf("a reply to %q, want one to %q", parent.MsgID, req.header.MsgID)
		}
		return content(c.t, r.m)
	case <-time.After(20 * time.Second):
		c.t.Fatalf("no reply to %s", req.header.MsgType)
	}
	return nil
}

func content(t *testing.T, m *message) map[string]any {
	var v map[string]any
	if err := json.Unmarshal(m.content, &v); err != nil {
		t.Fatal(err)
	}
	v["msg_type"] = m.header.MsgType
	return v
}

// output is what a request published on iopub, up to its idle status.
func (c *client) output(req *message) []map[string]any {
	c.t.Helper()
	var out []map[string]any
	deadline := time.After(20 * time.Second)
	for {
		select {
		case m := <-c.pub:
			var parent header
			json.Unmarshal(m.parent, &parent)
			if parent.MsgID != req.header.MsgID {
				continue
			}
			v := content(c.t, m)
			if v["msg_type"] == "status" && v["execution_state"] == "idle" {
				return out
			}
			if v["msg_type"] != "status" {
				out = append(out, v)
			}
		case <-deadline:
			c.t.Fatalf("no idle status after %s; got %v", req.header.MsgType, out)
		}
	}
}

// execute runs code and returns the reply and the output.
func (c *client) execute(code string) (map[string]any, []map[string]any) {
	c.t.Helper()
	req, reply := c.request(c.shell, "execute_request", map[string]any{"code": code, "silent": false})
	return reply, c.output(req)
}

// streamText joins the stream output of name.
func streamText(out []map[string]any, name string) string {
	var b strings.Builder
	for _, o := range out {
		if o["msg_type"] == "stream" && o["name"] == name {
			b.WriteString(o["text"].(string))
		}
	}
	return b.String()
}

func ofType(out []map[string]any, typ string) []map[string]any {
	var r []map[string]any
	for _, o := range out {
		if o["msg_type"] == typ {
			r = append(r, o)
		}
	}
	return r
}

func TestKernelInfo(t *testing.T) {
	c := startKernel(t)
	_, r := c.request(c.shell, "kernel_info_request", map[string]any{})
	if r["protocol_version"] != "5.3" || r["implementation"] != "gscript" || r["language_info"].(map[string]any)["file_extension"] != ".gs" {
		t.Errorf("kernel_info_reply %v", r)
	}
	_, r = c.request(c.control, "kernel_info_request", map[string]any{})
	if r["status"] != "ok" {
		t.Errorf("kernel_info on control: %v", r)
	}
	// The heartbeat echoes.
	if err := c.hb.Send(zmq4.NewMsgString("ping")); err != nil {
		t.Fatal(err)
	}
	if m, err := c.hb.Recv(); err != nil || string(m.Frames[0]) != "ping" {
		t.Errorf("heartbeat: %v %v", m, err)
	}
}

func TestExecute(t *testing.T) {
	c := startKernel(t)
	reply, out := c.execute("array m: f32[2, 3] = 1.5\nprint(\"rows\", m.shape[0])\nprint(\"careful\", file=\"stderr\")\nm")
	if reply["status"] != "ok" || reply["execution_count"] != 1.0 {
		t.Errorf("reply %v", reply)
	}
	if got := streamText(out, "stdout"); got != "rows 2\n" {
		t.Errorf("stdout %q", got)
	}
	if got := streamText(out, "stderr"); got != "careful\n" {
		t.Errorf("stderr %q", got)
	}
	if in := ofType(out, "execute_input"); len(in) != 1 || in[0]["execution_count"] != 1.0 {
		t.Errorf("execute_input %v", in)
	}
	res := ofType(out, "execute_result")
	if len(res) != 1 {
		t.Fatalf("execute_result %v", out)
	}
	data := res[0]["data"].(map[string]any)
	if data["text/plain"] != "[[1.5, 1.5, 1.5], [1.5, 1.5, 1.5]]" {
		t.Errorf("text/plain %q", data["text/plain"])
	}
	if h, _ := data["text/html"].(string); !strings.Contains(h, "<caption>f32[2, 3] on cpu</caption>") || strings.Count(h, "<td>1.5</td>") != 6 {
		t.Errorf("text/html %q", h)
	}
	// The session persists: names and arrays of earlier cells.
	reply, out = c.execute("m += 1.0\nsum(m)")
	if res := ofType(out, "execute_result"); reply["execution_count"] != 2.0 || len(res) != 1 || res[0]["data"].(map[string]any)["text/plain"] != "15.0" {
		t.Errorf("second cell: %v %v", reply, out)
	}
	// A statement without a value has no result; a large array has no table.
	_, out = c.execute("let big = zeros([30, 30])")
	if len(ofType(out, "execute_result")) != 0 {
		t.Errorf("a let has a result: %v", out)
	}
	_, out = c.execute("big")
	if res := ofType(out, "execute_result"); len(res) != 1 || res[0]["data"].(map[string]any)["text/html"] != nil {
		t.Errorf("a 30x30 array: %v", res)
	}
}

// TestStreamsAsProduced: output printed before a long step arrives
// while the cell still runs, not with its reply.
func TestStreamsAsProduced(t *testing.T) {
	c := startKernel(t)
	req := c.send(c.shell, "execute_request", map[string]any{"code": "print(\"first\")\nlet t0 = time()\nwhile time() - t0 < 0.6 {\n}\nprint(\"second\")"})
	start := time.Now()
	var firstAt time.Duration
	for firstAt == 0 {
		select {
		case m := <-c.pub:
			if v := content(t, m); v["msg_type"] == "stream" {
				if v["text"] != "first\n" {
					t.Fatalf("first stream %q", v["text"])
				}
				firstAt = time.Since(start)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no stream message")
		}
	}
	c.reply(c.shell, req)
	if total := time.Since(start); total-firstAt < 300*time.Millisecond {
		t.Errorf("the first line came %v after the request, the reply %v: not streamed", firstAt, total)
	}
	c.drain()
}

func TestErrors(t *testing.T) {
	c := startKernel(t)
	c.execute("fn f(x) {\n    return x / 0\n}")
	reply, out := c.execute("print(\"before\")\nf(3)")
	if reply["status"] != "error" || reply["ename"] != "RuntimeError" || reply["evalue"] != "<cell 1>:2:14: integer division by zero" {
		t.Errorf("reply %v", reply)
	}
	tb := strings.Join(toStrings(reply["traceback"]), "\n")
	if want := "<cell 1>:2:14: integer division by zero\n  in f (<cell 2>:2:2)\n    return x / 0\n             ^"; tb != want {
		t.Errorf("traceback\n%s\nwant\n%s", tb, want)
	}
	if errs := ofType(out, "error"); len(errs) != 1 || errs[0]["ename"] != "RuntimeError" {
		t.Errorf("error output %v", out)
	}
	if streamText(out, "stdout") != "before\n" {
		t.Errorf("output before the error: %v", out)
	}
	reply, _ = c.execute("let y = undefined_name + 1")
	if reply["ename"] != "CompileError" || !strings.Contains(reply["evalue"].(string), "<cell 3>:1:9: undefined: undefined_name") {
		t.Errorf("compile error reply %v", reply)
	}
	reply, _ = c.execute(":mem")
	if reply["status"] != "error" || !strings.Contains(reply["evalue"].(string), "only :time works in a cell") {
		t.Errorf(":mem reply %v", reply)
	}
	reply, _ = c.execute("exit(3)")
	if reply["ename"] != "Exit" {
		t.Errorf("exit reply %v", reply)
	}
	if reply, _ := c.execute("1 + 1"); reply["status"] != "ok" {
		t.Errorf("after the errors: %v", reply)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestTimePrefix(t *testing.T) {
	c := startKernel(t)
	reply, out := c.execute(":time let s = 0\nfor i in range(1000) {\n    s += i\n}\nprint(s)")
	if reply["status"] != "ok" || !strings.HasPrefix(streamText(out, "stdout"), "499500\ntime: ") {
		t.Errorf("%v %q", reply, streamText(out, "stdout"))
	}
	// Positions after the prefix are the cell's.
	reply, _ = c.execute(":time let q = nope")
	if !strings.Contains(reply["evalue"].(string), "<cell 2>:1:15: undefined: nope") {
		t.Errorf("%v", reply["evalue"])
	}
}

func TestShow(t *testing.T) {
	c := startKernel(t)
	_, out := c.execute("print(\"a plate\")\nshow(ones([4, 6]), cmap=\"magma\")")
	d := ofType(out, "display_data")
	if len(d) != 1 || out[2]["msg_type"] != "display_data" { // after the text printed before it
		t.Fatalf("output %v", out)
	}
	meta := d[0]["metadata"].(map[string]any)["image/png"].(map[string]any)
	if meta["width"] != 6.0 || meta["height"] != 4.0 || !strings.HasPrefix(d[0]["data"].(map[string]any)["image/png"].(string), "iVBORw0KGgo") {
		t.Errorf("display_data %v", d[0])
	}
}

func TestCompleteInspect(t *testing.T) {
	c := startKernel(t)
	c.execute("let xs = zeros(3)\nlet names = [\"a\"]")
	_, r := c.request(c.shell, "complete_request", map[string]any{"code": "print(xs.sh", "cursor_pos": 11})
	if !slicesEqual(r["matches"], []string{"shape"}) || r["cursor_start"] != 9.0 || r["cursor_end"] != 11.0 {
		t.Errorf("complete %v", r)
	}
	// cursor_pos counts code points.
	_, r = c.request(c.shell, "complete_request", map[string]any{"code": "let é = zer", "cursor_pos": 11})
	if !slicesEqual(r["matches"], []string{"zero_grad", "zeros"}) || r["cursor_start"] != 8.0 {
		t.Errorf("complete after é %v", r)
	}
	for _, c2 := range []struct{ code, want string }{
		{"zeros(3)", "zeros(shape, dtype=f32"},
		{"names.append", "list.append("},
		{"xs", "xs: array\n[0.0, 0.0, 0.0]"},
	} {
		_, r = c.request(c.shell, "inspect_request", map[string]any{"code": c2.code, "cursor_pos": 2, "detail_level": 0})
		text, _ := r["data"].(map[string]any)["text/plain"].(string)
		if r["found"] != true || !strings.HasPrefix(text, c2.want) {
			t.Errorf("inspect %q: %v", c2.code, r)
		}
	}
	_, r = c.request(c.shell, "inspect_request", map[string]any{"code": "nothing_here", "cursor_pos": 3})
	if r["found"] != false {
		t.Errorf("inspect of an unknown name %v", r)
	}
	for code, want := range map[string]string{"fn f() {": "incomplete", "let a = [1,": "incomplete", "let a = 1": "complete"} {
		if _, r = c.request(c.shell, "is_complete_request", map[string]any{"code": code}); r["status"] != want {
			t.Errorf("is_complete %q: %v", code, r)
		}
	}
}

func slicesEqual(v any, want []string) bool {
	l, ok := v.([]any)
	if !ok || len(l) != len(want) {
		return false
	}
	for i := range l {
		if l[i] != want[i] {
			return false
		}
	}
	return true
}

// interruptUntilReply interrupts (by interrupt_request, or by the signal
// channel) until req's reply comes: an interrupt that arrives before the
// cell has started does nothing, as between cells.
func (c *client) interruptUntilReply(req *message, how string) map[string]any {
	c.t.Helper()
	replies := make(chan map[string]any, 1)
	go func() { replies <- c.reply(c.shell, req) }()
	for range 50 {
		if how == "signal" {
			c.interrupts <- os.Interrupt
		} else if _, r := c.request(c.control, "interrupt_request", map[string]any{}); r["status"] != "ok" {
			c.t.Errorf("interrupt_reply %v", r)
		}
		select {
		case r := <-replies:
			return r
		case <-time.After(200 * time.Millisecond):
		}
	}
	c.t.Fatalf("%s: no reply after 50 interrupts", req.header.MsgType)
	return nil
}

// TestInterrupt: a long loop stops on interrupt_request (control) and on
// SIGINT, and the session goes on with its names.
func TestInterrupt(t *testing.T) {
	c := startKernel(t)
	c.execute("let kept = 42")
	for _, how := range []string{"message", "signal"} {
		req := c.send(c.shell, "execute_request", map[string]any{"code": "let n = 0\nwhile true {\n    n += 1\n}"})
		time.Sleep(100 * time.Millisecond)
		if r := c.interruptUntilReply(req, how); r["status"] != "error" || r["ename"] != "Interrupted" {
			t.Errorf("%s: the loop's reply %v", how, r)
		}
		c.output(req)
	}
	if _, out := c.execute("kept"); len(ofType(out, "execute_result")) != 1 {
		t.Errorf("the session did not survive: %v", out)
	}
}

// TestRefusesBadMessages: a wrong signature is refused (no reply), a
// malformed message is logged, and the kernel goes on.
func TestRefusesBadMessages(t *testing.T) {
	c := startKernel(t)
	forged := signer{[]byte("not-the-key")}
	m, _ := newMessage(c.session, "execute_request", nil, map[string]any{"code": "print(\"forged\")"})
	c.shell.SendMulti(zmq4.NewMsgFrom(forged.encode(m)...))
	for _, frames := range [][][]byte{
		{[]byte(delimiter), []byte("x")},
		{[]byte("no delimiter")},
		{[]byte(delimiter), c.sig.sign([]byte("{"), []byte("{}"), []byte("{}"), []byte("{}")), []byte("{"), []byte("{}"), []byte("{}"), []byte("{}")},
	} {
		c.shell.SendMulti(zmq4.NewMsgFrom(frames...))
	}
	m2, _ := newMessage(c.session, "execute_request", nil, "not an object")
	c.shell.SendMulti(zmq4.NewMsgFrom(c.sig.encode(m2)...))
	if r := c.reply(c.shell, m2); r["status"] != "error" || r["ename"] != "BadRequest" {
		t.Errorf("a request with bad content: %v", r)
	}
	reply, out := c.execute("print(\"real\")")
	if reply["status"] != "ok" || streamText(out, "stdout") != "real\n" {
		t.Errorf("after bad messages: %v %v", reply, out)
	}
	log := c.log.String()
	for _, want := range []string{"bad signature", "malformed message", "malformed header"} {
		if !strings.Contains(log, want) {
			t.Errorf("log %q lacks %q", log, want)
		}
	}
}

// TestShutdown: shutdown_request (a restart's too) replies, ends Serve
// and frees the session's arrays.
func TestShutdown(t *testing.T) {
	c := startKernel(t)
	c.execute("let a = zeros([1000])")
	if live := c.kernel.in.Tracker().Live(); len(live) == 0 {
		t.Fatal("no live array before the shutdown")
	}
	_, r := c.request(c.control, "shutdown_request", map[string]any{"restart": true})
	if r["status"] != "ok" || r["restart"] != true {
		t.Errorf("shutdown_reply %v", r)
	}
	select {
	case <-c.served:
	case <-time.After(10 * time.Second):
		t.Fatal("the kernel still serves")
	}
	if c.serveErr != nil {
		t.Error(c.serveErr)
	}
	if live := c.kernel.in.Tracker().Live(); len(live) != 0 {
		t.Errorf("%d arrays live after the shutdown", len(live))
	}
}

// TestInterruptLaunch: a kernel launch that runs for long stops on
// interrupt_request, and the session goes on.
func TestInterruptLaunch(t *testing.T) {
	c := startKernel(t)
	c.execute("kernel spin(x: array[f32]) {\n    let s = 0.0\n    for k in range(1000000000) {\n        s += 1.0\n    }\n    x[tid()] = s\n}\narray x: f32[4]")
	req := c.send(c.shell, "execute_request", map[string]any{"code": "launch spin[4](x)\nsynchronize()"})
	time.Sleep(100 * time.Millisecond)
	r := c.interruptUntilReply(req, "message")
	t.Logf("%v", r["evalue"])
	if r["ename"] != "Interrupted" {
		t.Errorf("reply %v", r)
	}
	c.output(req)
	if reply, _ := c.execute("x.shape"); reply["status"] != "ok" {
		t.Errorf("after the launch: %v", reply)
	}
}
