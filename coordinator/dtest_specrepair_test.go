package coordinator_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// stops is a replica whose data reads, digest reads or writes (byteman's
// stop_data_reads, stop_digest_reads and stop_rr_writes) never answer:
// they wait for their context to end.
type stops struct {
	replica.Replica
	data, digest, writes bool
}

func (r stops) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if cmd.DigestOnly && r.digest || !cmd.DigestOnly && r.data {
		<-ctx.Done()
		return replica.Response{}, ctx.Err()
	}
	return r.Replica.Read(ctx, cmd)
}

func (r stops) Apply(ctx context.Context, m replica.Mutation) error {
	if r.writes {
		<-ctx.Done()
		return ctx.Err()
	}
	return r.Replica.Apply(ctx, m)
}

// specRepairEnv is TestSpeculativeReadRepair's set-up: speculative_retry
// 400ms, timeouts of 1 s, (k=1, c=0, v=1) on every node and (1, 1, 2) on
// node1 (A) alone; stop says what node2 (B) and node3 (C) stop.
func specRepairEnv(t *testing.T, stop map[string]stops) *env {
	t.Helper()
	e := newEnv(t, coordinator.Config{})
	first := p(replica.NewRow("0", replica.Live("v", "1", 1)).WithLiveness(replica.Inserted(1)))
	second := p(replica.NewRow("1", replica.Live("v", "2", 2)).WithLiveness(replica.Inserted(2)))
	require.NoError(t, e.cluster.SeedOn(tbl, merged(t, first, second), A))
	require.NoError(t, e.cluster.SeedOn(tbl, first, B, C))
	o := policy(t, "400ms")
	o.AdditionalWritePolicy = o.SpeculativeRetry
	c, err := coordinator.New(coordinator.Config{Liveness: e.cluster, ReadTimeout: ms(1000), DefaultTable: o,
		Locator: wrapping(e.cluster, 3, func(r replica.Replica) replica.Replica {
			if s, ok := stop[r.Endpoint().ID]; ok {
				s.Replica = r
				return s
			}
			return r
		})})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	e.c = c
	return e
}

// read_repair_test.py TestSpeculativeReadRepair: a QUORUM read coordinated
// by node1 returns both rows; the counters are StorageProxy's
// speculated_rr_read (ReconcileSpeculations), speculated_rr_write
// (AdditionalWrites) and the table's SpeculativeRetries. In
// test_quorum_requirement, B's reconcile read and C's repair write hang:
// the additional write goes to B, whose data the read never merged. In
// test_quorum_requirement_on_speculated_read, B's digest hangs, so the
// read hedges to C, whose digest mismatches and whose data read hangs:
// the reconcile round asks B for data too, as its digest is still due, and
// B's answer makes up the level.
func TestDtestSpeculativeReadRepair(t *testing.T) {
	for _, c := range []struct {
		name                        string
		stop                        map[string]stops
		speculated, rrRead, rrWrite int64
	}{
		{"test_speculative_data_request", map[string]stops{B: {data: true}}, 0, 1, 0},
		{"test_speculative_write", map[string]stops{B: {writes: true}}, 0, 0, 1},
		{"test_quorum_requirement", map[string]stops{B: {data: true}, C: {writes: true}}, 0, 1, 1},
		{"test_quorum_requirement_on_speculated_read", map[string]stops{B: {digest: true, writes: true}, C: {data: true}}, 1, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := specRepairEnv(t, c.stop)
				res, err := e.c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.Quorum, NowInSec: now})
				require.NoError(t, err, "%v", res.Trace)
				var got []string
				for _, r := range res.Visible().Rows {
					got = append(got, dtestRow(r))
				}
				assert.Equal(t, []string{"0:1", "1:2"}, got)
				m := e.c.Metrics().Total
				assert.Equal(t, c.speculated, m.SpeculativeRetries, "SpeculativeRetries\n%v", res.Trace)
				assert.Equal(t, c.rrRead, m.ReconcileSpeculations, "speculated_rr_read\n%v", res.Trace)
				assert.Equal(t, c.rrWrite, m.AdditionalWrites, "speculated_rr_write\n%v", res.Trace)
			})
		})
	}
}
