package coordinator_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// mangled answers data reads with its replica's answer changed by ops, as
// a faulty transport or a buggy storage engine might.
type mangled struct {
	replica.Replica
	ops []byte
}

func (m mangled) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	resp, err := m.Replica.Read(ctx, cmd)
	if err == nil && !cmd.DigestOnly {
		resp.Partition = mangle(resp.Partition.Clone(), m.ops)
	}
	return resp, err
}

// mangle applies ops to p, two bytes an op: what to change, and where.
func mangle(p replica.Partition, ops []byte) replica.Partition {
	for i := 0; i+1 < len(ops); i += 2 {
		op, at := ops[i]%8, int(ops[i+1])
		if len(p.Rows) == 0 && op < 6 {
			op = 6
		}
		r := at % max(len(p.Rows), 1)
		switch op {
		case 0:
			p.Rows[r], p.Rows[len(p.Rows)-1] = p.Rows[len(p.Rows)-1], p.Rows[r]
		case 1:
			p.Rows = append(p.Rows[:r+1:r+1], p.Rows[r:]...)
		case 2:
			p.Rows[r].Clustering = fuzzKeys[at%len(fuzzKeys)] + "z"
		case 3:
			p.Rows[r].Cells = nil
		case 4:
			if len(p.Rows[r].Cells) > 0 {
				p.Rows[r].Cells[0].TTL, p.Rows[r].Cells[0].Timestamp = int32(at)-128, int64(at)-128
			}
		case 5:
			p.Rows[r].Deletion = replica.DeletedAt(int64(at), int64(at)-1)
		case 6:
			p.Rows = append(p.Rows, replica.NewRow(fuzzKeys[at%len(fuzzKeys)], replica.Live("a", "x", int64(at))))
		case 7:
			p.Key += string(rune('a' + at%2))
		}
	}
	return p
}

// FuzzReplicaAnswers reads through a replica whose data answers are
// mangled (the first, second or third in the locator's order): a read
// either fails with a typed error or returns a valid partition of its key,
// at every level and strategy, and ends at once (see readsAtOnce). With
// fewer than two bytes of ops, mangle changes nothing: the read must then
// return what the replicas hold under its query.
func FuzzReplicaAnswers(f *testing.F) {
	f.Add(uint16(0), uint8(0), []byte{})
	for op := range byte(8) {
		f.Add(uint16(8), op, []byte{op, 1, 6, 200})
		f.Add(uint16(0), op|8, []byte{op, 2})
		f.Add(uint16(4), op|16, []byte{op, 3, op + 1, 0})
	}
	f.Fuzz(func(t *testing.T, shape uint16, level uint8, ops []byte) {
		readsAtOnce(t, func(cl *replicatest.Cluster) coordinator.Config {
			return mangledConfig(cl, level, ops)
		}, func(t *testing.T, c *coordinator.Coordinator) {
			q, columns, pageSize := fuzzQuery(shape)
			lvl := []consistency.Level{consistency.One, consistency.Quorum, consistency.All, consistency.Two}[level%4]
			req := coordinator.Request{Table: tbl, Key: "k1", Level: lvl, Query: q,
				Columns: columns, PageSize: pageSize, NowInSec: now}
			res, err := c.Read(context.Background(), req)
			if len(ops) < 2 {
				requireUnmangledRead(t, req, res, err)
				return
			}
			if err != nil {
				require.True(t, typedReadError(err), "%#v", err)
				return
			}
			require.NoError(t, res.Partition.Validate())
			require.Equal(t, "k1", res.Partition.Key)
		})
	})
}

// requireUnmangledRead checks that req, read through replicas that
// answered as they hold, returned what they hold under its query.
func requireUnmangledRead(t *testing.T, req coordinator.Request, res coordinator.Result, err error) {
	require.NoError(t, err)
	want := respondedView(t, fuzzPartition(req.Key), req.Query, req.Columns, req.PageSize)
	require.True(t, want.Equal(res.Visible()), "read %v, want %v", res.Visible(), want)
}

// mangledConfig configures a coordinator to read cl with the replica that
// level picks behind mangled(ops), and the strategy level picks.
func mangledConfig(cl *replicatest.Cluster, level uint8, ops []byte) coordinator.Config {
	locate := coordinator.LocatorFunc(func(table, key string) ([]replica.Replica, consistency.Replication, error) {
		reps, repl, err := cl.Locate(table, key)
		reps = slices.Clone(reps)
		if i := int(level>>3) % 3; i < len(reps) {
			reps[i] = mangled{reps[i], ops}
		}
		return reps, repl, err
	})
	opts := coordinator.TableOptions{}
	if level&4 != 0 {
		opts.Strategy = coordinator.DigestFirst
	}
	return coordinator.Config{Locator: locate, DefaultTable: opts}
}

func typedReadError(err error) bool {
	var failure *consistency.ReadFailureError
	var timeout *consistency.ReadTimeoutError
	return errors.As(err, &failure) || errors.As(err, &timeout)
}
