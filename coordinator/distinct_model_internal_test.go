package coordinator

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// distinct (ReadMany's check for repeats) keeps the keys a set would, in
// their first order, and returns keys itself when none repeats: over lists
// of 0 to 5000 keys, the sizes around powers of two among them, drawn from
// as few as one value (every key a repeat) to twice as many as the keys.
func TestDistinctKeepsTheFirstOfEachKeyAsASetWould(t *testing.T) {
	sizes := rapid.SampledFrom([]int{0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1023, 1024, 1025, 4096})
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.OneOf(sizes, rapid.IntRange(0, 5000)).Draw(t, "n")
		values := rapid.IntRange(1, 2*n+2).Draw(t, "values")
		rnd := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 0))
		keys := make([]string, n)
		for i := range keys {
			keys[i] = strconv.Itoa(rnd.IntN(values))
		}
		seen := map[string]bool{}
		var want []string
		for _, k := range keys {
			if !seen[k] {
				seen[k] = true
				want = append(want, k)
			}
		}
		got := distinct(keys)
		if !slices.Equal(got, want) {
			t.Fatalf("%d keys of %d values: distinct kept %d keys, a set %d", n, values, len(got), len(want))
		}
		if len(want) == n && n > 0 && &got[0] != &keys[0] {
			t.Fatalf("%d keys, none repeated: distinct copied them", n)
		}
	})
}
