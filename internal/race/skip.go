package race

import "testing"

// SkipPooledAllocs skips an allocation test of a path that pools objects:
// the race detector drops pooled objects at random, and they are made
// again. Such claims are checked by the runs without it.
func SkipPooledAllocs(t testing.TB) {
	t.Helper()
	if Enabled {
		t.Skip("the race detector drops pooled objects at random; allocations are checked without it")
	}
}
