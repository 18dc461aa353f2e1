package readpath_test

// Benchmarks of every hot path, each beside a reference it is judged against.
// Run them with:
//
//	go test -run '^$' -bench . -count 10 . > new.txt && benchstat new.txt

import (
	"testing"

	"github.com/readpath/readpath/consistency"
)

var sinkInt int

// BenchmarkBlockFor is on every read's path; it must not allocate.
func BenchmarkBlockFor(b *testing.B) {
	r := consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3, "dc3": 2})
	levels := consistency.Levels()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		sinkInt += levels[i%len(levels)].BlockFor(r, "dc2")
		i++
	}
}
