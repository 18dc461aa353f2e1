package coordinator_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

var nowhere = coordinator.LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) {
	return nil, consistency.Replication{}, nil
})

func TestNewRejectsBadConfig(t *testing.T) {
	bad := map[string]coordinator.Config{
		"no locator":             {},
		"negative timeout":       {Locator: nowhere, ReadTimeout: -1},
		"negative refresh":       {Locator: nowhere, ThresholdRefresh: -1},
		"negative window":        {Locator: nowhere, LatencyWindow: -1},
		"window under 3 ns":      {Locator: nowhere, LatencyWindow: 2},
		"negative in flight":     {Locator: nowhere, MaxInFlight: -1},
		"negative queue":         {Locator: nowhere, RepairQueue: -1},
		"budget above 1":         {Locator: nowhere, HedgeBudget: coordinator.HedgeBudget{Percent: 1.5}},
		"budget NaN":             {Locator: nowhere, HedgeBudget: coordinator.HedgeBudget{Percent: math.NaN()}},
		"negative budget window": {Locator: nowhere, HedgeBudget: coordinator.HedgeBudget{Window: -1}},
		"budget window past 1h":  {Locator: nowhere, HedgeBudget: coordinator.HedgeBudget{Window: 2 * time.Hour}},
		// The default floor of 1 a second over half a second: no hedge at all.
		"budget floor below one": {Locator: nowhere, HedgeBudget: coordinator.HedgeBudget{Window: 500 * time.Millisecond}},
		"badness NaN":            {Locator: nowhere, Snitch: coordinator.SnitchConfig{Badness: math.NaN()}},
		"badness +Inf":           {Locator: nowhere, Snitch: coordinator.SnitchConfig{Badness: math.Inf(1)}}, // ranked a replica that missed first
		"bad default strategy":   {Locator: nowhere, DefaultTable: coordinator.TableOptions{Strategy: 9}},
		"bad table repair":       {Locator: nowhere, Tables: map[string]coordinator.TableOptions{"t": {ReadRepair: repair.Mode(9)}}},
		"empty table name":       {Locator: nowhere, Tables: map[string]coordinator.TableOptions{"": {}}},
		// The first value past the defined strategies is as undefined as any other.
		"strategy past the last": {Locator: nowhere, Tables: map[string]coordinator.TableOptions{
			"t": {Strategy: coordinator.DigestFirst + 1}}},
	}
	for name, cfg := range bad {
		c, err := coordinator.New(cfg)
		assert.ErrorIs(t, err, coordinator.ErrInvalidConfig, name)
		assert.Nil(t, c, name)
	}
}

func TestDefaultsAreCassandras(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{Locator: nowhere})
	require.NoError(t, err)
	defer c.Close()
	o := c.TableOptions("any")
	assert.Equal(t, "99p", o.SpeculativeRetry.String())
	assert.Equal(t, repair.Blocking, o.ReadRepair)
	assert.Equal(t, coordinator.DataAndDigests, o.Strategy)
}

func TestBadRequests(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{Locator: nowhere})
	require.NoError(t, err)
	defer c.Close()
	ctx := context.Background()
	for name, req := range map[string]coordinator.Request{
		"no table":     {Key: "k", Level: consistency.One},
		"no key":       {Table: "t", Level: consistency.One},
		"read at ANY":  {Table: "t", Key: "k", Level: consistency.Any},
		"bogus level":  {Table: "t", Key: "k", Level: 42},
		"SERIAL":       {Table: "t", Key: "k", Level: consistency.Serial},
		"LOCAL_SERIAL": {Table: "t", Key: "k", Level: consistency.LocalSerial},
	} {
		_, err := c.Read(ctx, req)
		assert.ErrorIs(t, err, coordinator.ErrInvalidRequest, name)
	}
	_, err = c.Read(ctx, coordinator.Request{Table: "t", Key: "k"})
	assert.ErrorContains(t, err, "left unset", "the zero Level is ANY")
	_, err = c.Read(ctx, coordinator.Request{Table: "t", Key: "k", Level: consistency.Serial})
	assert.ErrorContains(t, err, "Paxos", "a serial read is refused, not run as QUORUM")
	//lint:ignore SA1012 a nil context is bad input the read must reject
	_, err = c.Read(nil, coordinator.Request{Table: "t", Key: "k", Level: consistency.One}) //nolint:staticcheck
	assert.ErrorIs(t, err, coordinator.ErrInvalidRequest)
	assert.Error(t, c.SetTableOptions("", coordinator.TableOptions{}))
	assert.Error(t, c.SetTableOptions("t", coordinator.TableOptions{Strategy: 7}))
}

