package coordinator_test

import (
	"context"
	"slices"

	"github.com/readpath/readpath/coordinator"
)

// many reads the key by ReadMany, the query's limit as a per-partition
// limit and limit as the IN query's, and holds it to the model as read does.
func (m *modelRun) many(req coordinator.Request, limit int) {
	snap := m.snapshot()
	res, err := m.c.ReadMany(context.Background(), coordinator.ManyRequest{Table: tbl, Keys: []string{key},
		Level: req.Level, Query: req.Query, Columns: req.Columns, Limit: limit, NowInSec: req.NowInSec})
	if err != nil || len(res) != 1 {
		m.t.Fatalf("ReadMany: %v, %d results", err, len(res))
	}
	m.t.Logf("ReadMany limit %d: %v\n%v", limit, res[0].Err, res[0].Result.Trace)
	if res[0].Err != nil {
		m.checkError(res[0].Err)
		return
	}
	q := req.Query // one key: the tighter of the two limits
	if limit > 0 && (q.Limit == 0 || limit < q.Limit) {
		q.Limit = limit
	}
	ids := used(res[0].Result.Trace)
	got, want := viewRows(res[0].Result.Visible()), ascending(m.expect(snap, ids, q, nil))
	if !slices.Equal(got, want) {
		m.t.Fatalf("ReadMany from %v returned\n  %v\nthe model of their versions holds\n  %v", ids, got, want)
	}
}
