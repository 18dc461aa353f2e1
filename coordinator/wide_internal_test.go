package coordinator

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A recycled read state's wide buffers refer to nothing once cleared,
// whatever the reads that filled them, narrow ones after a wide one too:
// not the replicas of a DC-local read either, which would keep a replica
// the engine has dropped alive.
func TestWideBuffersHoldNothingOnceCleared(t *testing.T) {
	var w wideBufs
	x := replicatest.NewReplica(replica.Endpoint{ID: "x"})
	for _, n := range []int{72, 20, 0, 40} {
		eps, cands := w.endpoints(n), w.candidates(n)
		reps := w.replicas(n / 2) // a local read takes a part of its placement
		for i := range n {
			eps = append(eps, replica.Endpoint{ID: "x"})
			cands = append(cands, candidate{ep: replica.Endpoint{ID: "x"}})
			if i < n/2 {
				reps = append(reps, x)
			}
		}
		w.clear()
		for i, ep := range w.eps[:cap(w.eps)] {
			assert.Zero(t, ep, "endpoint %d after a read of %d", i, n)
		}
		for i, r := range w.reps[:cap(w.reps)] {
			assert.Nil(t, r, "replica %d after a read of %d", i, n)
		}
		for i, c := range w.cands[:cap(w.cands)] {
			assert.Zero(t, c, "candidate %d after a read of %d", i, n)
		}
	}
	// A DC-local read of a few of a wide Placement's replicas takes the
	// replicas buffer alone: their endpoints fit in the read's own.
	reps := append(w.replicas(3), x, x, x)
	assert.Same(t, &w.reps[:1][0], &reps[0], "the local read filled the kept buffer")
	w.clear()
	for i, r := range w.reps[:cap(w.reps)] {
		assert.Nil(t, r, "replica %d after a narrow local read", i)
	}
}

// A recycled read state's versions refer to nothing once cleared: not the
// answers of a call that filled more than the read's last.
func TestVersionBufferHoldsNothingOnceCleared(t *testing.T) {
	var b versionBuf
	fill := func(n int) {
		vs := b.take()
		for range n {
			vs = append(vs, version{candidate{ep: replica.Endpoint{ID: "x"}}, replica.Partition{Key: "k"}})
		}
		b.partsOf(b.keep(vs))
	}
	for _, ns := range [][]int{{3, 1}, {1, 5}, {0}, {2, 2}} {
		for _, n := range ns {
			fill(n)
		}
		b.clear()
		for i, v := range b.vs[:cap(b.vs)] {
			assert.Zero(t, v, "version %d after calls of %v", i, ns)
		}
		for i, p := range b.parts[:cap(b.parts)] {
			assert.Zero(t, p, "partition %d after calls of %v", i, ns)
		}
	}
}
