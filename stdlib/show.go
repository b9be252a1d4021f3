package stdlib

import (
	"bytes"
	"fmt"
	"image/png"
	"io"
	"runtime"

	"github.com/gscript-lang/gscript/interp"
)

// Show returns the show builtin with display as where its PNG goes: a
// notebook kernel (tools/jupyter) passes the function that sends the PNG
// to the notebook as display_data, in place of Universe's show, which
// has none. display is called on the interpreter's goroutine.
func Show(display func(png []byte) error) interp.Value {
	return &interp.Builtin{Name: "show", Fn: showWith(display)}
}

// showWith is show(a, path=, cmap=, vmin=, vmax=): the image save_image
// would write (a colour-mapped 2-D array, or (h, w, 3|4) u8 pixels),
// shown by display and, with path=, written to that PNG file. Without
// either it writes nothing, but checks its arguments as the notebook
// would, so that a script that runs in a notebook runs as a script.
func showWith(display func(png []byte) error) fn {
	return func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		if err := args.Check(1, 1, "path", "cmap", "vmin", "vmax"); err != nil {
			return nil, err
		}
		path, err := stringKwarg(args, "path", "")
		if err != nil {
			return nil, err
		}
		if path != "" {
			if err := checkSuffix("show", path, imageSuffixes); err != nil {
				return nil, err
			}
		}
		a, err := arrayArg(args, 0)
		if err != nil {
			return nil, err
		}
		img, err := arrayImage(th, args, a)
		runtime.KeepAlive(a) // its bytes are read in place
		if err != nil {
			return nil, err
		}
		if display == nil && path == "" {
			return interp.Nil, nil
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return nil, fmt.Errorf("show: %w", err)
		}
		if path != "" {
			err := th.Files().WriteFile(path, false, func(w io.Writer) error {
				_, err := w.Write(buf.Bytes())
				return err
			})
			if err != nil {
				return nil, fmt.Errorf("show %s: %w", path, err)
			}
		}
		if display != nil {
			if err := display(buf.Bytes()); err != nil {
				return nil, fmt.Errorf("show: %w", err)
			}
		}
		return interp.Nil, nil
	}
}
