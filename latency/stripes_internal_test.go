package latency

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withGOMAXPROCS runs f with GOMAXPROCS set to n.
func withGOMAXPROCS(t *testing.T, n int, f func()) {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
	f()
}

func TestMaxStripesIsTwiceGOMAXPROCSRoundedUp(t *testing.T) {
	for procs, want := range map[int]int{1: 1, 2: 4, 3: 8, 4: 8, 5: 16, 32: 64, 33: 64, 200: 64} {
		withGOMAXPROCS(t, procs, func() { assert.Equal(t, want, maxStripes(), "GOMAXPROCS %d", procs) })
	}
}

// Every contentionStep findings double the stripes up to the maximum,
// keeping the stripes that hold counts; at the maximum they deal the
// goroutines out anew instead. Either way the two goroutines last found on
// one stripe end up on different ones.
func TestContentionSpreadsRecordsOut(t *testing.T) {
	withGOMAXPROCS(t, 4, func() {
		tr := NewTracker()
		tr.Record(time.Millisecond)
		first := tr.set.Load().stripes[0]
		r := rand.New(rand.NewPCG(3, 4))
		for _, want := range []int{1, 2, 4, 8, 8, 8} {
			set := tr.set.Load()
			require.Len(t, set.stripes, want)
			assert.Same(t, first, set.stripes[0], "counts stay where they are")
			a, b := uintptr(r.Uint64N(1<<36)), uintptr(r.Uint64N(1<<36))
			for range contentionStep {
				tr.contended(set, a, b)
			}
			now := tr.set.Load()
			if want == 8 {
				assert.Same(t, set, now, "no more stripes than twice GOMAXPROCS")
			}
			assert.NotEqual(t, now.index(a), now.index(b), "the colliding pair comes apart")
		}
		assert.Equal(t, int64(1), tr.Snapshot().Count)
	})
}

// A probe notes contention when another goroutine probed the stripe last.
// (The goroutine is told by its stack, which a goroutine started later may
// reuse: so the other goroutine here is simulated.)
func TestProbeNotesAStripeShared(t *testing.T) {
	tr := NewTracker()
	tr.Record(time.Millisecond)
	set := tr.set.Load()
	s := set.stripes[0]
	tr.probe(set, s, new(atomic.Uint32), stackOf(), probeEvery) // takes the stripe
	tr.contention.Store(0)
	tr.probe(set, s, new(atomic.Uint32), stackOf(), probeEvery)
	assert.Zero(t, tr.contention.Load(), "the same goroutine")
	s.user.Add(1 << 20) // another goroutine's stack
	tr.probe(set, s, new(atomic.Uint32), stackOf(), probeEvery)
	assert.Equal(t, uint32(1), tr.contention.Load(), "another goroutine probed last")
	tr.probe(set, s, new(atomic.Uint32), stackOf(), probeEvery)
	assert.Equal(t, uint32(1), tr.contention.Load())
}

// A stripe is four whole cache lines, the last holding the words that are
// written.
func TestStripeLayout(t *testing.T) {
	assert.Equal(t, uintptr(256), unsafe.Sizeof(stripe{}))
	assert.LessOrEqual(t, unsafe.Offsetof(stripe{}.blocks)+unsafe.Sizeof(stripe{}.blocks[0])*24, uintptr(192),
		"octaves up to 24 in the first three lines")
	assert.GreaterOrEqual(t, unsafe.Offsetof(stripe{}.special), uintptr(192), "the written words in the last")
	assert.GreaterOrEqual(t, unsafe.Offsetof(stripe{}.user), uintptr(192))
	lo, _ := bucketBounds(24 << subBits)
	assert.Greater(t, lo, 4*time.Second, "the last line's octaves")
}

// Contention counts within a sub-window: a table whose Records collide now
// and then keeps its single stripe.
func TestContentionIsCountedPerSubWindow(t *testing.T) {
	withGOMAXPROCS(t, 4, func() {
		now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		tr := NewTracker(WithWindow(3*time.Second), WithClock(func() time.Time { return now }))
		tr.Record(time.Millisecond)
		for range 10 {
			for range contentionStep - 1 {
				tr.contended(tr.set.Load(), 1, 2)
			}
			now = now.Add(time.Second)
			tr.Quantile(0.5) // slides the window
		}
		assert.Len(t, tr.set.Load().stripes, 1)
	})
}

// A query holding the tracker does not make Record wait: the growth is
// left to a later contention step.
func TestSpreadNeverWaitsForTheLock(t *testing.T) {
	withGOMAXPROCS(t, 2, func() {
		tr := NewTracker()
		tr.Record(time.Millisecond)
		tr.mu.Lock()
		for range contentionStep {
			tr.contended(tr.set.Load(), 1, 2)
		}
		tr.mu.Unlock()
		assert.Len(t, tr.set.Load().stripes, 1)
		for range contentionStep {
			tr.contended(tr.set.Load(), 1, 2)
		}
		assert.Len(t, tr.set.Load().stripes, 2)
	})
}

