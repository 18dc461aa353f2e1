package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The * footnote's claim: under fewLatencies latencies, p99.9 is the
// largest or the one next to it, as the recorder takes its rank.
func TestP999OfFewLatenciesIsTheLargestOrNextToIt(t *testing.T) {
	for _, n := range []int{100, 250, 500, 501, 750, fewLatencies - 1} {
		r := newRecorder()
		for i := 1; i <= n; i++ {
			r.record(time.Duration(i) * time.Millisecond)
		}
		above := n - int(r.quantileMS(99.9))
		assert.LessOrEqual(t, above, 1, "n %d", n)
	}
}
