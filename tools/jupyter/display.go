package jupyter

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"image/png"
	"strings"

	"github.com/gscript-lang/gscript/interp"
)

// displayPNG is show's display in the kernel: the PNG as display_data
// of the running cell, after the output printed before it.
func (k *Kernel) displayPNG(b []byte) error {
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return err
	}
	k.stdout.flush()
	k.stderr.flush()
	k.publish(k.runningParent(), "display_data", map[string]any{
		"data": map[string]string{
			"image/png":  base64.StdEncoding.EncodeToString(b),
			"text/plain": fmt.Sprintf("<image %dx%d>", cfg.Width, cfg.Height),
		},
		"metadata":  map[string]any{"image/png": map[string]int{"width": cfg.Width, "height": cfg.Height}},
		"transient": map[string]any{},
	})
	return nil
}

// bundle is a value's MIME bundle: text/plain as the REPL prints it
// and, for a small 2-D array of numbers, a text/html table.
func bundle(v interp.Value) map[string]string {
	data := map[string]string{"text/plain": shown(v)}
	if a, ok := v.(*interp.Array); ok {
		if t, ok := htmlTable(a); ok {
			data["text/html"] = t
		}
	}
	return data
}

// shown is what the REPL prints for a bare expression's value.
func shown(v interp.Value) string {
	if r, ok := v.(*interp.Record); ok && r.Display != "" {
		return r.Display
	}
	return v.String()
}

// maxTableCells bounds the arrays shown as a table: larger ones are
// their text only, as NumPy's repr elides them.
const maxTableCells = 400

// htmlTable is a compact table of a 2-D array of scalars, its dtype and
// shape as the caption and each element as print writes it.
func htmlTable(a *interp.Array) (string, bool) {
	if a.A.Freed() || a.NDim() != 2 || a.Compound() || a.Size() > maxTableCells || a.Size() == 0 {
		return "", false
	}
	rows, cols := a.Shape()[0], a.Shape()[1]
	var cells []string
	dt := a.A.DType()
	if err := interp.ArrayElems(a.A, func(bits uint64) {
		cells = append(cells, interp.Scalar{T: dt, Bits: bits}.String())
	}); err != nil || len(cells) != rows*cols {
		return "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<table class=\"gscript-array\"><caption>%s%s on %s</caption>\n", dt, html.EscapeString(interp.ShapeString(a.Shape())), a.A.Device())
	for i := range rows {
		b.WriteString("<tr>")
		for _, c := range cells[i*cols : (i+1)*cols] {
			b.WriteString("<td>" + html.EscapeString(c) + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>")
	return b.String(), true
}
