package replicatest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A digest version no build knows (above digest.Latest) is refused by a
// replica of the newest build, through Command.Respond's *CommandError
// wrapping a *digest.VersionError. A replica of an older build
// (WithMaxDigestVersion) knows even fewer versions, so it must refuse it
// too; package digest's doc: "A build that does not know the version a
// command asks for refuses it (*VersionError, through
// replica.Command.Respond)".
func TestOlderBuildRefusesAnUnknownDigestVersion(t *testing.T) {
	ctx := context.Background()
	p := replica.NewPartition("k", replica.NewRow("r", replica.Live("c", "v", 1)))
	cmd := replica.Command{Table: "t", Key: "k", DigestOnly: true, DigestVersion: digest.Latest + 1}
	_, want := cmd.Respond(p)
	require.ErrorIs(t, want, digest.ErrUnknownVersion)

	newest := newReplica(t)
	require.NoError(t, newest.Seed("t", p))
	_, err := newest.Read(ctx, cmd)
	require.ErrorIs(t, err, digest.ErrUnknownVersion, "the newest build refuses it")

	older := newReplica(t, replicatest.WithMaxDigestVersion(digest.V1))
	require.NoError(t, older.Seed("t", p))
	resp, err := older.Read(ctx, cmd)
	assert.ErrorIs(t, err, digest.ErrUnknownVersion, "an older build answered version %d with %v", cmd.DigestVersion, resp.Digest)
	var ce *replica.CommandError
	assert.True(t, errors.As(err, &ce), "a *replica.CommandError, as Respond gives")
}

// The same for a version that only newer builds know: a node of a build
// that knows version 1 only, asked for version 2 explicitly, answers a
// version-1 digest instead of refusing, so a coordinator bug that asks an
// old node for a version it does not support goes unnoticed in tests,
// where a real old node would fail the read.
func TestOlderBuildRefusesANewerDigestVersion(t *testing.T) {
	ctx := context.Background()
	p := replica.NewPartition("k", replica.NewRow("r", replica.Live("c", "v", 1)))
	older := newReplica(t, replicatest.WithMaxDigestVersion(digest.V1))
	require.NoError(t, older.Seed("t", p))
	cmd := replica.Command{Table: "t", Key: "k", DigestOnly: true, DigestVersion: digest.V2}
	resp, err := older.Read(ctx, cmd)
	v1, _ := p.DigestAt(digest.V1)
	assert.ErrorIs(t, err, digest.ErrUnknownVersion, "answered %v (the version-1 digest is %v)", resp.Digest, v1)
}

// What a command asking for the newest version (0) gets from an older
// build is its own newest: that is right, and stays so.
func TestOlderBuildAnswersVersionZeroAtItsNewest(t *testing.T) {
	ctx := context.Background()
	p := replica.NewPartition("k", replica.NewRow("r", replica.Live("c", "v", 1)))
	older := newReplica(t, replicatest.WithMaxDigestVersion(digest.V1))
	require.NoError(t, older.Seed("t", p))
	resp, err := older.Read(ctx, replica.Command{Table: "t", Key: "k", DigestOnly: true})
	require.NoError(t, err)
	v1, _ := p.DigestAt(digest.V1)
	require.Equal(t, v1, resp.Digest)
	require.Equal(t, digest.V1, replica.DigestVersionFor(older))
}
