package dtype

import "fmt"

// LaneAxes describes the trailing array axes t's lanes take, for
// messages about arrays that do not have them: "a last axis of 3",
// "last axes of 3, 3"; a struct's axis is its size in bytes (Dims), not
// its count of lanes.
func (t Type) LaneAxes() string {
	d := t.Dims()
	if len(d) == 2 {
		return fmt.Sprintf("last axes of %d, %d", d[0], d[1])
	}
	return fmt.Sprintf("a last axis of %d", d[0])
}
