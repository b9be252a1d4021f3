package stdlib

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"runtime"
	"sort"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// colormaps are the colour maps of save_image: ten evenly spaced stops,
// interpolated linearly in RGB. viridis and magma are matplotlib's maps
// (the stops are viridisLite's ten-colour palettes of them); gray runs from
// black to white.
var colormaps = map[string][]color.NRGBA{
	"viridis": hexStops("440154 482878 3e4989 31688e 26828e 1f9e89 35b779 6ece58 b5de2b fde725"),
	"magma":   hexStops("000004 180f3d 440f76 721f81 9e2f7f cd4071 f1605d fd9668 feca8d fcfdbf"),
	"gray":    hexStops("000000 ffffff"),
}

func hexStops(s string) []color.NRGBA {
	var out []color.NRGBA
	for _, h := range strings.Fields(s) {
		var r, g, b uint8
		fmt.Sscanf(h, "%02x%02x%02x", &r, &g, &b)
		out = append(out, color.NRGBA{r, g, b, 255})
	}
	return out
}

// mapColor is the colour of t in [0, 1] on the stops.
func mapColor(stops []color.NRGBA, t float64) color.NRGBA {
	x := t * float64(len(stops)-1)
	i := min(int(x), len(stops)-2)
	f := x - float64(i)
	lerp := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + f*(float64(b)-float64(a)))) }
	a, b := stops[i], stops[i+1]
	return color.NRGBA{lerp(a.R, b.R), lerp(a.G, b.G), lerp(a.B, b.B), 255}
}

// save_image(path, a, cmap="viridis", vmin=, vmax=) writes a PNG: a 2-D
// array through a colour map, values from vmin (the first colour) to vmax
// (the last), by default the array's finite minimum and maximum; values
// outside are clamped, NaN is transparent (matplotlib's "bad" colour).
// Row 0 is the top row, as matplotlib's imshow draws it. A (h, w, 3) or
// (h, w, 4) u8 array is written as RGB or RGBA pixels.
func saveImage(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2, "cmap", "vmin", "vmax", "sync"); err != nil {
		return nil, err
	}
	sync, err := boolArg(args, "sync", false)
	if err != nil {
		return nil, err
	}
	path, err := pathArg(args, 0)
	if err != nil {
		return nil, err
	}
	if err := checkSuffix("save_image", path, imageSuffixes); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 1)
	if err != nil {
		return nil, err
	}
	img, err := arrayImage(th, args, a)
	runtime.KeepAlive(a) // its bytes are read in place
	if err != nil {
		return nil, err
	}
	err = th.Files().WriteFile(path, sync, func(w io.Writer) error {
		return png.Encode(pollingWriter{th, w}, img)
	})
	if err != nil {
		return nil, fmt.Errorf("save_image %s: %w", path, err)
	}
	return interp.Nil, nil
}

// arrayImage makes the image of a: colour-mapped or RGB(A).
func arrayImage(th *interp.Thread, args *interp.Args, a *mem.Array) (image.Image, error) {
	shape := a.Shape()
	rgb := a.NDim() == 3 && (shape[2] == 3 || shape[2] == 4)
	switch {
	case rgb && a.DType() != ir.U8:
		return nil, fmt.Errorf("%s: an RGB image is a u8 array of shape (h, w, 3) or (h, w, 4), not %s", args.Fn, a.DType())
	case !rgb && a.NDim() != 2:
		return nil, fmt.Errorf("%s: want a 2-D array, or a u8 array of shape (h, w, 3) or (h, w, 4), got shape %s", args.Fn, interp.ShapeString(shape))
	case shape[0] == 0 || shape[1] == 0:
		return nil, fmt.Errorf("%s: an image needs at least one pixel, got shape %s", args.Fn, interp.ShapeString(shape))
	}
	if err := th.CheckHostBytes(12 * shape[0] * shape[1]); err != nil { // the pixels, and the values as float64
		return nil, fmt.Errorf("%s: %w", args.Fn, err)
	}
	if rgb {
		if args.Kwarg("cmap") != nil || args.Kwarg("vmin") != nil || args.Kwarg("vmax") != nil {
			return nil, fmt.Errorf("%s: cmap=, vmin= and vmax= apply to 2-D arrays, not RGB pixels", args.Fn)
		}
		return rgbImage(a)
	}
	return mappedImage(args, a)
}

// rgbImage copies (h, w, c) u8 pixels into an image.
func rgbImage(a *mem.Array) (image.Image, error) {
	h, w, c := a.Shape()[0], a.Shape()[1], a.Shape()[2]
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	i := 0
	err := interp.ArrayElems(a, func(bits uint64) {
		px, ch := i/c, i%c
		img.Pix[4*px+ch] = uint8(bits)
		if c == 3 && ch == 2 {
			img.Pix[4*px+3] = 255
		}
		i++
	})
	return img, err
}

// mappedImage maps a 2-D array's values through the colour map.
func mappedImage(args *interp.Args, a *mem.Array) (image.Image, error) {
	stops, err := cmapArg(args)
	if err != nil {
		return nil, err
	}
	vals, err := floatElems(a)
	if err != nil {
		return nil, err
	}
	lo, hi, err := valueRange(args, vals)
	if err != nil {
		return nil, err
	}
	h, w := a.Shape()[0], a.Shape()[1]
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i, v := range vals {
		if math.IsNaN(v) {
			continue // transparent: Pix starts zeroed
		}
		t := 0.0
		if hi > lo {
			t = math.Min(math.Max((v-lo)/(hi-lo), 0), 1)
		} else if v > lo {
			t = 1
		}
		c, p := mapColor(stops, t), img.Pix[4*i:4*i+4]
		p[0], p[1], p[2], p[3] = c.R, c.G, c.B, c.A
	}
	return img, nil
}

func cmapArg(args *interp.Args) ([]color.NRGBA, error) {
	name, err := stringKwarg(args, "cmap", "viridis")
	if err != nil {
		return nil, err
	}
	stops, ok := colormaps[name]
	if !ok {
		names := make([]string, 0, len(colormaps))
		for n := range colormaps {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("%s: unknown cmap %q (known: %s)", args.Fn, name, strings.Join(names, ", "))
	}
	return stops, nil
}

// floatElems reads a's elements, in C order, as float64 values.
func floatElems(a *mem.Array) ([]float64, error) {
	vals := make([]float64, 0, a.Size())
	var ferr error
	err := interp.ArrayElems(a, func(bits uint64) {
		f, err := interp.ToFloat(interp.ConvertScalarBits(a.DType(), bits))
		if a.DType() == ir.Bool {
			f, err = float64(bits&1), nil
		}
		if err != nil && ferr == nil {
			ferr = err
		}
		vals = append(vals, f)
	})
	if err == nil {
		err = ferr
	}
	return vals, err
}

// valueRange is vmin= and vmax=, each by default the finite minimum or
// maximum of vals (0 and 1 when no value is finite).
func valueRange(args *interp.Args, vals []float64) (float64, float64, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo > hi {
		lo, hi = 0, 1
	}
	var err error
	if lo, err = floatKwarg(args, "vmin", lo); err != nil {
		return 0, 0, err
	}
	if hi, err = floatKwarg(args, "vmax", hi); err != nil {
		return 0, 0, err
	}
	if lo > hi {
		return 0, 0, fmt.Errorf("%s: vmin %v is above vmax %v", args.Fn, lo, hi)
	}
	return lo, hi, nil
}
