package coordinator_test

import (
	"cmp"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// guarantee is one pairing of write and read levels whose replica sets
// overlap (R + W > RF), under some table options.
type guarantee struct {
	write, read consistency.Level
	w           int // replicas a write at write needs
	twoDCs      bool
	options     coordinator.TableOptions
}

func (g guarantee) String() string {
	return fmt.Sprintf("W=%v/R=%v/%v/%v/%v/grace=%d", g.write, g.read, g.options.Strategy,
		g.options.SpeculativeRetry, g.options.ReadRepair, g.options.GCGraceSeconds)
}

func guarantees(t *testing.T) []guarantee {
	var gs []guarantee
	for _, strategy := range []coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst} {
		for _, spec := range []string{"ALWAYS", "NEVER", "99p"} {
			o := policy(t, spec)
			o.Strategy = strategy
			gs = append(gs, guarantee{write: consistency.Quorum, read: consistency.Quorum, w: 2, options: o})
		}
	}
	for _, strategy := range []coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst} {
		o := coordinator.TableOptions{Strategy: strategy, GCGraceSeconds: 3}
		gs = append(gs, guarantee{write: consistency.Quorum, read: consistency.Quorum, w: 2, options: o})
	}
	return append(gs,
		guarantee{write: consistency.One, read: consistency.All, w: 1},
		guarantee{write: consistency.All, read: consistency.One, w: 3},
		guarantee{write: consistency.LocalQuorum, read: consistency.LocalQuorum, w: 2, twoDCs: true})
}

// Random histories of writes (cells, TTLs, tombstones of every kind) that
// reach only some replicas, faults of every kind, and reads whole, paged
// and by ReadMany, at overlapping levels: every read that succeeds shows
// every acknowledged write or newer, only data that was written, and
// under BLOCKING read repair everything an earlier quorum read returned,
// even of a write that no quorum acknowledged (CASSANDRA-10726); every
// read that fails does so with a typed error by its deadline; nothing
// leaks. Size it with -rapid.checks.
func TestHistoriesKeepConsistencyGuarantees(t *testing.T) {
	for _, g := range guarantees(t) {
		t.Run(g.String(), func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) { inBubble(t, func() { runHistory(rt, g) }) })
		})
	}
}

// inBubble runs f in a synctest bubble of its own and re-raises its panic
// outside: rapid fails a check by panicking, and a bubble must not.
func inBubble(t *testing.T, f func()) {
	var p any
	synctest.Test(t, func(*testing.T) {
		defer func() { p = recover() }()
		f()
	})
	if p == nil {
		return
	}
	// rapid tells a failure from the draws of a replay that ran out (a
	// candidate it must reject while shrinking) by the panic's traceback:
	// the two must not panic from the same line.
	if fmt.Sprintf("%T", p) == "rapid.invalidData" {
		panic(p)
	}
	panic(p)
}

func runHistory(t *rapid.T, g guarantee) {
	h := newHistory(t, g)
	defer func() {
		h.c.Close()
		time.Sleep(time.Second) // late answers of replicas that ignore their context
	}()
	for range rapid.IntRange(1, 60).Draw(t, "operations") {
		req := coordinator.Request{Table: tbl, Level: g.read, NowInSec: h.now}
		switch rapid.IntRange(0, 11).Draw(t, "operation") {
		case 0, 1, 2, 3:
			h.write()
		case 4, 5, 6:
			h.read(req)
		case 7:
			h.paged(req)
		case 8:
			h.many(req)
		case 9, 10:
			h.fault()
		default:
			h.now += int64(rapid.IntRange(1, 3).Draw(t, "seconds"))
		}
	}
}

const historyEpoch = 1_700_000_000

func newHistory(t *rapid.T, g guarantee) *history {
	dcs := []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}}
	repl, ids := consistency.Simple(3), []string{A, B, C}
	if g.twoDCs {
		dcs = append(dcs, replicatest.Datacenter{Name: "dc2", Racks: 3, Nodes: 3})
		repl, ids = consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3}), twoDCs
	}
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{Datacenters: dcs, Replication: repl, Seed: 1,
		Options: []replicatest.Option{replicatest.WithBehavior(behaviours[0])}})
	require.NoError(t, err)
	h := &history{t: t, cl: cl, keys: []string{"k0", "k1"}, ids: ids, local: 3, w: g.w, level: g.read,
		grace:     cmp.Or(g.options.GCGraceSeconds, 864000),
		monotonic: g.options.ReadRepair == repair.Blocking && g.read != consistency.One,
		now:       historyEpoch, acked: map[string]replica.Partition{}, seen: map[string]replica.Partition{},
		written: map[string]bool{}, deletes: map[string][]purgeable{}}
	for _, k := range h.keys {
		require.NoError(t, cl.Pin(tbl, k, ids...))
		h.acked[k], h.seen[k] = replica.NewPartition(k), replica.NewPartition(k)
	}
	h.c, err = coordinator.New(coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: "dc1",
		ReadTimeout: historyTimeout, Tables: map[string]coordinator.TableOptions{tbl: g.options}})
	require.NoError(t, err)
	return h
}

// CASSANDRA-10726: a write that reached only A, and so was never
// acknowledged, once a QUORUM read returned it, is returned by the next
// QUORUM read even without A: BLOCKING repair wrote it to a quorum first.
func TestBlockingRepairKeepsAnUnacknowledgedWriteOnceRead(t *testing.T) {
	for _, strategy := range []coordinator.Strategy{coordinator.DataAndDigests, coordinator.DigestFirst} {
		for _, spec := range []string{"ALWAYS", "NEVER", "99p"} {
			t.Run(fmt.Sprint(strategy, "/", spec), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					o := policy(t, spec)
					o.Strategy = strategy
					e := newEnv(t, coordinator.Config{Tables: map[string]coordinator.TableOptions{tbl: o}})
					require.NoError(t, e.replica(A).Apply(t.Context(), replica.Mutation{Table: tbl, Partition: row(key, "v2", 20)}))
					e.behave(t, C, replicatest.Behavior{Fault: replicatest.Down()}) // the first read asks A and B
					first, _, err := e.read(consistency.Quorum)
					require.NoError(t, err)
					require.Equal(t, "v2", string(first.Partition.Rows[0].Cells[0].Value))

					e.behave(t, C, constant(ms(1)))
					e.behave(t, A, replicatest.Behavior{Fault: replicatest.Down()})
					require.NoError(t, e.cluster.SetAlive(A, false))
					second, _, err := e.read(consistency.Quorum)
					require.NoError(t, err)
					require.Equal(t, "v2", string(second.Partition.Rows[0].Cells[0].Value), "B and C lost what the first read returned")
				})
			})
		}
	}
}
