package replicatest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// utf8Transport carries column names and paths as UTF-8 strings, as a
// protobuf string field or JSON does (both replace invalid bytes with
// U+FFFD): package replica's names are arbitrary bytes.
var utf8Transport = mutant{
	read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		if cmd.Columns != nil {
			cols := make([]string, len(cmd.Columns))
			for i, c := range cmd.Columns {
				cols[i] = toUTF8(c)
			}
			cmd.Columns = cols
		}
		return cmd.Respond(stored)
	},
	apply: func(r *mapReplica, k [2]string, held, p replica.Partition) error {
		return mergeInto(r, k, held, mapNames(p, toUTF8))
	},
}

func toUTF8(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// store32BitTimes keeps local deletion times and expiries in 32 bits, as
// Cassandra 4.1 does (5.0: unsigned, until 2106): package replica's times
// are 64-bit. A TTL of 13 years written today expires past 2038.
var store32BitTimes = mutant{
	apply: func(r *mapReplica, k [2]string, held, p replica.Partition) error {
		return mergeInto(r, k, held, mapTimes(p, func(v int64) int64 { return int64(int32(v)) }))
	},
}

// unsignedGCBefore's engine compares deletion times with gcBefore
// unsigned, so a negative gcBefore, which the coordinator sends for a read
// time within gc_grace_seconds of the epoch (Request.NowInSec under 864000
// under the default grace), purges every tombstone: as if gcBefore were the
// read time, the latest Respond accepts.
var unsignedGCBefore = mutant{
	read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		if cmd.GCBefore < 0 {
			cmd.GCBefore = cmd.NowInSec
		}
		return cmd.Respond(stored)
	},
}

// unsetGCBefore takes a gcBefore of 0 for one not set, and purges at the
// read time, as a table with no gc grace.
var unsetGCBefore = mutant{
	read: func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		if cmd.GCBefore == 0 {
			cmd.GCBefore = cmd.NowInSec
		}
		return cmd.Respond(stored)
	},
}

// rowsOf returns pointers to p's static row and rows.
func rowsOf(p *replica.Partition) []*replica.Row {
	rows := []*replica.Row{&p.Static}
	for i := range p.Rows {
		rows = append(rows, &p.Rows[i])
	}
	return rows
}

// mapNames returns a copy of p with f applied to every column name and
// path, of cells and complex deletions.
func mapNames(p replica.Partition, f func(string) string) replica.Partition {
	p = p.Clone()
	for _, row := range rowsOf(&p) {
		for i := range row.Cells {
			row.Cells[i].Column, row.Cells[i].Path = f(row.Cells[i].Column), f(row.Cells[i].Path)
		}
		for i := range row.ComplexDeletions {
			row.ComplexDeletions[i].Column = f(row.ComplexDeletions[i].Column)
		}
	}
	return p
}

// mapTimes returns a copy of p with f applied to every local deletion time
// and expiry.
func mapTimes(p replica.Partition, f func(int64) int64) replica.Partition {
	p = mapCells(p, func(c *replica.Cell) { c.LocalDeletionTime = f(c.LocalDeletionTime) })
	del := func(d *replica.Deletion) { d.LocalDeletionTime = f(d.LocalDeletionTime) }
	del(&p.Deletion)
	for i := range p.RangeTombstones {
		del(&p.RangeTombstones[i].Deletion)
	}
	for _, row := range rowsOf(&p) {
		del(&row.Deletion)
		row.Liveness.ExpiresAt = f(row.Liveness.ExpiresAt)
		for i := range row.ComplexDeletions {
			del(&row.ComplexDeletions[i].Deletion)
		}
	}
	return p
}

// The wire mutants are real bugs: each answers a read of a valid write
// unlike Command.Respond, where the well-behaved adapter does not.
func TestWireMutantsAreRealBugs(t *testing.T) {
	const far = 1<<32 + 2_000_000_000 // past 2106; 2033 in 32 bits
	ctx := context.Background()
	for name, c := range map[string]struct {
		m   mutant
		p   replica.Partition
		cmd replica.Command
	}{
		"UTF-8 names": {utf8Transport, replica.NewPartition("k", replica.NewRow("r",
			replica.Live("\xff", "b", 10), replica.Live("set", "", 10).WithPath("\xfe"))),
			replica.Command{Table: "t", Key: "k"}},
		"32-bit times": {store32BitTimes, replica.NewPartition("k", replica.NewRow("r",
			replica.Expiring("c", "v", 10, 630720000, far))),
			replica.Command{Table: "t", Key: "k", NowInSec: 1_700_000_000, GCBefore: 1_700_000_000 - 864000}},
		"unsigned gcBefore": {unsignedGCBefore, replica.NewPartition("k", replica.NewRow("r",
			replica.Tombstone("c", 10, 200))),
			replica.Command{Table: "t", Key: "k", NowInSec: 260, GCBefore: 260 - 864000}},
		"gcBefore 0 as unset": {unsetGCBefore, replica.NewPartition("k", replica.NewRow("r",
			replica.Tombstone("c", 10, 200))),
			replica.Command{Table: "t", Key: "k", NowInSec: 260}},
	} {
		require.NoError(t, c.p.Validate(), name)
		want, err := c.cmd.Respond(c.p)
		require.NoError(t, err, name)
		good := newMapReplica(mutant{})
		require.NoError(t, good.Apply(ctx, replica.Mutation{Table: c.cmd.Table, Partition: c.p}), name)
		ok, err := good.Read(ctx, c.cmd)
		require.NoError(t, err, name)
		require.True(t, ok.Partition.Equal(want.Partition), name)

		bad := newMapReplica(c.m)
		if err := bad.Apply(ctx, replica.Mutation{Table: c.cmd.Table, Partition: c.p}); err == nil {
			got, err := bad.Read(ctx, c.cmd)
			require.False(t, err == nil && got.Partition.Equal(want.Partition), "%s: the mutant answers correctly", name)
		}
	}
}
