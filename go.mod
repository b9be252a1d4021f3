module github.com/gscript-lang/gscript

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/chzyer/readline v1.5.1
	github.com/ebitengine/purego v0.11.3
	gonum.org/v1/gonum v0.17.0
)

require golang.org/x/sys v0.0.0-20220310020820-b874c991c1a5 // indirect
