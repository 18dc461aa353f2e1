package repair_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// A Resolver kept for good (in a sync.Pool, as the coordinator's are) does
// not keep the scratch of its largest merge: it kept 4 MB after one diff of
// 100,000 rows, through any number of small merges after it. (Found by a
// review.)
func TestAResolverKeepsNoGiantScratch(t *testing.T) {
	rows := func(n int, ts int64) []replica.Row {
		out := make([]replica.Row, n)
		for i := range out {
			out[i] = replica.NewRow(fmt.Sprintf("c%07d", i), replica.Live("v", "x", ts))
		}
		return out
	}
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	var r repair.Resolver
	small := []replica.Partition{replica.NewPartition("k", rows(3, 2)...), replica.NewPartition("k", rows(3, 1)...)}
	if _, _, err := r.Resolve(small...); err != nil {
		t.Fatal(err)
	}
	before := heap()
	if _, _, err := r.Resolve(replica.NewPartition("g", rows(100000, 1)...), replica.Partition{Key: "g"}); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if _, _, err := r.Resolve(small...); err != nil {
			t.Fatal(err)
		}
	}
	after := heap()
	runtime.KeepAlive(&r)
	t.Logf("heap %d -> %d bytes", before, after)
	if grew := int64(after) - int64(before); grew > 1<<20 {
		t.Errorf("a Resolver that merged one 100,000-row partition then only 3-row ones keeps %d bytes more", grew)
	}
}
