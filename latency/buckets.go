package latency

import (
	"math/bits"
	"time"
)

// Samples go into log-linear buckets: durations are counted in units of
// 1<<unitShift ns; below 64 units every unit has its own bucket, and above
// that every power of two is split into 64 equal buckets. From 64 units (512
// ns) up a bucket is thus at most 1/64 of its lower bound wide, and reporting
// its midpoint is off by at most 1/128 (0.78 %) of any value in it; below,
// by at most half a unit. Cassandra's buckets are 20 % wide.
const (
	unitShift = 3 // 8 ns units: finer than 1 % from 1 µs up
	subBits   = 6 // 64 buckets per power of two
	subCount  = 1 << subBits
	maxBits   = 36 - unitShift // MaxLatency is 1<<36 ns
	maxUnits  = uint64(1) << maxBits

	// regularBuckets hold in-range samples; the two extra buckets count
	// clamped and negative samples, so that they fade with the window too.
	regularBuckets = (maxBits - subBits + 1) * subCount // 1792
	clampedBucket  = regularBuckets
	negativeBucket = regularBuckets + 1
	numBuckets     = regularBuckets + 2

	// The regular buckets come in blocks of subCount, one per octave (the
	// first block is the linear part below 512 ns): the unit in which a
	// tracker allocates counters, since a table's reads span a few octaves.
	numBlocks = regularBuckets / subCount // 28
)

// MaxLatency is the largest duration a Tracker tells apart (about 68.7 s).
// Record counts longer samples as MaxLatency and reports them in
// Snapshot.Clamped.
const MaxLatency = time.Duration(1<<36) * time.Nanosecond

// bucketOf returns the bucket that counts d. It is on the record path: no
// loops, no divisions.
func bucketOf(d time.Duration) int {
	if d < 0 {
		return negativeBucket
	}
	v := uint64(d) >> unitShift
	if v >= maxUnits {
		return clampedBucket
	}
	e := bits.Len64(v|subCount) - subBits - 1 // 0 below 128 units
	return e<<subBits + int(v>>e)
}

// bucketBounds returns the durations [lo, hi) that bucket i counts.
func bucketBounds(i int) (lo, hi time.Duration) {
	e := max(i>>subBits-1, 0)
	first := uint64(i-e<<subBits) << e
	return time.Duration(first << unitShift), time.Duration((first + 1<<e) << unitShift)
}

// bucketMid returns the midpoint of bucket i, the value reported for every
// sample in it. The clamped bucket reports MaxLatency.
func bucketMid(i int) time.Duration {
	if i >= clampedBucket {
		return MaxLatency
	}
	lo, hi := bucketBounds(i)
	return lo + (hi-lo)/2
}
