module github.com/gscript-lang/gscript

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/ebitengine/purego v0.11.3
)
