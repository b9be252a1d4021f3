package jupyter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// SpecName is the kernelspec's directory name, the kernel notebooks name.
const SpecName = "gscript"

// SpecDir is where `gscript jupyter install` puts the kernelspec: under
// prefix (prefix/share/jupyter/kernels/gscript, as `jupyter kernelspec
// install --prefix`), else in the user's Jupyter data directory
// ($JUPYTER_DATA_DIR, else ~/Library/Jupyter on macOS, else
// $XDG_DATA_HOME/jupyter or ~/.local/share/jupyter), as jupyter_core
// finds it.
func SpecDir(prefix string) (string, error) {
	if prefix != "" {
		return filepath.Join(prefix, "share", "jupyter", "kernels", SpecName), nil
	}
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return filepath.Join(d, "kernels", SpecName), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	data := filepath.Join(home, ".local", "share", "jupyter")
	switch x := os.Getenv("XDG_DATA_HOME"); {
	case runtime.GOOS == "darwin":
		data = filepath.Join(home, "Library", "Jupyter")
	case x != "":
		data = filepath.Join(x, "jupyter")
	}
	return filepath.Join(data, "kernels", SpecName), nil
}

// kernelSpec is kernel.json.
type kernelSpec struct {
	Argv          []string       `json:"argv"`
	DisplayName   string         `json:"display_name"`
	Language      string         `json:"language"`
	InterruptMode string         `json:"interrupt_mode"`
	Metadata      map[string]any `json:"metadata"`
}

// InstallSpec writes the kernelspec into dir: kernel.json, which runs
// command (the gscript executable's absolute path, so that Jupyter
// finds it whatever its PATH) with `jupyter kernel -f
// {connection_file}` and the flags given (--device), and the logos.
func InstallSpec(dir, command string, flags []string) error {
	if !filepath.IsAbs(command) {
		return fmt.Errorf("the kernel command %q is not an absolute path", command)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	argv := append([]string{command}, flags...)
	spec := kernelSpec{
		Argv:        append(argv, "jupyter", "kernel", "-f", "{connection_file}"),
		DisplayName: "gscript", Language: "gscript",
		// The control channel's interrupt_request; SIGINT works too,
		// but a message reaches a kernel that is not the client's child.
		InterruptMode: "message",
		Metadata:      map[string]any{},
	}
	b, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "kernel.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	for _, n := range []int{32, 64} {
		png, err := logo(n)
		if err != nil {
			return fmt.Errorf("the logo: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("logo-%dx%d.png", n, n)), png, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// logoScript draws the logo, a hot spot on a plate, with gscript itself.
const logoScript = `let x = linspace(-1.0, 1.0, n)
let c = x.reshape([n, 1])
let r = x.reshape([1, n])
show(exp(-3.0 * (c * c + r * r)), cmap="magma")
`

// logo is the n by n logo's PNG, from show in an interpreter on the cpu.
func logo(n int) ([]byte, error) {
	var png []byte
	pre := stdlib.Universe()
	pre["n"] = interp.Int(n)
	pre["show"] = stdlib.Show(func(b []byte) error { png = b; return nil })
	in, err := interp.New(interp.Options{Device: "cpu", Predeclared: pre})
	if err != nil {
		return nil, err
	}
	defer in.Close()
	if err := in.Exec(context.Background(), "logo.gs", []byte(logoScript)); err != nil {
		return nil, err
	}
	if png == nil {
		return nil, errors.New("the logo script showed nothing")
	}
	return png, nil
}
