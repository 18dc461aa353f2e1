package replicatest

import (
	"context"
	"errors"
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// An invalid write fails as merging it into what is held would, whether
// the key holds unmerged writes or nothing, and changes nothing: not the
// partition, not whether one is held, not its digest.
func TestInvalidWriteOverHeldWritesChangesNothing(t *testing.T) {
	ctx := context.Background()
	bad := replica.Partition{Key: "k", Rows: []replica.Row{{Clustering: "r", Cells: []replica.Cell{{Column: "c", TTL: -1}}}}}
	for _, writes := range []int{0, 3} {
		r := NewReplica(replica.Endpoint{ID: "a"})
		held := replica.Partition{Key: "k"}
		for i := range writes {
			w := replica.NewPartition("k", replica.NewRow(string(rune('a'+i)), replica.Live("v", "x", 1)))
			if err := r.Apply(ctx, replica.Mutation{Table: "t", Partition: w}); err != nil {
				t.Fatal(err)
			}
			held, _ = repair.Merge(held, w)
		}
		_, want := repair.Merge(held, bad)
		err := r.Apply(ctx, replica.Mutation{Table: "t", Partition: bad})
		var re *RequestError
		if !errors.Is(err, repair.ErrInvalidVersions) || !errors.As(err, &re) || re.Op != "apply" || re.Err.Error() != want.Error() {
			t.Fatalf("%d writes held: %v; want the apply's %v", writes, err, want)
		}
		got, ok := r.Partition("t", "k")
		if ok != (writes > 0) || ok && !got.Equal(held) {
			t.Fatalf("%d writes held: holds %+v (%v); want %+v", writes, got, ok, held)
		}
		resp, err := r.Read(ctx, replica.Command{Table: "t", Key: "k", DigestOnly: true})
		if wantResp, _ := (replica.Command{Key: "k", DigestOnly: true}).Respond(held); err != nil || writes > 0 && resp.Digest != wantResp.Digest {
			t.Fatalf("%d writes held: digest %v, %v; want %v", writes, resp.Digest, err, wantResp.Digest)
		}
	}
}
