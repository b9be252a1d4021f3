package stdlib_test

import (
	"bytes"
	"context"
	"errors"
	"image/color"
	"image/png"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// TestShowDisplays checks that show hands its display the PNG save_image
// would write, one call per show, and that a display error is the
// script's error.
func TestShowDisplays(t *testing.T) {
	var shown [][]byte
	fail := false
	env := stdlib.Universe()
	env["show"] = stdlib.Show(func(b []byte) error {
		if fail {
			return errors.New("the notebook went away")
		}
		shown = append(shown, bytes.Clone(b))
		return nil
	})
	in, err := interp.New(interp.Options{Device: "cpu", Predeclared: env})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	src := "let u = arange(10, dtype=f32).reshape([2, 5])\nshow(u, vmin=0, vmax=4)\nshow(u.T, cmap=\"gray\")\n"
	if err := in.Exec(context.Background(), "t.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
	if len(shown) != 2 {
		t.Fatalf("%d displays, want 2", len(shown))
	}
	img, err := png.Decode(bytes.NewReader(shown[0]))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 5 || b.Dy() != 2 {
		t.Errorf("bounds %v, want 5x2", b)
	}
	if got := color.NRGBAModel.Convert(img.At(0, 0)).(color.NRGBA); got != (color.NRGBA{0x44, 0x01, 0x54, 255}) {
		t.Errorf("pixel (0, 0) = %v, want viridis' first colour", got)
	}
	if img, err := png.Decode(bytes.NewReader(shown[1])); err != nil || img.Bounds().Dx() != 2 {
		t.Errorf("the transpose's image: %v, %v", img.Bounds(), err)
	}
	fail = true
	err = in.Exec(context.Background(), "t.gs", []byte("show(zeros([2, 2]))\n"))
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("show: the notebook went away")) {
		t.Errorf("err = %v, want the display's error", err)
	}
}
