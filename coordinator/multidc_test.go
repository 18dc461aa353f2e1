package coordinator_test

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// Two local replicas on the same rack, one remote: when the closest local
// replica is slow, the hedge goes to the other local replica, not across
// datacenters merely because the remote one is on "another rack".
func TestHedgeStaysLocalOverRackPreference(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const n1, n4, w1 = "east-r1-n1", "east-r1-n4", "west-r1-n1"
		e := eastWest(t, [2]replicatest.Datacenter{{Racks: 3, Nodes: 6}, {Racks: 3, Nodes: 6}},
			[2]int{2, 1}, []string{n1, n4, w1}, coordinator.Config{})
		require.NoError(t, e.replica(n1).SetFault(replicatest.Unreachable()))

		res, _, err := e.read(consistency.One)
		require.NoError(t, err)
		assert.Equal(t, n4, res.Trace.Hedge.To, "a local replica was left to hedge to")
		settle()
		assert.Equal(t, int64(0), e.stats(w1).Reads, "the remote replica is not needed")
	})
}

// A timeout at EACH_QUORUM must not report as many answers as BlockFor:
// dc1's third digest does not stand in for dc2's missing second one.
func TestEachQuorumTimeoutCountsPerDatacenter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{DefaultTable: digestFirstOptions(t), ReadTimeout: ms(50)})
		require.NoError(t, e.replica(d2n1).SetFault(replicatest.Unreachable()))
		require.NoError(t, e.replica(d2n2).SetFault(replicatest.Unreachable()))

		_, _, err := e.read(consistency.EachQuorum)
		var timeout *consistency.ReadTimeoutError
		require.ErrorAs(t, err, &timeout)
		assert.Equal(t, 4, timeout.BlockFor)
		assert.Equal(t, 3, timeout.Received, "two in dc1 and one in dc2 count towards EACH_QUORUM")
		assert.Less(t, timeout.Received, timeout.BlockFor, err.Error())
	})
}

// LOCAL_QUORUM: the stale local replica's repair stalls; the additional
// write goes to the third local replica only, and the repair completes on
// local acknowledgements.
func TestLocalQuorumAdditionalWritesStayLocal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := policy(t, "NEVER")
		p.AdditionalWritePolicy = policy(t, "5ms").SpeculativeRetry
		e := newTwoDCs(t, coordinator.Config{DefaultTable: p})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "val1", 20), d1n1))
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "val2", 20), d1n2, d1n3, d2n1, d2n2, d2n3))
		e.behave(t, d1n1, replicatest.Behavior{Latency: replicatest.Constant(ms(1)),
			Pauses: []replicatest.Window{{Start: ms(2), End: ms(60_000)}}})

		res, took, err := e.read(consistency.LocalQuorum)
		require.NoError(t, err)
		assert.True(t, res.Partition.Equal(row(key, "val2", 20)))
		assert.Equal(t, ms(8), took)
		assert.Equal(t, d1n3, res.Trace.AdditionalWrite.To)
		for _, rt := range res.Trace.Requests {
			assert.Equal(t, "dc1", e.replica(rt.Endpoint).Endpoint().Datacenter, rt.Endpoint)
		}
		settle()
		for _, id := range []string{d2n1, d2n2, d2n3} {
			assert.Zero(t, e.stats(id).Reads+e.stats(id).Mutations, id)
		}
	})
}

// The numbers of DC-local and EACH_QUORUM errors are the local or the
// short datacenter's, and the error names that datacenter.
func TestUnavailableNumbersAreLocal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{})
		require.NoError(t, e.cluster.SetAlive(d1n2, false))
		require.NoError(t, e.cluster.SetAlive(d1n3, false))
		_, _, err := e.read(consistency.LocalQuorum)
		var u *consistency.UnavailableError
		require.ErrorAs(t, err, &u)
		assert.Equal(t, consistency.UnavailableError{Level: consistency.LocalQuorum, Required: 2, Alive: 1, Datacenter: "dc1"}, *u)
		_, _, err = e.read(consistency.EachQuorum)
		require.ErrorAs(t, err, &u)
		assert.Equal(t, consistency.UnavailableError{Level: consistency.EachQuorum, Required: 2, Alive: 1, Datacenter: "dc1"}, *u)
		_, _, err = e.read(consistency.LocalOne)
		require.NoError(t, err)
		require.NoError(t, e.cluster.SetAlive(d1n1, false))
		_, _, err = e.read(consistency.LocalOne)
		require.ErrorAs(t, err, &u)
		assert.Equal(t, consistency.UnavailableError{Level: consistency.LocalOne, Required: 1, Alive: 0, Datacenter: "dc1"}, *u)
	})
}

// LOCAL_QUORUM: a local digest replica fails; the read hedges at once to
// the third local replica, never to dc2, and a second local failure fails
// the read with local numbers.
func TestLocalQuorumFailureNumbers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newTwoDCs(t, coordinator.Config{DefaultTable: policy(t, "4ms")})
		require.NoError(t, e.replica(d1n2).SetFault(replicatest.Down()))
		require.NoError(t, e.replica(d1n3).SetFault(replicatest.Down()))
		_, _, err := e.read(consistency.LocalQuorum)
		var f *consistency.ReadFailureError
		require.ErrorAs(t, err, &f)
		assert.Equal(t, 2, f.BlockFor)
		assert.Equal(t, 0, f.Received, "both failures land before d1n1 answers")
		assert.Equal(t, 2, f.Failures)
		settle()
		for _, id := range []string{d2n1, d2n2, d2n3} {
			assert.Zero(t, e.stats(id).Reads, id)
		}
	})
}

// A rack is a datacenter's: the local replica outstanding on rack r1 does
// not make the remote datacenter's r1 busy. At ONE with the only local
// replica unreachable, the hedge goes to the closest remote replica,
// west-r1-n1, not past it to west-r2-n2 for a rack name the two share.
func TestARackOfTheSameNameInAnotherDatacenterDoesNotPutTheHedgeOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const e1, w1, w2 = "east-r1-n1", "west-r1-n1", "west-r2-n2"
		e := eastWest(t, [2]replicatest.Datacenter{{Racks: 1, Nodes: 1}, {Racks: 2, Nodes: 2}},
			[2]int{1, 2}, []string{e1, w1, w2},
			coordinator.Config{Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, e.replica(e1).SetFault(replicatest.Unreachable()))

		res, _, err := e.read(consistency.One)
		require.NoError(t, err)
		assert.Equal(t, w1, res.Trace.Hedge.To, "east's r1 is not west's\n%s", res.Trace)
		settle()
	})
}

// eastWest is an env over datacenters east and west (their racks and
// nodes in dcs, their replication factors in rf), whose replicas answer in
// 1 ms, with key pinned to pins and seeded, read from east with a 4 ms
// threshold under cfg's other settings.
func eastWest(t *testing.T, dcs [2]replicatest.Datacenter, rf [2]int, pins []string,
	cfg coordinator.Config) *env {
	dcs[0].Name, dcs[1].Name = "east", "west"
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: dcs[:],
		Replication: consistency.NetworkTopology(map[string]int{"east": rf[0], "west": rf[1]}),
		Seed:        1,
		Options:     []replicatest.Option{replicatest.WithBehavior(constant(ms(1)))},
	})
	require.NoError(t, err)
	require.NoError(t, cl.Pin(tbl, key, pins...))
	require.NoError(t, cl.Seed(tbl, row(key, "v1", 10)))
	cfg.LocalDatacenter, cfg.DefaultTable = "east", policy(t, "4ms")
	return newEnvOn(t, cl, cfg)
}
