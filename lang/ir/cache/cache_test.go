package cache

import (
	"errors"
	"testing"
)

type keyA string
type keyB string

// One build per key; keys of different types do not collide; a failed
// build is remembered.
func TestGet(t *testing.T) {
	builds := 0
	build := func(v int) func() (int, error) {
		return func() (int, error) { builds++; return v, nil }
	}
	for range 3 {
		if v, err := Get(keyA("k"), build(1)); v != 1 || err != nil {
			t.Fatalf("Get(keyA) = %v, %v", v, err)
		}
	}
	if v, _ := Get(keyB("k"), build(2)); v != 2 {
		t.Fatalf("Get(keyB) = %v: collides with keyA", v)
	}
	if builds != 2 {
		t.Fatalf("%d builds, want 2", builds)
	}
	bad := errors.New("bad")
	for range 2 {
		if _, err := Get(keyA("bad"), func() (int, error) { builds++; return 0, bad }); err != bad {
			t.Fatalf("err = %v", err)
		}
	}
	if builds != 3 {
		t.Fatalf("%d builds, want 3: a failed build is not retried", builds)
	}
}
