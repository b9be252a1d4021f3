package mem

import "testing"

// TestKernelReaches is the rule for fills and copies on an array's own
// device, for every kind on the cpu and on a CUDA device.
func TestKernelReaches(t *testing.T) {
	tests := []struct {
		dev  Device
		kind Kind
		want bool
	}{
		{CPUDevice, Unknown, true}, {CPUDevice, Host, true}, {CPUDevice, Pinned, true},
		{CPUDevice, CUDADevice, true}, {CPUDevice, CUDAMempool, true}, {CPUDevice, CUDAManaged, true},
		// host memory wrapped as a CUDA array is reached from the host
		{cuda0, Host, false}, {cuda0, Pinned, false},
		{cuda0, Unknown, true}, {cuda0, CUDADevice, true}, {cuda0, CUDAMempool, true}, {cuda0, CUDAManaged, true},
	}
	if len(tests) != 2*len(Kinds) {
		t.Fatalf("%d cases for %d kinds on two devices", len(tests), len(Kinds))
	}
	for _, tc := range tests {
		if got := kernelReaches(tc.dev, tc.kind); got != tc.want {
			t.Errorf("kernelReaches(%s, %s) = %v, want %v", tc.dev, tc.kind, got, tc.want)
		}
	}
}
