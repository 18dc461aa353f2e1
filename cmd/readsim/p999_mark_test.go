package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The * mark says a p99.9 is "their largest, or next to it". The recorder
// takes the p99.9 of n latencies at rank round(0.999 n), which is n-1 for
// every n from 501 to 1,500: the full run's fan-out rows (1,000 requests)
// have a p99.9 that is the next-to-largest latency, exactly as -quick's 999
// would, yet they carry no mark (README's table: fanout rows 1000x100,
// p99.9 unmarked).
func TestP999OfNextToLargestIsMarked(t *testing.T) {
	for _, n := range []int{1000, 1200, 1500} {
		r := newRecorder()
		for i := 1; i <= n; i++ {
			r.record(time.Duration(i) * time.Millisecond)
		}
		above := n - int(r.quantileMS(99.9)+0.5)
		assert.LessOrEqual(t, above, 1, "n %d: the p99.9 is the largest or next to it", n)
		cells := cellsOf(row{Scenario: "fanout", Policy: "NEVER", Reads: int64(n) * 100, Latencies: int64(n), P999: r.quantileMS(99.9), Trustworthy: true})
		assert.True(t, strings.HasSuffix(cells[5], "*"), "n %d: p99.9 %q resting on %d latency above it is not marked", n, cells[5], above)
	}
}
