package jupyter

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// Options configure Serve.
type Options struct {
	// Interp configures the kernel's interpreter. Its Stdout and Stderr
	// are the kernel's streams, and its Predeclared show is replaced by
	// one that displays in the notebook (Predeclared defaults to
	// stdlib.Universe()).
	Interp interp.Options
	// Log receives the kernel's own messages: refused and malformed
	// messages, failures to send. Default os.Stderr (Jupyter shows a
	// kernel's stderr in its log).
	Log io.Writer
	// Interrupts, when set, replaces SIGINT as the signal source of
	// interrupts (tests); interrupt_request on the control channel
	// interrupts too.
	Interrupts <-chan os.Signal
	// Version is the gscript version kernel_info reports.
	Version string
}

// Kernel is one running kernel: its sockets and its one interpreter.
type Kernel struct {
	info    ConnectionInfo
	sig     signer
	session string
	opts    Options
	log     *log.Logger

	shell, control, stdin, iopub, hb zmq4.Socket
	sendMu                           sync.Mutex // one message at a time on each socket (iopub has several writers)

	// The interpreter and what executing cells keeps: touched on the
	// shell goroutine only.
	in    *interp.Interp
	last  interp.Value
	count int
	cells cellSources

	mu      sync.Mutex
	cancel  context.CancelFunc // the running cell's, nil between cells
	parent  *message           // the execute_request running, the parent of its output
	stdout  *stream
	stderr  *stream
	closing atomic.Bool
	done    chan struct{} // closed by a shutdown_request
	once    sync.Once
	loops   sync.WaitGroup
}

// Serve runs a kernel on the sockets info names until a shutdown_request
// or until ctx is done. It fails only when the interpreter cannot be made
// or a socket cannot listen.
func Serve(ctx context.Context, info ConnectionInfo, opts Options) error {
	if err := info.check(); err != nil {
		return err
	}
	k, err := newKernel(info, opts)
	if err != nil {
		return err
	}
	return k.serve(ctx)
}

// serve listens and answers until a shutdown_request or ctx is done.
func (k *Kernel) serve(ctx context.Context) error {
	if err := k.listen(ctx); err != nil {
		k.closeSockets()
		k.in.Close()
		return err
	}
	k.publish(nil, "status", map[string]string{"execution_state": "starting"})
	k.loops.Add(4)
	go k.heartbeat()
	go k.requests(k.control)
	go k.requests(k.shell)
	go k.drain(k.stdin)
	stop := k.watchInterrupts()
	defer stop()
	select {
	case <-ctx.Done():
	case <-k.done:
	}
	k.shutdown()
	return nil
}

func newKernel(info ConnectionInfo, opts Options) (*Kernel, error) {
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	k := &Kernel{info: info, sig: signer{[]byte(info.Key)}, session: newID(), opts: opts, done: make(chan struct{})}
	k.log = log.New(opts.Log, "gscript kernel: ", 0)
	k.stdout, k.stderr = &stream{k: k, name: "stdout"}, &stream{k: k, name: "stderr"}
	in, err := interp.New(k.interpOptions())
	if err != nil {
		return nil, err
	}
	k.in = in
	return k, nil
}

// interpOptions are Options.Interp with the kernel's streams and show.
func (k *Kernel) interpOptions() interp.Options {
	o := k.opts.Interp
	o.Stdout, o.Stderr = k.stdout, k.stderr
	pre := make(map[string]interp.Value, len(o.Predeclared)+1)
	if o.Predeclared == nil {
		pre = stdlib.Universe()
	}
	for name, v := range o.Predeclared {
		pre[name] = v
	}
	pre["show"] = stdlib.Show(k.displayPNG)
	o.Predeclared = pre
	return o
}

// listen binds the five sockets.
func (k *Kernel) listen(ctx context.Context) error {
	k.shell, k.control, k.stdin = zmq4.NewRouter(ctx), zmq4.NewRouter(ctx), zmq4.NewRouter(ctx)
	k.iopub, k.hb = zmq4.NewPub(ctx), zmq4.NewRep(ctx)
	for _, s := range []struct {
		sock zmq4.Socket
		port int
		name string
	}{{k.shell, k.info.ShellPort, "shell"}, {k.control, k.info.ControlPort, "control"}, {k.stdin, k.info.StdinPort, "stdin"},
		{k.iopub, k.info.IOPubPort, "iopub"}, {k.hb, k.info.HBPort, "heartbeat"}} {
		if err := s.sock.Listen(k.info.endpoint(s.port)); err != nil {
			return fmt.Errorf("%s socket: %w", s.name, err)
		}
	}
	return nil
}

func (k *Kernel) closeSockets() {
	for _, s := range []zmq4.Socket{k.shell, k.control, k.stdin, k.iopub, k.hb} {
		if s != nil {
			s.Close()
		}
	}
}

// shutdown stops the running cell, closes the sockets and, once the
// loops have returned, the interpreter, which frees its arrays' device
// memory. A cell stuck where cancellation is not polled gets a few
// seconds; then the interpreter is left to the process's exit.
func (k *Kernel) shutdown() {
	k.closing.Store(true)
	k.interrupt()
	k.closeSockets()
	loopsDone := make(chan struct{})
	go func() { k.loops.Wait(); close(loopsDone) }()
	select {
	case <-loopsDone:
		if err := k.in.Close(); err != nil {
			k.log.Print(err)
		}
	case <-time.After(shutdownGrace):
		k.log.Print("a cell is still running at shutdown; leaving its memory to the process's exit")
	}
}

