package jupyter

import (
	"strings"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/runtime/mem"
)

// TestCUDACells: on a GPU, cells keep device arrays, show and the table
// read them, a long launch's synchronize() stops on interrupt_request
// with the session kept, and shutdown frees the device memory.
func TestCUDACells(t *testing.T) {
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	c := startKernelOn(t, "cuda:0")
	c.execute("kernel spin(x: array[f32], n: i32) {\n    let s: f32 = x[tid()]\n    for k in range(n) {\n        s = s * 0.999999 + 1e-7\n    }\n    x[tid()] = s\n}\narray x: f32[256]\narray m: f32[3, 4] = 2.0")
	_, out := c.execute("show(m)\nm")
	res := ofType(out, "execute_result")
	if len(ofType(out, "display_data")) != 1 || len(res) != 1 || !strings.Contains(res[0]["data"].(map[string]any)["text/html"].(string), "on cuda:0") {
		t.Errorf("output %v", out)
	}
	req := c.send(c.shell, "execute_request", map[string]any{"code": "launch spin[256](x, 300000000)\nsynchronize()"})
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	if r := c.interruptUntilReply(req, "message"); r["ename"] != "Interrupted" || time.Since(start) > 2*time.Second {
		t.Errorf("after %v: %v", time.Since(start), r)
	}
	c.output(req)
	if reply, _ := c.execute("synchronize()\nm.shape"); reply["status"] != "ok" {
		t.Errorf("after the interrupt: %v", reply)
	}
	c.request(c.control, "shutdown_request", map[string]any{"restart": true})
	<-c.served
	if live := c.kernel.in.Tracker().Live(); len(live) != 0 {
		t.Errorf("%d device arrays live after the shutdown", len(live))
	}
}
