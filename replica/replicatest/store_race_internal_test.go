package replicatest

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// Writers chaining on to entries that readers, digest readers and
// Partition are folding at the same moment lose no write, and the replica
// ends holding the merge of them all (run with -race).
func TestConcurrentWritersAndFoldersLoseNoWrite(t *testing.T) {
	ctx := context.Background()
	r := NewReplica(replica.Endpoint{ID: "a"})
	const writers, writes = 3, 150
	all := make([][]replica.Partition, writers)
	for w := range writers {
		for i := range writes {
			// Rows written by every writer, at different timestamps, and
			// now and then a range tombstone, so that folds meet all kinds.
			p := replica.NewPartition("k", replica.NewRow(fmt.Sprintf("row%03d", i%40), replica.Live("v", fmt.Sprint(w), int64(i))))
			if i%25 == 0 {
				p.RangeTombstones = []replica.RangeTombstone{replica.NewRangeTombstone(
					replica.StartAt("row010"), replica.EndAt("row015"), replica.DeletedAt(int64(i), 1))}
			}
			all[w] = append(all[w], p)
		}
	}
	done := make(chan struct{})
	var readers sync.WaitGroup
	for g := range 3 {
		readers.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				switch (g + i) % 3 {
				case 0:
					r.Partition("t", "k")
				default:
					if _, err := r.Read(ctx, replica.Command{Table: "t", Key: "k", DigestOnly: (g+i)%3 == 1}); err != nil {
						t.Error(err)
						return
					}
				}
			}
		})
	}
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for _, p := range all[w] {
				if err := r.Apply(ctx, replica.Mutation{Table: "t", Partition: p}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(done)
	readers.Wait()
	var flat []replica.Partition
	for _, ps := range all {
		flat = append(flat, ps...)
	}
	want, err := repair.Merge(flat...)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.Partition("t", "k"); !got.Equal(want) {
		t.Fatalf("holds %+v; want %+v", got, want)
	}
	cmd := replica.Command{Table: "t", Key: "k", DigestOnly: true}
	got, _ := r.Read(ctx, cmd)
	if wantResp, _ := cmd.Respond(want); got.Digest != wantResp.Digest {
		t.Fatalf("digest %v; want %v", got.Digest, wantResp.Digest)
	}
}