// shutdownGrace is how long shutdown waits for a cancelled cell.
const shutdownGrace = 3 * time.Second

// heartbeat echoes every ping on the heartbeat socket.
func (k *Kernel) heartbeat() {
	defer k.loops.Done()
	for {
		m, err := k.hb.Recv()
		if err != nil {
			if k.closing.Load() {
				return
			}
			continue
		}
		if err := k.hb.Send(m); err != nil && !k.closing.Load() {
			k.log.Printf("heartbeat: %v", err)
		}
	}
}

// drain reads the stdin socket: the kernel never asks for input
// (input_request), so a reply there answers nothing.
func (k *Kernel) drain(sock zmq4.Socket) {
	defer k.loops.Done()
	for {
		if _, err := sock.Recv(); err != nil && k.closing.Load() {
			return
		}
	}
}

// requests handles the requests of a shell or control socket in order.
func (k *Kernel) requests(sock zmq4.Socket) {
	defer k.loops.Done()
	for {
		zm, err := sock.Recv()
		if err != nil {
			if k.closing.Load() {
				return
			}
			k.log.Printf("receive: %v", err)
			time.Sleep(10 * time.Millisecond) // a failing socket must not spin
			continue
		}
		m, err := k.sig.decode(zm.Frames)
		if err != nil {
			k.log.Printf("refused a message: %v", err)
			continue
		}
		k.handle(sock, m)
	}
}

// handle answers one request between busy and idle statuses.
func (k *Kernel) handle(sock zmq4.Socket, m *message) {
	h, ok := handlers[m.header.MsgType]
	if !ok {
		k.log.Printf("ignored a %s message (not a request this kernel serves)", m.header.MsgType)
		return
	}
	if h.shellOnly && sock != k.shell {
		k.log.Printf("ignored a %s on the control channel (it belongs on shell)", m.header.MsgType)
		return
	}
	k.publish(m, "status", map[string]string{"execution_state": "busy"})
	defer k.publish(m, "status", map[string]string{"execution_state": "idle"})
	reply, err := h.fn(k, m)
	if err != nil {
		reply = errorContent("BadRequest", fmt.Sprintf("%s: %v", m.header.MsgType, err), nil)
	}
	k.send(sock, m, h.reply, reply)
	if m.header.MsgType == "shutdown_request" && err == nil {
		k.once.Do(func() { close(k.done) }) // after the reply: Serve closes the sockets
	}
}

// send sends a reply to m on sock.
func (k *Kernel) send(sock zmq4.Socket, parent *message, typ string, content any) {
	r, err := newMessage(k.session, typ, parent, content)
	if err != nil {
		k.log.Printf("%s: %v", typ, err)
		return
	}
	k.sendFrames(sock, k.sig.encode(r))
}

// publish sends a message on iopub, child of parent (nil for none).
func (k *Kernel) publish(parent *message, typ string, content any) {
	r, err := newMessage(k.session, typ, parent, content)
	if err != nil {
		k.log.Printf("%s: %v", typ, err)
		return
	}
	r.ids = [][]byte{[]byte("kernel." + k.session + "." + typ)} // the topic
	k.sendFrames(k.iopub, k.sig.encode(r))
}

func (k *Kernel) sendFrames(sock zmq4.Socket, frames [][]byte) {
	k.sendMu.Lock()
	defer k.sendMu.Unlock()
	if err := sock.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil && !k.closing.Load() {
		k.log.Printf("send: %v", err)
	}
}

// watchInterrupts interrupts the running cell on SIGINT (Jupyter's
// "signal" interrupt mode) or on Options.Interrupts.
func (k *Kernel) watchInterrupts() (stop func()) {
	sigs := k.opts.Interrupts
	var ch chan os.Signal
	if sigs == nil {
		ch = make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt)
		sigs = ch
	}
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case <-sigs:
				k.interrupt()
			case <-quit:
				return
			}
		}
	}()
	return func() {
		close(quit)
		if ch != nil {
			signal.Stop(ch)
		}
	}
}

// interrupt cancels the running cell, if any; the session survives.
func (k *Kernel) interrupt() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cancel != nil {
		k.cancel()
	}
}

// handler answers one request type with the content of its reply.
type handler struct {
	reply     string
	shellOnly bool // it runs or reads the interpreter: shell only, in order with executions
	fn        func(k *Kernel, m *message) (any, error)
}

// handlers are the requests served, by message type.
var handlers = map[string]handler{
	"kernel_info_request": {"kernel_info_reply", false, (*Kernel).kernelInfo},
	"execute_request":     {"execute_reply", true, (*Kernel).execute},
	"complete_request":    {"complete_reply", true, (*Kernel).complete},
	"inspect_request":     {"inspect_reply", true, (*Kernel).inspect},
	"is_complete_request": {"is_complete_reply", false, (*Kernel).isComplete},
	"history_request":     {"history_reply", false, (*Kernel).history},
	"comm_info_request":   {"comm_info_reply", false, (*Kernel).commInfo},
	"interrupt_request":   {"interrupt_reply", false, (*Kernel).interruptRequest},
	"shutdown_request":    {"shutdown_reply", false, (*Kernel).shutdownRequest},
}

// parse reads a request's content into v.
func parse(m *message, v any) error {
	if err := json.Unmarshal(m.content, v); err != nil {
		return fmt.Errorf("content: %w", err)
	}
	return nil
}