func TestBadPlacementIsRejectedBeforeSending(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{})
		a, b := e.replica(A), e.replica(B)
		placements := map[string][]replica.Replica{
			"none":      nil,
			"nil":       {a, nil},
			"nil ptr":   {a, (*replicatest.Replica)(nil)}, // crashed the read in Endpoint
			"duplicate": {a, b, a},
			// A locator that adds pending replicas, as a write's does:
			// four replicas for RF 3 would read three of four at ALL.
			"over RF": {a, b, e.replica(C), replicatest.NewReplica(replica.Endpoint{ID: "pending", Datacenter: "dc1", Rack: "r1"})},
		}
		for name, reps := range placements {
			loc := coordinator.LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) {
				return reps, consistency.Simple(3), nil
			})
			c, err := coordinator.New(coordinator.Config{Locator: loc})
			require.NoError(t, err)
			_, err = c.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.One})
			assert.ErrorIs(t, err, coordinator.ErrBadPlacement, name)
			assert.ErrorContains(t, err, fmt.Sprintf("locating %s/%q", tbl, key), "%s: the error names the partition", name)
			c.Close()
		}
		assert.Zero(t, e.totalReads())
	})
}

func TestReadAfterClose(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{Locator: nowhere})
	require.NoError(t, err)
	require.NoError(t, c.Close())
	require.NoError(t, c.Close(), "Close is idempotent")
	_, err = c.Read(context.Background(), coordinator.Request{Table: "t", Key: "k", Level: consistency.One})
	assert.ErrorIs(t, err, coordinator.ErrClosed)
}

// SetTableOptions takes effect for the next read, per table.
func TestSetTableOptionsPerTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, coordinator.Config{DefaultTable: policy(t, "NEVER"), Snitch: coordinator.SnitchConfig{Disabled: true}})
		e.behave(t, A, constant(ms(30)))
		_, took, _ := e.read(consistency.Quorum)
		assert.Equal(t, ms(30), took)

		require.NoError(t, e.c.SetTableOptions(tbl, policy(t, "5ms")))
		assert.Equal(t, "5ms", e.c.TableOptions(tbl).SpeculativeRetry.String())
		assert.Equal(t, "NEVER", e.c.TableOptions("other").SpeculativeRetry.String())
		_, took, _ = e.read(consistency.Quorum)
		assert.Equal(t, ms(6), took)
	})
}

func TestStrategyNames(t *testing.T) {
	for _, s := range []coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst} {
		back, err := coordinator.ParseStrategy(s.String())
		require.NoError(t, err)
		assert.Equal(t, s, back)
	}
	_, err := coordinator.ParseStrategy("FASTEST")
	assert.ErrorIs(t, err, coordinator.ErrUnknownStrategy)
	assert.Equal(t, "Strategy(9)", coordinator.Strategy(9).String())
}

// A DC-local level says what is wrong when no replica is local: the
// setting is missing, or names a datacenter without the partition.
func TestDatacenterLocalLevelsNameTheMissingSetting(t *testing.T) {
	cl := instantCluster(t)
	for _, c := range []struct {
		localDC, want string
		unavailable   bool
	}{
		{"", "Config.LocalDatacenter is not set", false},
		{"dc3", `Config.LocalDatacenter "dc3" holds no replica of the partition; its replicas are in dc1`, true},
	} {
		co, err := coordinator.New(coordinator.Config{Locator: cl, LocalDatacenter: c.localDC})
		require.NoError(t, err)
		_, err = co.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.LocalQuorum})
		assert.ErrorContains(t, err, c.want)
		var u *consistency.UnavailableError
		assert.Equal(t, c.unavailable, errors.As(err, &u), "still an UnavailableError, with its numbers")
		assert.Equal(t, !c.unavailable, errors.Is(err, coordinator.ErrInvalidRequest))
		co.Close()
	}
}

// Replicas without a datacenter, read at a DC-local level by a coordinator
// in one, are named as such: the message ended "its replicas are in "
// (found by review).
func TestDatacenterLocalLevelsNameReplicasWithoutADatacenter(t *testing.T) {
	reps := []replica.Replica{
		replicatest.NewReplica(replica.Endpoint{ID: "a"}),
		replicatest.NewReplica(replica.Endpoint{ID: "b", Datacenter: "dc2"}),
	}
	co, err := coordinator.New(coordinator.Config{LocalDatacenter: "dc1", Locator: coordinator.LocatorFunc(
		func(string, string) ([]replica.Replica, consistency.Replication, error) {
			return reps, consistency.Simple(2), nil
		})})
	require.NoError(t, err)
	defer co.Close()
	_, err = co.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.LocalOne})
	assert.ErrorContains(t, err, `Config.LocalDatacenter "dc1" holds no replica of the partition; `+
		`its replicas are in dc2, none (an empty Endpoint.Datacenter)`)
}

