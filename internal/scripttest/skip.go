package scripttest

// Env is where a chunk is about to run, for its //!TAG conditions.
type Env struct {
	Device      string // the default device: "cpu" or "cuda:N"
	CUDADevices int    // how many CUDA devices are present
	// DeviceOnly also skips //!cuda and //!cuda2 chunks when Device is
	// the cpu: the conformance suite runs each chunk once per backend, and
	// a chunk written for CUDA has no cpu run to compare.
	DeviceOnly bool
}

// Skip returns why the chunk must not run in env, or "" when it may.
func (c *Chunk) Skip(env Env) string {
	onCPU := env.Device == "cpu"
	switch {
	case c.Has("cuda2") && env.CUDADevices < 2:
		return "needs two CUDA devices"
	case c.Has("cuda") && env.CUDADevices == 0:
		return "needs a CUDA device"
	case env.DeviceOnly && onCPU && (c.Has("cuda") || c.Has("cuda2")):
		return "a CUDA chunk: not on the cpu"
	case c.Has("nocuda") && env.CUDADevices > 0:
		return "only without a CUDA device"
	case c.Has("cpu") && !onCPU:
		return "only on the cpu device"
	}
	return ""
}
