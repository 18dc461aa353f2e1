package replicatest

import (
	"testing"

	"github.com/readpath/readpath/replica"
)

// checkQueryPaging reads the query partition page by page, forward and
// reversed, as the coordinator pages and protects short reads: each page's
// query is the last one's After the row it ended at, whose bound excludes
// that row (StartAfter forward, EndBefore reversed). Every page must be
// Respond's, so that a replica that scans a reversed continuation from an
// inclusive seek, say, and answers its first page's last row again fails.
func checkQueryPaging(t *testing.T, r replica.Replica) {
	stored := applyVersions(t, r, "q", queried)
	bToG := []replica.Slice{sl(replica.StartAt("b"), replica.EndAt("g"))}
	for _, q := range []replica.Query{
		{Limit: 1}, {Limit: 2}, {Limit: 1, Reversed: true}, {Limit: 2, Reversed: true},
		{Slices: bToG, Limit: 1}, {Slices: bToG, Limit: 1, Reversed: true},
	} {
		for range len(stored.Rows) + 1 { // a page ends at a row, or is the last
			cmd := queryCommand("q", q)
			expectAnswer(t, r, cmd, stored)
			page, err := cmd.Respond(stored)
			last, ok := page.Partition.LastClustering(q)
			if err != nil || !ok || page.Partition.LiveRows(q, queryNow) < q.Limit {
				break
			}
			q = q.After(last)
		}
	}
}
