package replicatest_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// Mutants that purge one kind of tombstone made at gcBefore, where
// Cassandra purges only one made before it (DeletionPurger: localDeletionTime
// < gcBefore): an engine may keep partition, row and complex deletions and
// cell tombstones apart, and get one of them wrong. purgesAtGCBefore
// (conformance_tie_mutants_test.go) gets all deletions wrong at once.

// purgesKindAtGCBefore returns a mutant that drops what gone picks from
// stored, when gcBefore is positive, before answering.
func purgesKindAtGCBefore(gone func(p *replica.Partition, gcBefore int64)) func(*mapReplica, replica.Command, replica.Partition) (replica.Response, error) {
	return func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		if cmd.GCBefore > 0 {
			stored = stored.Clone()
			gone(&stored, cmd.GCBefore)
			stored.Rows = slices.DeleteFunc(stored.Rows, replica.Row.IsEmpty)
		}
		return cmd.Respond(stored)
	}
}

func madeBy(d replica.Deletion, gcBefore int64) bool {
	return !d.IsLive() && d.LocalDeletionTime <= gcBefore
}

var (
	purgesPartitionDeletionAtGCBefore = purgesKindAtGCBefore(func(p *replica.Partition, gc int64) {
		if madeBy(p.Deletion, gc) {
			p.Deletion = replica.Deletion{}
		}
	})
	purgesRowDeletionsAtGCBefore = purgesKindAtGCBefore(func(p *replica.Partition, gc int64) {
		for i := range p.Rows {
			if madeBy(p.Rows[i].Deletion, gc) {
				p.Rows[i].Deletion = replica.Deletion{}
			}
		}
	})
	purgesComplexDeletionsAtGCBefore = purgesKindAtGCBefore(func(p *replica.Partition, gc int64) {
		for _, r := range rowsOf(p) {
			r.ComplexDeletions = slices.DeleteFunc(r.ComplexDeletions, func(cd replica.ComplexDeletion) bool { return madeBy(cd.Deletion, gc) })
		}
	})
	purgesCellTombstonesAtGCBefore = purgesKindAtGCBefore(func(p *replica.Partition, gc int64) {
		for _, r := range rowsOf(p) {
			r.Cells = slices.DeleteFunc(r.Cells, func(c replica.Cell) bool { return c.Tombstone && c.LocalDeletionTime <= gc })
		}
	})
)

// The mutants are real bugs: each answers a read at gcBefore equal to the
// local deletion time of what it purges unlike Command.Respond, where the
// adapter unchanged does not.
func TestGCBeforeKindMutantsAreRealBugs(t *testing.T) {
	row := replica.NewRow
	for name, stored := range map[string]replica.Partition{
		"purges a partition deletion made at gcBefore": replica.NewPartition("k", row("r", replica.Live("x", "1", 10))).
			WithDeletion(replica.DeletedAt(5, 200)),
		"purges row deletions made at gcBefore":     replica.NewPartition("k", row("r").WithDeletion(replica.DeletedAt(5, 200))),
		"purges complex deletions made at gcBefore": replica.NewPartition("k", row("r").WithComplexDeletion("m", replica.DeletedAt(5, 200))),
		"purges cell tombstones made at gcBefore":   replica.NewPartition("k", row("r", replica.Tombstone("x", 5, 200))),
	} {
		ctx := context.Background()
		good, bad := goodAndMutant(t, name, stored)
		cmd := replica.Command{Table: "t", Key: "k", NowInSec: 400, GCBefore: 200}
		want, err := cmd.Respond(stored)
		require.NoError(t, err, name)
		got, err := good.Read(ctx, cmd)
		require.NoError(t, err, name)
		require.True(t, got.Partition.Equal(want.Partition), name)
		got, err = bad.Read(ctx, cmd)
		require.NoError(t, err, name)
		require.False(t, got.Partition.Equal(want.Partition), "%s: the mutant answers correctly: %v", name, got.Partition)
	}
}

// goodAndMutant are a correct replica and the mutant name, each holding
// stored.
func goodAndMutant(t *testing.T, name string, stored replica.Partition) (good, bad *mapReplica) {
	t.Helper()
	m, ok := mutants[name]
	require.True(t, ok, name)
	good, bad = newMapReplica(mutant{}), newMapReplica(m.m)
	for _, r := range []*mapReplica{good, bad} {
		require.NoError(t, r.Apply(context.Background(), replica.Mutation{Table: "t", Partition: stored}), name)
	}
	return good, bad
}
