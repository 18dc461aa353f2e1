package replicatest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
)

// Mutants that judge an expiry a second off: Cassandra's LivenessInfo.isLive
// and Cell.isLive hold while nowInSec < the expiry. An engine may store
// simple cells, a collection's cells and row liveness apart, and get one
// of them wrong. An expired liveness is not converted and stays in the
// answer until it is purged, so an engine wrong about it answers the same
// data: what differs, at the second it judges wrong, is whether the row is
// live, which a limit counts, and the tombstone a row holding nothing else
// counts for it.

// livenessExpiresLate takes a row liveness as live through its expiry
// second (nowInSec <= expiry).
func livenessExpiresLate(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	return judgeExpiryAt(cmd, stored, expiryOfLiveness, cmd.NowInSec, cmd.NowInSec+1)
}

// livenessExpiresEarly takes a row liveness as expired a second before its
// expiry (nowInSec+1 >= expiry).
func livenessExpiresEarly(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	return judgeExpiryAt(cmd, stored, expiryOfLiveness, cmd.NowInSec+1, cmd.NowInSec)
}

// simpleCellsExpireLate takes a cell of a simple column as live through
// its expiry second.
func simpleCellsExpireLate(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	return judgeExpiryAt(cmd, stored, expiryOfSimpleCells, cmd.NowInSec, cmd.NowInSec+1)
}

// collectionCellsExpireEarly takes a cell of a collection as expired a
// second before its expiry.
func collectionCellsExpireEarly(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	return judgeExpiryAt(cmd, stored, expiryOfCollectionCells, cmd.NowInSec+1, cmd.NowInSec)
}

// staticCellsExpireLate takes a cell of the static row as live through its
// expiry second.
func staticCellsExpireLate(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	return judgeExpiryAt(cmd, stored, expiryOfStaticCells, cmd.NowInSec, cmd.NowInSec+1)
}

// An expiryOf returns the expiries in r, the static row if static, that a
// mutant judges wrong.
type expiryOf func(r *replica.Row, static bool) []*int64

func expiryOfLiveness(r *replica.Row, _ bool) []*int64 {
	if r.Liveness.IsExpiring() {
		return []*int64{&r.Liveness.ExpiresAt}
	}
	return nil
}

func expiryOfSimpleCells(r *replica.Row, _ bool) []*int64 { return expiryOfCells(r, false) }

func expiryOfCollectionCells(r *replica.Row, _ bool) []*int64 { return expiryOfCells(r, true) }

func expiryOfStaticCells(r *replica.Row, static bool) []*int64 {
	if !static {
		return nil
	}
	return append(expiryOfCells(r, false), expiryOfCells(r, true)...)
}

func expiryOfCells(r *replica.Row, collection bool) []*int64 {
	var out []*int64
	for i := range r.Cells {
		if c := &r.Cells[i]; c.IsExpiring() && (c.Path != "") == collection {
			out = append(out, &c.LocalDeletionTime)
		}
	}
	return out
}

// judgeExpiryAt answers cmd with the expiries of which picks those at from
// taken as to, and given back where they are still in the answer. from and
// to are nowInSec and the second after it, where no gcBefore, which is at
// most nowInSec, purges either, so only the judgement of expiry moves: an
// expiry taken as to = nowInSec has passed, one taken as nowInSec+1 has
// not. Where one of them is at to already, it answers as Respond.
func judgeExpiryAt(cmd replica.Command, stored replica.Partition, of expiryOf, from, to int64) (replica.Response, error) {
	var moving []*int64
	if cmd.NowInSec > 0 {
		stored = stored.Clone()
		for i, r := range rowsOf(&stored) {
			for _, e := range of(r, i == 0) {
				switch *e {
				case to:
					return cmd.Respond(stored)
				case from:
					moving = append(moving, e)
				}
			}
		}
	}
	if len(moving) == 0 {
		return cmd.Respond(stored)
	}
	for _, e := range moving {
		*e = to
	}
	data := cmd
	data.DigestOnly = false
	resp, err := data.Respond(stored)
	if err != nil {
		return resp, err
	}
	resp.Partition = resp.Partition.Clone()
	for i, r := range rowsOf(&resp.Partition) {
		for _, e := range of(r, i == 0) {
			if *e == to {
				*e = from // held the expiry from in stored: none there held to
			}
		}
	}
	if cmd.DigestOnly {
		resp.Digest, err = resp.Partition.DigestAt(cmd.DigestVersion)
		resp.Partition = replica.Partition{}
	}
	return resp, err
}

// The expiry mutants are real bugs: at the second they judge wrong, each
// answers a read of the whole partition, data and digest, unlike
// Command.Respond (a liveness's in its tombstone count only), where the
// adapter unchanged does not.
func TestExpiryMutantsAreRealBugs(t *testing.T) {
	stored := replica.NewPartition("k",
		replica.NewRow("a").WithLiveness(replica.InsertedWithTTL(10, 100, 200)),
		replica.NewRow("b", replica.Live("x", "1", 10), replica.Expiring("y", "2", 10, 100, 300)),
		replica.NewRow("c", replica.Live("m", "3", 10).WithPath("k1"), replica.Expiring("m", "4", 10, 100, 400).WithPath("k2"))).
		WithStatic(replica.Expiring("s", "5", 10, 100, 500))
	for name, now := range map[string]int64{
		"lives a row liveness through its expiry second": 200,
		"expires row liveness a second early":            199,
		"lives a simple cell through its expiry second":  300,
		"expires a collection's cells a second early":    399,
		"lives a static cell through its expiry second":  500,
	} {
		ctx := context.Background()
		good, bad := goodAndMutant(t, name, stored)
		wrong := 0
		for _, q := range []replica.Query{{}, {Limit: 1}} {
			for _, digestOnly := range []bool{false, true} {
				cmd := replica.Command{Table: "t", Key: "k", Query: q, NowInSec: now, GCBefore: now - 50, DigestOnly: digestOnly}
				want, err := cmd.Respond(stored)
				require.NoError(t, err, name)
				got, err := good.Read(ctx, cmd)
				require.NoError(t, err, name)
				require.True(t, got.Partition.Equal(want.Partition) && got.Digest == want.Digest && got.Tombstones == want.Tombstones, name)
				got, err = bad.Read(ctx, cmd)
				require.NoError(t, err, name)
				if !got.Partition.Equal(want.Partition) || got.Digest != want.Digest || got.Tombstones != want.Tombstones {
					wrong++
				}
			}
		}
		require.GreaterOrEqual(t, wrong, 2, "%s: the mutant answers reads of the whole partition at %d correctly", name, now)
	}
}
