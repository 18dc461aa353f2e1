package replicatest

import (
	"math"
	"sync/atomic"
)

// factor is a float64 read and written atomically: a cluster's slowdown,
// read by every request of its replicas.
type factor struct {
	bits atomic.Uint64
}

func newFactor(x float64) *factor {
	f := &factor{}
	f.store(x)
	return f
}

// load returns the factor; a nil *factor is 1.
func (f *factor) load() float64 {
	if f == nil {
		return 1
	}
	return math.Float64frombits(f.bits.Load())
}

func (f *factor) store(x float64) { f.bits.Store(math.Float64bits(x)) }
