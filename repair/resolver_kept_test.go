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
// merges of fewer versions, or that did not diff, and 2.7 MB after a diff
// of four versions each of whose scratch was under 1 MiB. (Found by
// reviews.)
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
	// giant returns n versions of 100,000 rows held by the first, or of
	// 20,000 of which each holds 5,000 of its own (each lacks 15,000, a
	// scratch under 1 MiB).
	giant := func(n int, shared bool) []replica.Partition {
		vs := make([]replica.Partition, n)
		for v := range vs {
			switch {
			case shared && v == 0:
				vs[v] = replica.NewPartition("g", rows(100000, 1)...)
			case shared:
				vs[v] = replica.Partition{Key: "g"}
			default:
				own := rows(20000, 1)[v*5000 : (v+1)*5000]
				vs[v] = replica.NewPartition("g", own...)
			}
		}
		return vs
	}
	for _, c := range []struct {
		name     string
		versions int // of the giant merge
		shared   bool
		then     func(*repair.Resolver) error
	}{
		{"diffs of as many versions", 2, true, resolve},
		{"diffs of fewer versions", 3, true, resolve},
		{"merges without diffs", 2, true, mergeIn},
		{"each version's scratch under 1 MiB", 4, false, resolve},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r repair.Resolver
			if err := resolve(&r); err != nil {
				t.Fatal(err)
			}
			before := heap()
			if _, _, err := r.Resolve(giant(c.versions, c.shared)...); err != nil {
				t.Fatal(err)
			}
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
