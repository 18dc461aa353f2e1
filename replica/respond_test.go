package replica_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
)

// stored holds what Respond must purge at time 100 with gcBefore 50: an
// expired cell, a purgeable tombstone and one that is not.
func stored() replica.Partition {
	return replica.NewPartition("k",
		replica.NewRow("r",
			replica.Live("a", "v", 10),
			replica.Expiring("b", "gone", 10, 20, 100),
			replica.Tombstone("c", 10, 40),
			replica.Tombstone("d", 10, 60),
		),
	)
}

func TestRespondPurgesAndProjects(t *testing.T) {
	cmd := replica.Command{Table: "t", Key: "k", NowInSec: 100, GCBefore: 50}
	resp, err := cmd.Respond(stored())
	require.NoError(t, err)
	requireSamePartition(t, replica.NewPartition("k", replica.NewRow("r",
		replica.Live("a", "v", 10), replica.Tombstone("b", 10, 80), replica.Tombstone("d", 10, 60))), resp.Partition, "data")
	assert.Equal(t, digest.Digest{}, resp.Digest, "a data answer carries no digest")

	cmd.Columns = []string{"a", "c"}
	resp, err = cmd.Respond(stored())
	require.NoError(t, err)
	requireSamePartition(t, replica.NewPartition("k", replica.NewRow("r", replica.Live("a", "v", 10))), resp.Partition, "projected")
}

func TestRespondDigestsTheDataAnswer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		now, gc := readTimeGen(t)
		cmd := replica.Command{Key: p.Key, NowInSec: now, GCBefore: max(gc, 0)}
		if rapid.Bool().Draw(t, "columns") {
			cmd.Columns = sortedDistinct(t, "selected")
		}
		data, err := cmd.Respond(p)
		require.NoError(t, err)
		for _, v := range []byte{0, digest.V1, digest.V2} {
			cmd.DigestOnly, cmd.DigestVersion = true, v
			resp, err := cmd.Respond(p)
			require.NoError(t, err)
			want, _ := data.Partition.DigestAt(v)
			assert.Equal(t, want, resp.Digest, "version %d", v)
			assert.True(t, resp.Partition.IsEmpty(), "a digest answer carries no data")
		}
	})
}

// Without a read time, Respond is what a replica answered before read time
// existed: its data, projected, without what a deletion covers.
func TestRespondWithoutReadTime(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		cols := sortedDistinct(t, "selected")
		resp, err := replica.Command{Key: p.Key, Columns: cols}.Respond(p)
		require.NoError(t, err)
		if want := reconciled(p.Project(cols)); !resp.Partition.Equal(want) {
			t.Fatalf("got  %v\nwant %v", resp.Partition, want)
		}
	})
}

func TestRespondToAPartitionNotHeld(t *testing.T) {
	for _, held := range []replica.Partition{{}, {Key: "k"}} {
		resp, err := replica.Command{Key: "k"}.Respond(held)
		require.NoError(t, err)
		requireSamePartition(t, replica.Partition{Key: "k"}, resp.Partition, "data")
		resp, err = replica.Command{Key: "k", DigestOnly: true}.Respond(held)
		require.NoError(t, err)
		assert.Equal(t, replica.Partition{Key: "k"}.Digest(), resp.Digest)
	}
}

func TestRespondRefuses(t *testing.T) {
	tests := []struct {
		name    string
		cmd     replica.Command
		stored  replica.Partition
		message string
		is      []error
	}{
		{"negative read time", replica.Command{Key: "k", NowInSec: -1, GCBefore: -5}, stored(),
			"replica: invalid command: negative read time -1", []error{replica.ErrInvalidCommand}},
		{"gcBefore after the read time", replica.Command{Key: "k", NowInSec: 10, GCBefore: 11}, stored(),
			"replica: invalid command: gcBefore 11 after the read time 10", []error{replica.ErrInvalidCommand}},
		{"unknown digest version", replica.Command{Key: "k", DigestOnly: true, DigestVersion: 3}, stored(),
			"replica: invalid command: digest version: digest: unknown encoding version 3 (this build knows 1 to 2)",
			[]error{replica.ErrInvalidCommand, digest.ErrUnknownVersion}},
		{"another key", replica.Command{Key: "j"}, stored(),
			`replica: invalid partition "k": not the partition of key "j" that the command reads`, []error{replica.ErrInvalidPartition}},
	}
	for _, tt := range tests {
		before := tt.stored.Clone()
		resp, err := tt.cmd.Respond(tt.stored)
		require.Error(t, err, tt.name)
		assert.EqualError(t, err, tt.message, tt.name)
		for _, target := range tt.is {
			assert.ErrorIs(t, err, target, tt.name)
		}
		assert.True(t, resp.Partition.IsEmpty() && resp.Digest == digest.Digest{}, tt.name)
		assert.True(t, tt.stored.Equal(before), "%s: stored changed", tt.name)
		if errors.Is(err, replica.ErrInvalidCommand) {
			assert.Equal(t, err, tt.cmd.Validate(), tt.name)
		}
	}
	assert.NoError(t, replica.Command{NowInSec: 10, GCBefore: -100}.Validate(), "a gcBefore before the epoch purges nothing")
}

// A replica answers a read that purges nothing without allocating: Respond
// hands out the stored partition, or digests it with a pooled encoder.
func TestRespondWithNothingToPurgeDoesNotAllocate(t *testing.T) {
	race.SkipPooledAllocs(t)
	p := sample()
	for _, cmd := range []replica.Command{
		{Key: p.Key, NowInSec: 200, GCBefore: 50},
		{Key: p.Key, NowInSec: 200, GCBefore: 50, DigestOnly: true},
		{Key: p.Key, NowInSec: 200, GCBefore: 50, DigestOnly: true, DigestVersion: digest.V1},
		{Key: "missing", NowInSec: 200, GCBefore: 50, DigestOnly: true},
	} {
		stored := p
		if cmd.Key == "missing" {
			stored = replica.Partition{}
		}
		assert.Zero(t, testing.AllocsPerRun(50, func() { _, _ = cmd.Respond(stored) }), "%+v", cmd)
	}
}

func TestCommandErrorUnwraps(t *testing.T) {
	inner := errors.New("inner")
	err := &replica.CommandError{Reason: "why", Err: inner}
	assert.ErrorIs(t, err, inner)
	assert.ErrorIs(t, err, replica.ErrInvalidCommand)
	var ce *replica.CommandError
	require.True(t, errors.As(error(err), &ce))
	assert.EqualError(t, &replica.CommandError{Reason: "why"}, "replica: invalid command: why")
}
