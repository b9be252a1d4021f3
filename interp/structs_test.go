package interp_test

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/stdlib"
)

// TestStructVectorFields passes vectors into struct fields from Go: host
// code has no vector constructors on this branch, so scripts reach vector
// fields only as zeros. It also runs the struct across REPL entries.
func TestStructVectorFields(t *testing.T) {
	var out bytes.Buffer
	in, err := interp.New(interp.Options{Stdout: &out, Device: "cpu", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	ctx := context.Background()
	run := func(src string) error {
		_, err := in.ExecREPL(ctx, "<repl>", []byte(src))
		return err
	}
	if err := run("struct Particle { pos: vec3, vel: vec3, mass: f32 }\nlet v = 0\nlet d = 0"); err != nil {
		t.Fatal(err)
	}
	vec3, _ := dtype.ByName("vec3")
	vec3d, _ := dtype.ByName("vec3d")
	f := func(x float32) uint64 { return uint64(math.Float32bits(x)) }
	if err := in.SetGlobal("v", &interp.Vector{T: vec3, Lanes: []uint64{f(1), f(2), f(3)}}); err != nil {
		t.Fatal(err)
	}
	if err := in.SetGlobal("d", &interp.Vector{T: vec3d, Lanes: make([]uint64, 3)}); err != nil {
		t.Fatal(err)
	}
	if err := run("let p = Particle(pos=v, mass=2.0)\nprint(p)\nprint(p.pos, type(p.pos))"); err != nil {
		t.Fatal(err)
	}
	want := "Particle(pos=vec3(1.0, 2.0, 3.0), vel=vec3(0.0, 0.0, 0.0), mass=2.0)\nvec3(1.0, 2.0, 3.0) vec3\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
	err = run("Particle(vel=d)")
	if err == nil || !strings.Contains(err.Error(), "Particle field vel is vec3: cannot use vec3d") {
		t.Errorf("a vec3d for a vec3 field: %v", err)
	}
	// A later entry's struct of the same name is another type.
	if err := run("let old = p\nstruct Particle { mass: f32 }"); err != nil {
		t.Fatal(err)
	}
	err = run("print(old == Particle())")
	if err == nil || !strings.Contains(err.Error(), "different struct types") {
		t.Errorf("comparing two types of one name: %v", err)
	}
}
