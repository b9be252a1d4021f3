//go:build unix

package stdlib_test

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func nrgba(img image.Image, x, y int) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
}

// TestSaveImagePixels checks the colour maps' ends and middle, vmin and
// vmax clamping, NaN as transparent, row 0 on top, and RGB pixels.
func TestSaveImagePixels(t *testing.T) {
	dir := t.TempDir()
	mustExec(t, dir, `
kernel ramp(u: array[f32, 2]) {
    let i, j = tid()
    u[i, j] = f32(j) + 10.0 * f32(i)
}
array u: f32[2, 5]
launch ramp[2, 5](u)
u[1, 4] = f32(0.0) / f32(0.0)
save_image(dir + "/v.png", u, vmin=0, vmax=4)
save_image(dir + "/g.png", u, cmap="gray", vmin=1, vmax=3)
save_image(dir + "/m.png", u, cmap="magma")
array rgb: u8[1, 2, 3] = [[[1, 2, 3], [250, 251, 252]]]
save_image(dir + "/rgb.png", rgb)
array rgba: u8[1, 1, 4] = [[[9, 8, 7, 6]]]
save_image(dir + "/rgba.png", rgba)
`)
	v := decodePNG(t, filepath.Join(dir, "v.png"))
	if b := v.Bounds(); b.Dx() != 5 || b.Dy() != 2 {
		t.Fatalf("bounds %v, want 5x2", b)
	}
	for _, c := range []struct {
		x, y int
		want color.NRGBA
	}{
		{0, 0, color.NRGBA{0x44, 0x01, 0x54, 255}}, // vmin: viridis' first colour
		{4, 0, color.NRGBA{0xfd, 0xe7, 0x25, 255}}, // vmax: its last
		{2, 0, color.NRGBA{35, 144, 140, 255}},     // the middle: halfway between its 5th and 6th stops (matplotlib: 33, 145, 140)
		{0, 1, color.NRGBA{0xfd, 0xe7, 0x25, 255}}, // 10, above vmax: clamped
		{4, 1, color.NRGBA{}},                      // NaN: transparent
	} {
		if got := nrgba(v, c.x, c.y); got != c.want {
			t.Errorf("viridis pixel (%d, %d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	g := decodePNG(t, filepath.Join(dir, "g.png"))
	for x, want := range []uint8{0, 0, 128, 255, 255} {
		if got := nrgba(g, x, 0); got != (color.NRGBA{want, want, want, 255}) {
			t.Errorf("gray pixel %d = %v, want %d", x, got, want)
		}
	}
	// Without vmin and vmax the range is the finite values' (NaN ignored).
	m := decodePNG(t, filepath.Join(dir, "m.png"))
	if lo, hi := nrgba(m, 0, 0), nrgba(m, 3, 1); lo != (color.NRGBA{0, 0, 4, 255}) || hi != (color.NRGBA{0xfc, 0xfd, 0xbf, 255}) {
		t.Errorf("magma ends %v %v", lo, hi)
	}
	rgb := decodePNG(t, filepath.Join(dir, "rgb.png"))
	if a, b := nrgba(rgb, 0, 0), nrgba(rgb, 1, 0); a != (color.NRGBA{1, 2, 3, 255}) || b != (color.NRGBA{250, 251, 252, 255}) {
		t.Errorf("rgb pixels %v %v", a, b)
	}
	if p := nrgba(decodePNG(t, filepath.Join(dir, "rgba.png")), 0, 0); p != (color.NRGBA{9, 8, 7, 6}) {
		t.Errorf("rgba pixel %v", p)
	}
}
