package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updateNotebook = flag.Bool("update-notebook", false, "rewrite examples/notebooks/heat.ipynb with the outputs of this run")

// TestJupyterUsage: the subcommands' usage errors, and install's
// kernelspec with the flags given before it.
func TestJupyterUsage(t *testing.T) {
	for _, args := range [][]string{{"jupyter"}, {"jupyter", "serve"}, {"jupyter", "kernel"}, {"jupyter", "install", "extra"}} {
		if code, _, stderr := gscript(t, "", args...); code != 2 || !strings.Contains(stderr, "jupyter") {
			t.Errorf("%v: status %d, stderr %q", args, code, stderr)
		}
	}
	if code, _, stderr := gscript(t, "", "jupyter", "kernel", "-f", "/nonexistent.json"); code != 1 || !strings.Contains(stderr, "nonexistent.json") {
		t.Errorf("a missing connection file: status %d, stderr %q", code, stderr)
	}
	dir := t.TempDir()
	code, out, stderr := gscript(t, "", "--device", "cpu", "jupyter", "install", "--prefix", dir)
	spec := filepath.Join(dir, "share", "jupyter", "kernels", "gscript")
	if code != 0 || !strings.Contains(out, spec) {
		t.Fatalf("install: status %d, stdout %q, stderr %q", code, out, stderr)
	}
	var k struct {
		Argv          []string `json:"argv"`
		InterruptMode string   `json:"interrupt_mode"`
	}
	b, err := os.ReadFile(filepath.Join(spec, "kernel.json"))
	if err != nil || json.Unmarshal(b, &k) != nil {
		t.Fatalf("kernel.json: %v %s", err, b)
	}
	if !filepath.IsAbs(k.Argv[0]) || strings.Join(k.Argv[1:], " ") != "--device cpu jupyter kernel -f {connection_file}" || k.InterruptMode != "message" {
		t.Errorf("kernel.json %s", b)
	}
	for _, logo := range []string{"logo-32x32.png", "logo-64x64.png"} {
		if _, err := os.Stat(filepath.Join(spec, logo)); err != nil {
			t.Error(err)
		}
	}
}

// installedKernel builds gscript and installs its kernelspec (the cpu as
// the default device) in a temporary prefix; env finds it there. It
// skips where Debian's Jupyter client packages are absent.
func installedKernel(t *testing.T) (dir string, env []string) {
	if err := exec.Command("/usr/bin/python3", "-c", "import nbclient, jupyter_client").Run(); err != nil {
		t.Skip("Debian's python3-nbclient and python3-jupyter-client are not installed (apt-get install python3-nbclient python3-jupyter-client): the notebook end-to-end tests skip")
	}
	dir = t.TempDir()
	bin := buildCommand(t, dir)
	if out, err := exec.Command(bin, "--device", "cpu", "jupyter", "install", "--prefix", dir).CombinedOutput(); err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	env = append(os.Environ(), "JUPYTER_PATH="+filepath.Join(dir, "share", "jupyter"), "JUPYTER_DATA_DIR="+filepath.Join(dir, "data"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(dir, "runtime"), "JUPYTER_PLATFORM_DIRS=1")
	return dir, env
}

// TestKernelClient drives the kernel with jupyter_client's
// KernelManager: interrupt (as kernel.json asks), restart (a new
// session) and shutdown, and logs the round trip of a trivial cell.
func TestKernelClient(t *testing.T) {
	_, env := installedKernel(t)
	cmd := exec.Command("/usr/bin/python3", filepath.Join("testdata", "kernel_session.py"))
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("kernel_session.py: %v", err)
	}
}

// TestNotebook runs examples/notebooks/heat.ipynb through the kernel with
// the real client, Debian's python3-nbclient (.ci/run installs it), and
// checks its outputs against the committed ones: the same text (a
// `time:` line aside) and the same 64x64 PNGs. -update-notebook rewrites
// the notebook with this run's outputs.
func TestNotebook(t *testing.T) {
	dir, env := installedKernel(t)
	python := "/usr/bin/python3"
	src := filepath.Join("..", "..", "examples", "notebooks", "heat.ipynb")
	executed := filepath.Join(dir, "heat.ipynb")
	cmd := exec.Command(python, filepath.Join("testdata", "run_notebook.py"), src, executed, dir)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbclient: %v\n%s", err, out)
	}
	got, want := readOutputs(t, executed), readOutputs(t, src)
	pngs := 0
	for i, o := range got {
		if o.png != nil {
			pngs++
			img, err := png.Decode(bytes.NewReader(o.png))
			if err != nil || img.Bounds().Dx() != 64 || img.Bounds().Dy() != 64 {
				t.Errorf("output %d: a PNG of %v (%v), want 64x64", i, img.Bounds(), err)
			}
		}
		if o.kind == "error" {
			t.Errorf("output %d is an error: %s", i, o.text)
		}
	}
	if pngs != 5 {
		t.Errorf("%d images, want 5", pngs)
	}
	if *updateNotebook {
		b, err := os.ReadFile(executed)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(src, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if len(got) != len(want) {
		t.Fatalf("%d outputs, the committed notebook has %d (go test -run TestNotebook -update-notebook rewrites it)", len(got), len(want))
	}
	for i := range got {
		if got[i].kind != want[i].kind || got[i].text != want[i].text || !bytes.Equal(got[i].png, want[i].png) {
			t.Errorf("output %d: %s %q, the committed notebook has %s %q", i, got[i].kind, got[i].text, want[i].kind, want[i].text)
		}
	}
}

// cellOutput is one output of a notebook's code cell, its text with
// timings blanked; consecutive stream outputs of one stream are one.
type cellOutput struct {
	kind string
	name string // a stream's
	text string
	png  []byte
}

var timing = regexp.MustCompile(`(?m)^time: .*$`)

func readOutputs(t *testing.T, path string) []cellOutput {
	t.Helper()
	var nb struct {
		Cells []struct {
			Type    string `json:"cell_type"`
			Outputs []struct {
				Type  string                     `json:"output_type"`
				Name  string                     `json:"name"`
				Text  any                        `json:"text"`
				Data  map[string]json.RawMessage `json:"data"`
				Ename string                     `json:"ename"`
				Value string                     `json:"evalue"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &nb) != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []cellOutput
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			co := cellOutput{kind: o.Type, name: o.Name, text: joined(o.Text) + o.Ename + o.Value}
			if p, ok := o.Data["image/png"]; ok {
				co.png, _ = base64.StdEncoding.DecodeString(strings.ReplaceAll(joined(p), "\n", ""))
			}
			for _, mime := range []string{"text/plain", "text/html"} {
				if d, ok := o.Data[mime]; ok {
					co.text += joined(d)
				}
			}
			if n := len(out); n > 0 && co.kind == "stream" && out[n-1].kind == "stream" && out[n-1].name == co.name {
				out[n-1].text += co.text // the kernel splits a stream where it flushes: by time
				continue
			}
			out = append(out, co)
		}
	}
	for i := range out {
		out[i].text = timing.ReplaceAllString(out[i].text, "time: T")
	}
	return out
}

// joined is a notebook string: a string, or a list of lines (nbformat
// writes either).
func joined(v any) string {
	if raw, ok := v.(json.RawMessage); ok {
		var x any
		json.Unmarshal(raw, &x)
		v = x
	}
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, s := range v {
			b.WriteString(s.(string))
		}
		return b.String()
	}
	return ""
}
