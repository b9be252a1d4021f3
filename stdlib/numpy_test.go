package stdlib_test

import (
	osexec "os/exec"
	"strings"
	"testing"
)

// numpyCases are the library functions of issue 26 on one data set, as
// gscript and as NumPy write them (f64 and i64 data, so that both print
// the same digits).
var numpyCases = []struct{ gs, np string }{
	{"sort(x)", "np.sort(x)"},
	{"argsort(x)", "np.argsort(x, kind='stable')"},
	{"argsort(m, axis=0)", "np.argsort(m, axis=0, kind='stable')"},
	{"sort(m, axis=nil)", "np.sort(m, axis=None)"},
	{"unique(i, return_counts=true)", "np.unique(i, return_counts=True)"},
	{"unique(x)", "np.unique(x)"},
	{"searchsorted(sort(i), array([-3, 0, 2, 9]), side=\"right\")", "np.searchsorted(np.sort(i), [-3, 0, 2, 9], side='right')"},
	{"bincount(i + 3, minlength=10)", "np.bincount(i + 3, minlength=10)"},
	{"bincount(i + 3, weights=y)", "np.bincount(i + 3, weights=y)"},
	{"histogram(y, bins=4)", "np.histogram(y, bins=4)"},
	{"histogram(y, bins=[0, 0.25, 0.5, 1], range=[0, 1])", "np.histogram(y, bins=[0, 0.25, 0.5, 1], range=(0, 1))"},
	{"[nansum(x), nanmean(x), nanmax(x), nanmin(x), nanargmax(x), nanargmin(x)]", "[np.nansum(x), np.nanmean(x), np.nanmax(x), np.nanmin(x), np.nanargmax(x), np.nanargmin(x)]"},
	{"nanmean(m, axis=1)", "np.nanmean(m, axis=1)"},
	{"concatenate([m, m], axis=-1)", "np.concatenate([m, m], axis=-1)"},
	{"stack([i, i], axis=1)", "np.stack([i, i], axis=1)"},
	{"split(i, [2, 5])", "np.split(i, [2, 5])"},
	{"flip(m, axis=1)", "np.flip(m, axis=1)"},
	{"roll(m, -1)", "np.roll(m, -1)"},
	{"tile(i[:3], [2, 2])", "np.tile(i[:3], [2, 2])"},
	{"repeat(m, 2, axis=0)", "np.repeat(m, 2, axis=0)"},
	{"repeat(m, [0, 2, 1, 3], axis=1)", "np.repeat(m, [0, 2, 1, 3], axis=1)"},
	{"diff(i, n=2)", "np.diff(i, n=2)"},
	{"outer(i[:3], y[:2])", "np.outer(i[:3], y[:2])"},
	{"i ** 3", "i ** 3"},
	{"power(i, 2)", "np.power(i, 2)"},
}

const numpyData = `x = [0.5, nan, -1.25, 3.0, 0.5, -0.0, 7.75, nan]
i = [3, -1, 4, -1, 5, -2, 6, 2]
y = [0.1, 0.9, 0.35, 0.35, 0.6, 0.2, 0.75, 1.0]
`

// TestAgainstNumPy prints each case with gscript and with NumPy
// (/usr/bin/python3) and compares; it skips where NumPy is missing.
func TestAgainstNumPy(t *testing.T) {
	py := "import numpy as np\nnan = np.nan\n" + numpyData + `
x, i, y = np.array(x), np.array(i), np.array(y)
m = x.reshape(2, 4)
def fmt(v):
    if isinstance(v, np.ndarray): return fmt(v.tolist())
    if isinstance(v, (list, tuple)): return "[" + ", ".join(fmt(e) for e in v) + "]"
    if isinstance(v, (bool, np.bool_)): return "true" if v else "false"
    if isinstance(v, (int, np.integer)): return str(int(v))
    v = float(v)
    if v != v: return "nan"
    if v in (float("inf"), -float("inf")): return "inf" if v > 0 else "-inf"
    return repr(v)
`
	gs := strings.ReplaceAll(numpyData, "x = ", "let x = array(")
	gs = strings.ReplaceAll(gs, "i = ", "let i = array(")
	gs = strings.ReplaceAll(gs, "y = ", "let y = array(")
	gs = strings.ReplaceAll(gs, "]\n", "], dtype=f64)\n")
	gs = strings.Replace(gs, "let i = array([3, -1, 4, -1, 5, -2, 6, 2], dtype=f64)", "let i = array([3, -1, 4, -1, 5, -2, 6, 2], dtype=i64)", 1)
	gs += "let m = x.reshape([2, 4])\n"
	for _, c := range numpyCases {
		py += "print(fmt(" + c.np + "))\n"
		gs += "print(" + c.gs + ")\n"
	}
	want, err := osexec.Command("/usr/bin/python3", "-c", py).Output()
	if err != nil {
		t.Skipf("no NumPy to compare with: %v", err)
	}
	got := runOn(t, "cpu", gs)
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for k, c := range numpyCases {
		if k >= len(gl) || k >= len(wl) || gl[k] != wl[k] {
			t.Errorf("%s:\n gscript %s\n NumPy   %s", c.gs, line(gl, k), line(wl, k))
		}
	}
}

func line(ls []string, k int) string {
	if k < len(ls) {
		return ls[k]
	}
	return "(none)"
}
