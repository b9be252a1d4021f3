package interp

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ast"
)

func (th *Thread) runTape(s *ast.TapeBlock, body func() (ctrl, error)) (Value, ctrl, error) {
	return nil, ctrlNone, th.errorAt(s.Pos, fmt.Errorf("tape blocks are not yet supported"))
}
