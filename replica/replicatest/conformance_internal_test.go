package replicatest

import (
	"testing"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// The read-time check is only as strong as its data: at each of readTimes
// rich's merge must answer differently, so that an adapter that purges at
// the wrong time, or not at all, gives itself away; and version 1 cannot
// express it, so that the digest-version check sees both rules.
func TestReadTimesPurgeRichDataDifferently(t *testing.T) {
	for _, base := range timeBases {
		older, newer := rich("k", base)
		stored, err := repair.Merge(older, newer)
		if err != nil {
			t.Fatal(err)
		}
		var answers []replica.Partition
		times := readTimes(base)
		for _, at := range times {
			resp, err := replica.Command{Key: "k", NowInSec: at[0], GCBefore: at[1]}.Respond(stored)
			if err != nil {
				t.Fatal(err)
			}
			for i, prev := range answers {
				if prev.Equal(resp.Partition) {
					t.Errorf("read time %v answers as read time %v: %v", at, times[i], prev)
				}
			}
			answers = append(answers, resp.Partition)
		}
		enc, _ := stored.AppendCanonicalAt(nil, digest.V1)
		if enc[0] != digest.V2 {
			t.Errorf("version 1 can express rich data")
		}
	}
}

// The read-time check counts tombstones at read times that purge some of
// them and keep others, so that a replica that counts before it purges, or
// counts nothing, fails.
func TestReadTimesPurgeSomeTombstones(t *testing.T) {
	older, newer := rich("k", 0)
	stored, _ := repair.Merge(older, newer)
	some := 0
	for _, at := range readTimes(0) {
		cmd := replica.Command{Key: "k", NowInSec: at[0], GCBefore: at[1]}
		purged, _ := cmd.Respond(stored)
		cmd.GCBefore = 0
		kept, _ := cmd.Respond(stored)
		if purged.Tombstones > 0 && purged.Tombstones < kept.Tombstones {
			some++
		}
	}
	if some < 2 {
		t.Errorf("%d read times purge some tombstones and keep others, want at least 2", some)
	}
}
