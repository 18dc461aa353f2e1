package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// besideOut is two rounds of a benchmark that runs an operation and its
// reference side by side, and reports their ratio.
const besideOut = `BenchmarkBeside/Read/Ref 	300	3662 ns/op	1.046 ratio	3500 ref-ns/op
BenchmarkBeside/Read/Ref-2 	300	4100 ns/op	1.204 ratio	3400 ref-ns/op
BenchmarkBeside/Read/Ref 	300	3700 ns/op	1.074 ratio	3380 ref-ns/op
BenchmarkBeside/Read/Ref-2 	300	4000 ns/op	1.096 ratio	3650 ref-ns/op
`

const besideReadme = header + ` allocs/op | reference | ratio | target |
|---|---|---|---|---|---|---|
| Beside/Read/Ref | 1× | 1× |  |  |  | ≤ 1.07× |
| Beside/Read/Ref | 1× | 1× |  |  |  | ≤ 1.07× (cpu 2) |
`

// A side-by-side benchmark's row shows the median of its ratio, marked
// against the row's target as a ratio column is, and no allocations.
func TestABesideRowShowsItsRatioMarked(t *testing.T) {
	_, table, err := Rebuild(besideReadme, Parse(besideOut))
	require.NoError(t, err)
	rows := strings.Split(table, "\n")[2:4]
	assert.Equal(t, []string{
		"| Beside/Read/Ref | 1.06× ✓ | 1.15× ✗ |  |  |  | ≤ 1.07× |", // medians 1.060 and 1.150
		"| Beside/Read/Ref | 1.06× | 1.15× ✗ |  |  |  | ≤ 1.07× (cpu 2) |",
	}, rows)
}

// Rounds counts a side-by-side ratio's rounds within its target, as shown.
func TestRoundsCountsABesideRowsRoundsWithinItsTarget(t *testing.T) {
	report, err := Rounds(besideReadme, Parse(besideOut))
	require.NoError(t, err)
	_, figures, ok := strings.Cut(report, "figure per round (min–max; rounds meeting the target):\n")
	require.True(t, ok, report)
	figures, _, _ = strings.Cut(figures, "widest spreads")
	assert.Equal(t, "Beside/Read/Ref (≤ 1.07×): cpu 1 1.05× – 1.07× 2/2, cpu 2 1.10× – 1.20× 0/2\n", figures,
		"1.074 is 1.07 as shown, within; the row is listed once")
}
