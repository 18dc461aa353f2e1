package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The allocs column shows the median of the rounds' allocs/op as it is:
// half the rounds allocating once is not shown as none.
func TestAllocsShowsAHalfMedian(t *testing.T) {
	for _, c := range []struct {
		allocs []float64
		want   string
	}{
		{[]float64{0, 0, 0, 0}, "0"},
		{[]float64{0, 0, 1, 1}, "0.5"},
		{[]float64{1, 1, 2, 2}, "1.5"},
		{[]float64{4, 5, 4, 5, 4}, "4"},
	} {
		rs := Results{
			key{"X", 1}: {"ns/op": {10, 10, 10, 10}, "allocs/op": c.allocs},
			key{"X", 2}: {"ns/op": {10, 10, 10, 10}},
		}
		row, err := rebuildRow("| X | | | | | | 0 allocs |", rs)
		require.NoError(t, err)
		assert.Equal(t, "| X | 10.0 ns | 10.0 ns | "+c.want+" |  |  | 0 allocs |", row, "%v", c.allocs)
	}
}
