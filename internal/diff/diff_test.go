// Copyright 2022 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diff

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func clean(text []byte) []byte {
	text = bytes.ReplaceAll(text, []byte("$\n"), []byte("\n"))
	text = bytes.TrimSuffix(text, []byte("^D\n"))
	return text
}

// archiveFile is one file of a txtar archive.
type archiveFile struct {
	name string
	data []byte
}

// parseArchive reads the txtar files of testdata ("-- name --" lines
// start each file; what comes before the first is a comment). The
// standard library's test uses internal/txtar, which cannot be imported.
func parseArchive(data []byte) []archiveFile {
	var files []archiveFile
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "-- "); ok && strings.HasSuffix(name, " --") {
			files = append(files, archiveFile{name: strings.TrimSuffix(name, " --")})
			continue
		}
		if len(files) > 0 {
			files[len(files)-1].data = append(files[len(files)-1].data, line...)
		}
	}
	return files
}

func Test(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	if len(files) == 0 {
		t.Fatalf("no testdata")
	}

	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			a := parseArchive(data)
			if len(a) != 3 || a[2].name != "diff" {
				t.Fatalf("%s: want three files, third named \"diff\"", file)
			}
			diffs := Diff(a[0].name, clean(a[0].data), a[1].name, clean(a[1].data))
			want := clean(a[2].data)
			if !bytes.Equal(diffs, want) {
				t.Fatalf("%s: have:\n%s\nwant:\n%s\n%s", file,
					diffs, want, Diff("have", diffs, "want", want))
			}
		})
	}
}
