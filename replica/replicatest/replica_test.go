package replicatest_test

import (
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func read(t *testing.T, r replica.Replica, cmd replica.Command) replica.Response {
	t.Helper()
	resp, err := r.Read(t.Context(), cmd)
	require.NoError(t, err)
	return resp
}

func TestReadReturnsTheSeededVersion(t *testing.T) {
	r := newReplica(t)
	p := partition("k", "v", 1)
	require.NoError(t, r.Seed(table, p))
	assert.True(t, read(t, r, replica.Command{Table: table, Key: "k"}).Partition.Equal(p))
	assert.Equal(t, p.Digest(), read(t, r, replica.Command{Table: table, Key: "k", DigestOnly: true}).Digest)
}

func TestSeedReplacesAndCopies(t *testing.T) {
	r := newReplica(t)
	require.NoError(t, r.Seed(table, partition("k", "new", 2)))
	older := partition("k", "old", 1)
	require.NoError(t, r.Seed(table, older), "seeding an older version makes the replica stale")
	older.Rows[0].Cells[0].Value[0] = 'X'
	got, ok := r.Partition(table, "k")
	require.True(t, ok)
	assert.True(t, got.Equal(partition("k", "old", 1)), "Seed stored a copy")
	got.Rows[0].Cells[0].Value[0] = 'Y'
	again, _ := r.Partition(table, "k")
	assert.True(t, again.Equal(partition("k", "old", 1)), "Partition returns a copy")
}

func TestSeedRejectsInvalidPartitions(t *testing.T) {
	r := newReplica(t)
	require.NoError(t, r.Seed(table, partition("k", "v", 1)))
	bad := replica.Partition{Key: "k", Rows: []replica.Row{{Clustering: "b"}, {Clustering: "a"}}}
	require.ErrorIs(t, r.Seed(table, bad), replica.ErrInvalidPartition)
	got, _ := r.Partition(table, "k")
	assert.True(t, got.Equal(partition("k", "v", 1)))
}

// A partition of the empty key is refused, by Seed, Apply and a cluster's
// Seed: no read can ask for it (Cassandra: "Key may not be empty"), so it
// was written and never read (a user's drill).
func TestWritesOfTheEmptyKeyAreRefused(t *testing.T) {
	empty := partition("", "v", 1)
	r := newReplica(t)
	require.ErrorIs(t, r.Seed(table, empty), replica.ErrInvalidPartition)
	require.ErrorIs(t, r.Apply(t.Context(), replica.Mutation{Table: table, Partition: empty}), replica.ErrInvalidPartition)
	_, ok := r.Partition(table, "")
	assert.False(t, ok)
	cl := threeByThree(t)
	require.ErrorIs(t, cl.Seed(table, empty), replica.ErrInvalidPartition)
}

func TestApplyMergesAndNeverLosesANewerWrite(t *testing.T) {
	r := newReplica(t)
	newer := partition("k", "new", 2)
	require.NoError(t, r.Seed(table, newer))
	older := replica.NewPartition("k", replica.NewRow("row", replica.Live("col", "old", 1), replica.Live("other", "x", 1)))
	require.NoError(t, r.Apply(t.Context(), replica.Mutation{Table: table, Partition: older}))
	want, err := repair.Merge(newer, older)
	require.NoError(t, err)
	got, _ := r.Partition(table, "k")
	assert.True(t, got.Equal(want), "got %+v", got)
	assert.Equal(t, "new", string(got.Rows[0].Cells[0].Value))
}

// Apply keeps a copy of the write, nothing of it: a caller may build its
// next write in the same memory (coordinator.Config.ReuseRepairWrites).
func TestApplyKeepsNothingOfTheWrite(t *testing.T) {
	r := newReplica(t)
	w := partition("k", "v", 1)
	require.NoError(t, r.Apply(t.Context(), replica.Mutation{Table: table, Partition: w}))
	c := &w.Rows[0].Cells[0]
	c.Value[0], c.Timestamp, c.Column = 'X', 99, "zz"
	w.Rows[0].Clustering = "other"
	got, ok := r.Partition(table, "k")
	require.True(t, ok)
	assert.True(t, got.Equal(partition("k", "v", 1)), "got %+v", got)
}

func TestApplyRejectsInvalidMutations(t *testing.T) {
	r := newReplica(t)
	require.NoError(t, r.Seed(table, partition("k", "v", 1)))
	bad := replica.Partition{Key: "k", Rows: []replica.Row{{Clustering: "r", Cells: []replica.Cell{{Column: "c", TTL: -1}}}}}
	err := r.Apply(t.Context(), replica.Mutation{Table: table, Partition: bad})
	require.ErrorIs(t, err, repair.ErrInvalidVersions)
	var re *replicatest.RequestError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "apply", re.Op)
	got, _ := r.Partition(table, "k")
	assert.True(t, got.Equal(partition("k", "v", 1)))
	assert.Equal(t, int64(1), r.Stats().Errors)
}

func TestMissingPartitionReadsEmpty(t *testing.T) {
	r := newReplica(t)
	empty := replica.Partition{Key: "nope"}
	assert.True(t, read(t, r, replica.Command{Table: table, Key: "nope"}).Partition.Equal(empty))
	assert.Equal(t, empty.Digest(), read(t, r, replica.Command{Table: table, Key: "nope", DigestOnly: true}).Digest)
	_, held := r.Partition(table, "nope")
	assert.False(t, held)
}

func TestColumnsProjectDataAndDigest(t *testing.T) {
	r := newReplica(t)
	p := replica.NewPartition("k",
		replica.NewRow("a", replica.Live("x", "1", 1), replica.Live("y", "2", 1)),
		replica.NewRow("b", replica.Live("y", "3", 1)))
	require.NoError(t, r.Seed(table, p))
	cmd := replica.Command{Table: table, Key: "k", Columns: []string{"x"}}
	want := p.Project([]string{"x"})
	assert.True(t, read(t, r, cmd).Partition.Equal(want))
	cmd.DigestOnly = true
	assert.Equal(t, want.Digest(), read(t, r, cmd).Digest)
}

func TestNewRejectsInvalidOptions(t *testing.T) {
	for name, opt := range map[string]replicatest.Option{
		"negative workers":      replicatest.WithWorkers(-1, 0),
		"negative queue":        replicatest.WithWorkers(1, -1),
		"queue without workers": replicatest.WithWorkers(0, 3),
		"invalid behavior":      with(replicatest.Behavior{Slowdown: -1}),
		"invalid latency":       latency(replicatest.Empirical()),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := replicatest.New(ep, opt)
			require.ErrorIs(t, err, replicatest.ErrInvalidConfig)

			r := replicatest.NewReplica(ep, opt)
			require.ErrorIs(t, r.Err(), replicatest.ErrInvalidConfig)
			_, err = r.Read(t.Context(), replica.Command{Table: table, Key: "k"})
			require.ErrorIs(t, err, replicatest.ErrInvalidConfig)
			err = r.Apply(t.Context(), replica.Mutation{Table: table, Partition: partition("k", "v", 1)})
			require.ErrorIs(t, err, replicatest.ErrInvalidConfig)
			assert.Equal(t, int64(2), r.Stats().Errors)
		})
	}
}

func TestNewReplicaWithValidOptions(t *testing.T) {
	r := replicatest.NewReplica(ep, replicatest.WithWorkers(2, 5), replicatest.WithSeed(3))
	require.NoError(t, r.Err())
	assert.Equal(t, ep, r.Endpoint())
	_, err := r.Read(t.Context(), replica.Command{Table: table, Key: "k"})
	require.NoError(t, err)
}
