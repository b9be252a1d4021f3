package kernel

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

func TestCacheRoundTripAndMiss(t *testing.T) {
	c := &Cache{Dir: filepath.Join(t.TempDir(), "k")}
	if _, ok := c.Get("nope"); ok {
		t.Fatal("hit in an empty cache")
	}
	img := []byte("\x7fELF fake cubin")
	if err := c.Put("k1", img); err != nil {
		t.Fatal(err)
	}
	got, ok := c.Get("k1")
	if !ok || !bytes.Equal(got, img) {
		t.Fatalf("Get = %q, %v", got, ok)
	}
	var nilCache *Cache
	if _, ok := nilCache.Get("k1"); ok || nilCache.Put("k1", img) != nil {
		t.Fatal("a nil cache must miss and accept puts")
	}
}

func TestCacheCorruptEntryIsRebuilt(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	if err := c.Put("k", []byte("image bytes")); err != nil {
		t.Fatal(err)
	}
	path := c.path("k")
	data, _ := os.ReadFile(path)
	for name, bad := range map[string][]byte{
		"flipped": append(append([]byte(nil), data[:len(data)-1]...), data[len(data)-1]^1),
		"torn":    data[:len(cacheMagic)+5],
		"foreign": []byte("not a cache entry"),
	} {
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, ok := c.Get("k"); ok {
			t.Errorf("%s entry was returned", name)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s entry was not removed", name)
		}
	}
}

func TestCacheConcurrentFill(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				img := bytes.Repeat([]byte{byte(j)}, 4096)
				if err := c.Put(fmt.Sprint("k", j), img); err != nil {
					t.Error(err)
				}
				if got, ok := c.Get(fmt.Sprint("k", j)); ok && !bytes.Equal(got, img) {
					t.Error("torn read")
				}
			}
		}(i)
	}
	wg.Wait()
	left, _ := filepath.Glob(filepath.Join(c.Dir, "*.tmp*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestKeyDependsOnEveryPart(t *testing.T) {
	base := Key("src", "sm_90", "13.0", "-O3")
	for _, k := range []string{Key("src2", "sm_90", "13.0", "-O3"), Key("src", "sm_80", "13.0", "-O3"),
		Key("src", "sm_90", "12.8", "-O3"), Key("src", "sm_90", "13.0", "-O2"), Key("srcsm_90", "", "13.0", "-O3")} {
		if k == base {
			t.Errorf("key collision: %s", k)
		}
	}
}

func TestDefaultCacheDir(t *testing.T) {
	t.Setenv("GSCRIPT_CACHE_DIR", "/x/y")
	if d := DefaultCacheDir(); d != "/x/y" {
		t.Errorf("DefaultCacheDir = %q", d)
	}
}

// -minimal goes to NVRTC 12.4 and later only.
func TestSupportedOptions(t *testing.T) {
	opts := compileOptions("sm_90", false)
	if got := supportedOptions(opts, 13, 0); !slices.Equal(got, opts) {
		t.Errorf("NVRTC 13.0: %v", got)
	}
	if got := supportedOptions(opts, 12, 4); !slices.Contains(got, "-minimal") {
		t.Errorf("NVRTC 12.4: %v", got)
	}
	got := supportedOptions(opts, 12, 3)
	if slices.Contains(got, "-minimal") || len(got) != len(opts)-1 || !slices.Contains(opts, "-minimal") {
		t.Errorf("NVRTC 12.3: %v (from %v)", got, opts)
	}
}

// A fast-math build swaps --fmad=false for --use_fast_math, and so has its
// own disk cache key.
func TestFastMathOptions(t *testing.T) {
	strict, fast := compileOptions("sm_90", false), compileOptions("sm_90", true)
	if !slices.Contains(strict, "--fmad=false") || slices.Contains(strict, "--use_fast_math") {
		t.Errorf("strict: %v", strict)
	}
	if !slices.Contains(fast, "--use_fast_math") || slices.Contains(fast, "--fmad=false") {
		t.Errorf("fast: %v", fast)
	}
	if Key(append([]string{"src", "sm_90", "nvrtc"}, strict...)...) == Key(append([]string{"src", "sm_90", "nvrtc"}, fast...)...) {
		t.Error("strict and fast builds share a cache key")
	}
}