// The first growth, from one stripe to two, already puts the two goroutines
// last found sharing the stripe on different stripes, whatever they are: a
// multiplier chosen for the one-stripe set separates nothing, and left
// about half of the colliding pairs together.
func TestTheFirstGrowthSeparatesTheCollidingPair(t *testing.T) {
	withGOMAXPROCS(t, 4, func() {
		r := rand.New(rand.NewPCG(5, 6))
		for range 64 {
			tr := NewTracker()
			tr.Record(time.Millisecond)
			a, b := uintptr(r.Uint64N(1<<36)), uintptr(r.Uint64N(1<<36))
			for range contentionStep {
				tr.contended(tr.set.Load(), a, b)
			}
			set := tr.set.Load()
			require.Len(t, set.stripes, 2)
			require.NotEqual(t, set.index(a), set.index(b), "stacks %#x and %#x", a, b)
		}
	})
}

// A contention step taken through a set that has since been replaced, by a
// Record that loaded the set before another grew it, leaves the newer set
// in place: growing the stale one again dropped the stripes added since,
// and the samples Records had counted in them.
func TestAStaleContentionStepKeepsTheNewerStripes(t *testing.T) {
	withGOMAXPROCS(t, 4, func() {
		tr := NewTracker()
		tr.Record(time.Millisecond)
		stale := tr.set.Load()
		for range contentionStep {
			tr.contended(stale, 1, 2)
		}
		grown := tr.set.Load()
		require.Len(t, grown.stripes, 2)
		grown.stripes[1].rareCounter(bucketOf(time.Millisecond)).Add(1) // a Record on the new stripe
		for range contentionStep {
			tr.contended(stale, 1, 2) // probes of Records that loaded the first set
		}
		assert.Equal(t, int64(2), tr.Snapshot().Count, "the new stripe's sample still counts")
	})
}

// Stacks land on every stripe, and each multiplier deals them out
// differently, so goroutines that collide under one are likely apart under
// the next.
func TestStripeIndexSpreadsStacks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	set := newStripeSet(nil, 8, initialSalt)
	seen := make([]int, 8)
	apart := 0
	for range 8000 {
		a := uintptr(r.Uint64N(1 << (47 - stackGrain)))
		b := a + uintptr(1)<<r.IntN(10)
		i := set.index(a)
		require.Less(t, i, uint64(8))
		seen[i]++
		if i != set.index(b) {
			apart++
		}
		set.salt.Store(nextSalt(set.salt.Load()))
	}
	for i, n := range seen {
		assert.InDelta(t, 1000, n, 200, "stripe %d", i)
	}
	assert.Greater(t, apart, 8000*3/4, "neighbouring stacks mostly apart")
	assert.Equal(t, uint64(0), newStripeSet(nil, 1, initialSalt).index(^uintptr(0)), "one stripe: always 0")
}

// A rotation moves every count exactly once while writers keep adding and
// the stripes grow: what the finished sub-windows took and what is left add
// up to what was recorded.
func TestRotationMovesEveryCountOnce(t *testing.T) {
	withGOMAXPROCS(t, max(runtime.GOMAXPROCS(0), 4), func() {
		tr := NewTracker(WithClock(func() time.Time { return time.Time{} }))
		const writers, perWriter = 8, 20_000
		var wg sync.WaitGroup
		for w := range writers {
			wg.Go(func() {
				for i := range perWriter {
					tr.Record(time.Duration(w*i%5000-10) * time.Microsecond) // some negative
				}
			})
		}
		stop, moved := make(chan struct{}), make(chan uint64)
		go func() {
			var n uint64
			for e := int64(1); ; e++ {
				select {
				case <-stop:
					moved <- n
					return
				default:
				}
				n += rotateOnce(tr, e)
				if set := tr.set.Load(); set != nil && e%3 == 0 {
					tr.contention.Add(contentionStep - 1)
					tr.contended(set, 1, 2) // grow meanwhile
				}
			}
		}()
		wg.Wait()
		close(stop)
		n := <-moved + rotateOnce(tr, 1<<40)
		assert.Equal(t, uint64(writers*perWriter), n)
		assert.Greater(t, tr.epoch, int64(2), "rotations happened")
	})
}

// rotateOnce starts sub-window e by hand and returns the samples it moved.
func rotateOnce(tr *Tracker, e int64) uint64 {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	prev := tr.epoch
	if tr.set.Load() == nil {
		return 0
	}
	tr.slideLocked(time.Duration(e) * tr.sub)
	g := &tr.gens[prev%(parts-1)]
	tot := blockTotals{}
	g.totals(&tot)
	n := g.special[1]
	for _, c := range tot {
		n += c
	}
	return n
}

// Probes stop noting contention for the rest of a sub-window once it has
// done all it can.
func TestProbingStopsAtTheCap(t *testing.T) {
	tr := NewTracker()
	tr.Record(time.Millisecond)
	set := tr.set.Load()
	s := set.stripes[0]
	tr.contention.Store(contentionCap)
	s.user.Store(0)
	tr.probe(set, s, new(atomic.Uint32), stackOf(), probeEvery)
	assert.Equal(t, uint32(contentionCap), tr.contention.Load())
	assert.Zero(t, s.user.Load(), "the stripe's word is left alone")
}
