package latency

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The bucket layout is the one piece of arithmetic every other guarantee
// rests on, so it is checked exhaustively at every bucket edge.
func TestBucketsTileTheRangeInOrder(t *testing.T) {
	assert.Equal(t, 1792, regularBuckets)
	prevLo := time.Duration(-1)
	for i := range regularBuckets {
		lo, hi := bucketBounds(i)
		require.Greater(t, lo, prevLo, "bucket %d", i)
		assert.Equal(t, i, bucketOf(lo), "lower edge of bucket %d", i)
		assert.Equal(t, i, bucketOf(hi-1), "upper edge of bucket %d", i)
		if i+1 < regularBuckets {
			next, _ := bucketBounds(i + 1)
			assert.Equal(t, hi, next, "bucket %d ends where %d starts", i, i+1)
		}
		mid := bucketMid(i)
		assert.True(t, lo <= mid && mid < hi, "midpoint %v of bucket %d outside [%v, %v)", mid, i, lo, hi)
		if lo >= 512*time.Nanosecond { // 64 units: where the log part starts, below 1 µs
			assert.LessOrEqual(t, float64(hi-lo)/2/float64(lo), 1.0/128, "bucket %d too wide", i)
		}
		prevLo = lo
	}
	_, top := bucketBounds(regularBuckets - 1)
	assert.Equal(t, MaxLatency, top)
}

func TestBucketOfOutOfRange(t *testing.T) {
	assert.Equal(t, negativeBucket, bucketOf(-1))
	assert.Equal(t, negativeBucket, bucketOf(-time.Hour))
	assert.Equal(t, clampedBucket, bucketOf(MaxLatency))
	assert.Equal(t, clampedBucket, bucketOf(MaxLatency*3/2))
	assert.Equal(t, clampedBucket, bucketOf(2*MaxLatency-1))
	assert.Equal(t, clampedBucket, bucketOf(time.Duration(1<<63-1)))
	assert.Equal(t, regularBuckets-1, bucketOf(MaxLatency-1))
	assert.Equal(t, 0, bucketOf(0))
	assert.Equal(t, MaxLatency, bucketMid(clampedBucket))
}
