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
// 100,000 rows, through any number of small merges after it, then through
// merges of fewer versions, or that did not diff. (Found by reviews.)
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
	small := []replica.Partition{replica.NewPartition("k", rows(3, 2)...), replica.NewPartition("k", rows(3, 1)...)}
	resolve := func(r *repair.Resolver) error { _, _, err := r.Resolve(small...); return err }
	mergeIn := func(r *repair.Resolver) error {
		var b repair.Blocks
		_, err := r.MergeIn(&b, small...)
		return err
	}
	for _, c := range []struct {
		name     string
		versions int // of the giant merge
		then     func(*repair.Resolver) error
	}{
		{"diffs of as many versions", 2, resolve},
		{"diffs of fewer versions", 3, resolve},
		{"merges without diffs", 2, mergeIn},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r repair.Resolver
			if err := resolve(&r); err != nil {
				t.Fatal(err)
			}
			before := heap()
			giant := make([]replica.Partition, c.versions)
			giant[0] = replica.NewPartition("g", rows(100000, 1)...)
			for i := 1; i < c.versions; i++ {
				giant[i] = replica.Partition{Key: "g"}
			}
			if _, _, err := r.Resolve(giant...); err != nil {
				t.Fatal(err)
			}
			clear(giant)
			for range 100 {
				if err := c.then(&r); err != nil {
					t.Fatal(err)
				}
			}
			after := heap()
			runtime.KeepAlive(&r)
			t.Logf("heap %d -> %d bytes", before, after)
			if grew := int64(after) - int64(before); grew > 1<<20 {
				t.Errorf("a Resolver that merged one 100,000-row partition then only 3-row ones keeps %d bytes more", grew)
			}
		})
	}
}