// A DC-local level without LocalDatacenter is an invalid request found
// only once the read has located its replicas: unlike a request refused
// before it starts, it counts (in OtherErrors) and has its planning's
// Trace, as Metrics', ErrInvalidRequest's and Result's docs say.
func TestDatacenterLocalLevelWithoutTheSettingCounts(t *testing.T) {
	co, err := coordinator.New(coordinator.Config{Locator: instantCluster(t)})
	require.NoError(t, err)
	defer co.Close()
	res, err := co.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: consistency.LocalQuorum})
	require.ErrorIs(t, err, coordinator.ErrInvalidRequest)
	m := co.Metrics()
	assert.Equal(t, int64(1), m.Total.Reads)
	assert.Equal(t, int64(1), m.Total.OtherErrors)
	assert.Equal(t, 2, res.Trace.BlockFor)
	assert.False(t, res.Trace.Start.IsZero())

	_, err = co.Read(context.Background(), coordinator.Request{Table: tbl, Level: consistency.LocalQuorum})
	require.ErrorIs(t, err, coordinator.ErrInvalidRequest, "no key")
	assert.Equal(t, int64(1), co.Metrics().Total.Reads, "a request refused before it starts counts nowhere")
}

// A DC-local level's UnavailableError names the local datacenter: a
// misspelt LocalDatacenter ("DC1" for "dc1") shows in the error a caller
// gets with errors.As, not only in the message around it.
func TestDatacenterLocalUnavailabilityNamesTheLocalDatacenter(t *testing.T) {
	cl := instantCluster(t)
	for _, c := range []struct {
		localDC string
		level   consistency.Level
		want    string
	}{
		{"DC1", consistency.LocalOne, `Cannot achieve consistency level LOCAL_ONE in DC DC1 (1 required but only 0 alive): ` +
			`Config.LocalDatacenter "DC1" holds no replica of the partition; its replicas are in dc1`},
		{"DC1", consistency.LocalQuorum, `Cannot achieve consistency level LOCAL_QUORUM in DC DC1 (2 required but only 0 alive): ` +
			`Config.LocalDatacenter "DC1" holds no replica of the partition; its replicas are in dc1`},
		// Two of the three replicas down: the right datacenter, named.
		{"dc1", consistency.LocalQuorum, `Cannot achieve consistency level LOCAL_QUORUM in DC dc1 (2 required but only 1 alive)`},
	} {
		reps, _, err := cl.Locate(tbl, key)
		require.NoError(t, err)
		down := c.localDC == "dc1"
		for _, r := range reps[:2] {
			require.NoError(t, cl.SetAlive(r.Endpoint().ID, !down))
		}
		co, err := coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: c.localDC})
		require.NoError(t, err)
		_, err = co.Read(context.Background(), coordinator.Request{Table: tbl, Key: key, Level: c.level})
		assert.EqualError(t, err, c.want)
		var u *consistency.UnavailableError
		require.ErrorAs(t, err, &u)
		assert.Equal(t, c.localDC, u.Datacenter)
		co.Close()
	}
}

// TableOptions round-trip through JSON with Cassandra's option names.
func TestTableOptionsRoundTripThroughJSON(t *testing.T) {
	o := policy(t, "MIN(99p,50ms)")
	o.ReadRepair, o.Strategy = repair.Async, coordinator.DigestFirst
	o.AdditionalWritePolicy = policy(t, "NEVER").SpeculativeRetry
	o.GCGraceSeconds, o.TombstoneWarnThreshold, o.TombstoneFailureThreshold = 3600, 500, 50000
	o.NoClusteringColumns = true
	b, err := json.Marshal(o)
	require.NoError(t, err)
	assert.JSONEq(t, `{"speculative_retry":"MIN(99p,50ms)","read_repair":"ASYNC","strategy":"DIGEST_FIRST",
		"additional_write_policy":"NEVER","gc_grace_seconds":3600,"tombstone_warn_threshold":500,
		"tombstone_failure_threshold":50000,"no_clustering_columns":true}`, string(b))
	var back coordinator.TableOptions
	require.NoError(t, json.Unmarshal(b, &back))
	assert.True(t, back.SpeculativeRetry.Equal(o.SpeculativeRetry))
	assert.True(t, back.AdditionalWritePolicy.Equal(o.AdditionalWritePolicy))
	assert.Equal(t, o.ReadRepair, back.ReadRepair)
	assert.Equal(t, o.Strategy, back.Strategy)
	back.SpeculativeRetry, back.AdditionalWritePolicy = o.SpeculativeRetry, o.AdditionalWritePolicy
	assert.Equal(t, o, back, "every field round-trips")

	var defaults coordinator.TableOptions
	require.NoError(t, json.Unmarshal([]byte(`{"strategy":"digest_first"}`), &defaults))
	assert.Equal(t, coordinator.DigestFirst, defaults.Strategy)
	assert.Equal(t, "99p", defaults.SpeculativeRetry.String())
	assert.Error(t, json.Unmarshal([]byte(`{"strategy":"FASTEST"}`), &defaults))
}

// HedgeBudget.Percent is "at most 1": a budget that lets every read take
// a speculative action is valid, only one above 1 is refused.
func TestAHedgeBudgetOfEveryReadIsValid(t *testing.T) {
	c, err := coordinator.New(coordinator.Config{Locator: nowhere, HedgeBudget: coordinator.HedgeBudget{Percent: 1}})
	require.NoError(t, err)
	c.Close()
}
