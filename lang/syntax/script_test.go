package syntax

import (
	"testing"

	"github.com/gscript-lang/gscript/internal/scripttest"
)

// TestScripts parses every chunk of testdata/*.gs (the chunked format of
// internal/scripttest): the syntax errors must be exactly those its ###
// markers expect. sample.gs, without markers, must parse cleanly.
func TestScripts(t *testing.T) {
	chunks, err := scripttest.Glob("testdata/*.gs")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		t.Run(c.Name(), func(t *testing.T) {
			_, err := Parse(c.File, []byte(c.Source))
			c.CheckErrors(t, err)
		})
	}
}
