package latency

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Samples recorded while Summarize reads the window (records take no
// lock) land in blocks it reads after the totals. Summarize read a block
// again for each quantile, so a quantile of the top rank could fall under
// the Max read before it: a table's P999 one bucket under its P99 and Max,
// {Count:2 P50:1.43ms P99:2.57ms Max:2.57ms P999:2.51ms}, in an exporter's
// scrapes of new tables. Here a sample lands below the top one after every
// read of its block.
func TestSummarizeQuantilesStayInOrderWhileSamplesArrive(t *testing.T) {
	tr := NewTracker()
	tr.Record(1430 * time.Microsecond)
	tr.Record(2570 * time.Microsecond)
	top := bucketOf(2570*time.Microsecond) >> subBits
	blockRead = func(o int) {
		if o == top {
			tr.Record(2500 * time.Microsecond)
		}
	}
	defer func() { blockRead = nil }()
	var q [3]time.Duration
	s := tr.Summarize([]float64{0.5, 0.99, 0.999}, q[:])

	assert.Equal(t, int64(2), s.Count)
	assert.Equal(t, s.Max, q[2], "P999 of two samples is the second, the Max")
	assert.Equal(t, s.Max, q[1], "so is P99")
	assert.LessOrEqual(t, s.Min, q[0])
	assert.LessOrEqual(t, q[0], q[1])
}

// A sample recorded in a block below the top one, before that block is
// read, made a walk that counted it past the totals reach its top ranks a
// block early: P999 and P100 at 1 ms under a Max of 2.57 ms, or of the
// clamped MaxLatency (found by review). The walk stops at the samples the
// totals counted.
func TestSummarizeTopQuantilesAreTheMaxWhileSamplesArrive(t *testing.T) {
	for _, top := range []time.Duration{2570 * time.Microsecond, 2 * MaxLatency} {
		tr := NewTracker()
		tr.Record(100 * time.Microsecond)
		tr.Record(top)
		tr.Record(time.Millisecond)
		low, once := bucketOf(100*time.Microsecond)>>subBits, true
		blockRead = func(o int) {
			if o == low && once {
				once = false
				tr.Record(time.Millisecond) // in a block the walk reads next
			}
		}
		var q [3]time.Duration
		s := tr.Summarize([]float64{0.5, 0.999, 1}, q[:])
		blockRead = nil

		assert.Equal(t, int64(3), s.Count, "top %v", top)
		assert.Equal(t, s.Max, q[2], "top %v: P100 is the Max", top)
		assert.Equal(t, s.Max, q[1], "top %v: so is P999, the third of three", top)
		assert.LessOrEqual(t, q[0], q[1], "top %v", top)
	}
}

// Summarize fills every i of both slices: qs longer than quantiles once
// indexed past quantiles (found by review).
func TestSummarizeTakesQuantilesShorterThanQs(t *testing.T) {
	tr := NewTracker()
	tr.Record(time.Millisecond)
	var one [1]time.Duration
	assert.NotPanics(t, func() { tr.Summarize([]float64{0.5, 0.99, 0.999}, one[:]) })
	assert.Equal(t, tr.Quantile(0.5), one[0])
}
