package coordinator_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/internal/race"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// placing is a PlacementLocator that checks each of its Locator's answers
// into a fresh Placement.
type placing struct{ coordinator.Locator }

func (p placing) LocatePlacement(table, key string) (*coordinator.Placement, error) {
	reps, repl, err := p.Locate(table, key)
	if err != nil {
		return nil, err
	}
	return coordinator.NewPlacement(reps, repl)
}

// threeDCCluster is 3 + 4 + 3 nodes over two racks each, keys k0…k9
// seeded, and replicas that answer at once.
func threeDCCluster(t *testing.T) *replicatest.Cluster {
	t.Helper()
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 2, Nodes: 3}, {Name: "dc2", Racks: 2, Nodes: 4}, {Name: "dc3", Racks: 2, Nodes: 3}},
		Replication: consistency.NetworkTopology(map[string]int{"dc1": 2, "dc2": 3, "dc3": 2}),
		Seed:        7,
	})
	require.NoError(t, err)
	for i := range 10 {
		k := fmt.Sprintf("k%d", i)
		require.NoError(t, cl.Seed("t", replica.NewPartition(k, replica.NewRow("r", replica.Live("v", k, 1)))))
	}
	return cl
}

// TestPlacementReadsPlanAsLocatorReadsDo reads every key at every level,
// from each datacenter and one that holds no replica, with replicas down,
// through a Locator and through a PlacementLocator over it: the requests
// sent, and the errors, are the same. (The snitch keeps the static order,
// which two coordinators timing their replicas would not share; and the
// reads do not hedge, which on the real clock they would at random: the
// default 99p learns the replicas' microseconds, and a read that a loaded
// host held up longer hedged in one coordinator and not the other, 2 runs
// in 120 under -race.)
func TestPlacementReadsPlanAsLocatorReadsDo(t *testing.T) {
	cl := threeDCCluster(t)
	for _, down := range [][]string{nil, {"dc2-r1-n1", "dc2-r1-n3"}, {"dc1-r1-n1", "dc1-r2-n2", "dc1-r1-n3", "dc2-r2-n2"}} {
		for _, id := range down {
			require.NoError(t, cl.SetAlive(id, false))
		}
		for _, local := range []string{"dc1", "dc2", "dc9", ""} {
			cfg := coordinator.Config{Locator: cl, Liveness: cl, LocalDatacenter: local, Snitch: coordinator.SnitchConfig{Disabled: true},
				DefaultTable: policy(t, "NEVER")}
			located := newCoordinator(t, cfg)
			cfg.Locator = placing{cl}
			placed := newCoordinator(t, cfg)
			for _, level := range consistency.Levels() {
				for i := range 10 {
					req := coordinator.Request{Table: "t", Key: fmt.Sprintf("k%d", i), Level: level}
					want, wantErr := located.Read(context.Background(), req)
					got, err := placed.Read(context.Background(), req)
					name := fmt.Sprintf("down %v, from %q, %v, %s", down, local, level, req.Key)
					if wantErr != nil {
						require.EqualError(t, err, wantErr.Error(), name)
						continue
					}
					require.NoError(t, err, name)
					require.Equal(t, sentTo(want.Trace), sentTo(got.Trace), name)
					require.Equal(t, want.Partition, got.Partition, name)
				}
				keys := []string{"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9"}
				want, wantErr := located.ReadMany(context.Background(), coordinator.ManyRequest{Table: "t", Keys: keys, Level: level})
				got, err := placed.ReadMany(context.Background(), coordinator.ManyRequest{Table: "t", Keys: keys, Level: level})
				require.Equal(t, wantErr, err)
				require.Len(t, got, len(want))
				for i := range want {
					name := fmt.Sprintf("ReadMany: down %v, from %q, %v, %s", down, local, level, want[i].Key)
					if want[i].Err != nil {
						require.EqualError(t, got[i].Err, want[i].Err.Error(), name)
						continue
					}
					require.NoError(t, got[i].Err, name)
					require.Equal(t, sentTo(want[i].Result.Trace), sentTo(got[i].Result.Trace), name)
				}
			}
		}
		for _, id := range down {
			require.NoError(t, cl.SetAlive(id, true))
		}
	}
}

// sentTo lists whom a read sent what, in order.
func sentTo(tr coordinator.Trace) []string {
	var s []string
	for _, r := range tr.Requests {
		s = append(s, fmt.Sprintf("%s %v %v", r.Endpoint, r.Kind, r.Phase))
	}
	return s
}

func newCoordinator(t *testing.T, cfg coordinator.Config) *coordinator.Coordinator {
	t.Helper()
	c, err := coordinator.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// askedReplica counts the calls of its Endpoint.
type askedReplica struct {
	replica.Replica
	asked *atomic.Int64
}

func (r askedReplica) Endpoint() replica.Endpoint {
	r.asked.Add(1)
	return r.Replica.Endpoint()
}

// fixedPlacement hands out one placement for every key.
type fixedPlacement struct {
	coordinator.Locator
	p *coordinator.Placement
}

func (f fixedPlacement) LocatePlacement(string, string) (*coordinator.Placement, error) {
	return f.p, nil
}

// TestPlacementReadsAskOnlyTheLocalDatacenter: NewPlacement asks each
// replica for its endpoint once; reads at DC-local levels ask only the
// local datacenter's, where each read of a Locator's answer asks all, and
// reads at other levels all of them; none allocates more.
func TestPlacementReadsAskOnlyTheLocalDatacenter(t *testing.T) {
	cl := threeDCCluster(t)
	reps, repl, err := cl.Locate("t", "k1")
	require.NoError(t, err)
	var asked atomic.Int64
	counted := make([]replica.Replica, len(reps))
	for i, r := range reps {
		counted[i] = askedReplica{r, &asked}
	}
	p, err := coordinator.NewPlacement(counted, repl)
	require.NoError(t, err)
	require.EqualValues(t, len(reps), asked.Load())
	locate := coordinator.LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) { return counted, repl, nil })
	placed := newCoordinator(t, coordinator.Config{Locator: fixedPlacement{locate, p}, LocalDatacenter: "dc2"})
	located := newCoordinator(t, coordinator.Config{Locator: locate, LocalDatacenter: "dc2"})
	for _, level := range []consistency.Level{consistency.One, consistency.LocalOne, consistency.LocalQuorum, consistency.Quorum, consistency.EachQuorum, consistency.All} {
		req := coordinator.Request{Table: "t", Key: "k1", Level: level}
		asked.Store(0)
		_, err := placed.Read(context.Background(), req)
		require.NoError(t, err, level)
		if level.IsDatacenterLocal() {
			require.EqualValues(t, repl.Factor("dc2"), asked.Load(), level)
		} else {
			require.EqualValues(t, len(reps), asked.Load(), level)
		}
		asked.Store(0)
		_, err = located.Read(context.Background(), req)
		require.NoError(t, err, level)
		require.EqualValues(t, len(reps), asked.Load(), level)
		if !race.Enabled { // it drops pooled objects at random
			want := testing.AllocsPerRun(50, func() { _, _ = located.Read(context.Background(), req) })
			got := testing.AllocsPerRun(50, func() { _, _ = placed.Read(context.Background(), req) })
			require.LessOrEqual(t, got, want, level)
		}
	}
}

// TestNewPlacementRefusesWhatReadsRefuse: each answer a read of a Locator
// fails with ErrBadPlacement, NewPlacement refuses with the same reason.
func TestNewPlacementRefusesWhatReadsRefuse(t *testing.T) {
	cl := threeDCCluster(t)
	reps, repl, err := cl.Locate("t", "k1")
	require.NoError(t, err)
	var nilReplica *replicatest.Replica
	for _, tc := range []struct {
		name string
		reps []replica.Replica
		repl consistency.Replication
	}{
		{"none", nil, repl},
		{"nil", append([]replica.Replica{nil}, reps[1:]...), repl},
		{"nil pointer", append([]replica.Replica{nilReplica}, reps[1:]...), repl},
		{"twice", append([]replica.Replica{reps[1]}, reps[1:]...), repl},
		{"more than the total", append(reps[:len(reps):len(reps)], reps[0]), repl},
		{"invalid replication", reps, consistency.Replication{}},
		{"endpoint panics", append([]replica.Replica{panickingEndpoint{reps[0]}}, reps[1:]...), repl},
		{"empty ID", []replica.Replica{replicatest.NewReplica(replica.Endpoint{Datacenter: "dc1", Rack: "r1"})}, repl},
	} {
		p, err := coordinator.NewPlacement(tc.reps, tc.repl)
		require.ErrorIs(t, err, coordinator.ErrBadPlacement, tc.name)
		require.Nil(t, p, tc.name)
		locate := func(string, string) ([]replica.Replica, consistency.Replication, error) { return tc.reps, tc.repl, nil }
		c := newCoordinator(t, coordinator.Config{Locator: coordinator.LocatorFunc(locate)})
		_, readErr := c.Read(context.Background(), coordinator.Request{Table: "t", Key: "k1", Level: consistency.One})
		require.ErrorIs(t, readErr, coordinator.ErrBadPlacement, tc.name)
		require.ErrorContains(t, readErr, err.Error(), tc.name)
	}
}

type panickingEndpoint struct{ replica.Replica }

func (panickingEndpoint) Endpoint() replica.Endpoint { panic("no connection") }

// TestPlacementOverItsLocalFactor: more replicas in a datacenter than its
// factor fail the reads of a coordinator there, and elsewhere those at a
// level that is not DC-local, as a Locator's answer does.
func TestPlacementOverItsLocalFactor(t *testing.T) {
	cl := threeDCCluster(t)
	reps, _, err := cl.Locate("t", "k1")
	require.NoError(t, err)
	repl := consistency.NetworkTopology(map[string]int{"dc1": 1, "dc2": 3, "dc3": 3}) // dc1 holds 2
	p, err := coordinator.NewPlacement(reps, repl)
	require.NoError(t, err)
	locate := coordinator.LocatorFunc(func(string, string) ([]replica.Replica, consistency.Replication, error) { return reps, repl, nil })
	for _, local := range []string{"dc1", "dc2"} {
		for _, level := range []consistency.Level{consistency.One, consistency.LocalOne} {
			req := coordinator.Request{Table: "t", Key: "k1", Level: level}
			_, wantErr := newCoordinator(t, coordinator.Config{Locator: locate, LocalDatacenter: local}).Read(context.Background(), req)
			_, err := newCoordinator(t, coordinator.Config{Locator: fixedPlacement{locate, p}, LocalDatacenter: local}).Read(context.Background(), req)
			if local == "dc2" && level.IsDatacenterLocal() {
				require.NoError(t, wantErr)
				require.NoError(t, err)
				continue
			}
			require.ErrorIs(t, wantErr, coordinator.ErrBadPlacement)
			require.EqualError(t, err, wantErr.Error())
		}
	}
}

// errLocator's LocatePlacement fails as it is told.
type errLocator struct {
	coordinator.Locator
	p   *coordinator.Placement
	err error
}

func (e errLocator) LocatePlacement(string, string) (*coordinator.Placement, error) {
	return e.p, e.err
}

// TestLocatePlacementFailures: an error fails the read as a Locator's
// does, a nil error pointer as well, and no placement without an error
// with ErrBadPlacement.
func TestLocatePlacementFailures(t *testing.T) {
	cl := threeDCCluster(t)
	req := coordinator.Request{Table: "t", Key: "k1", Level: consistency.One}
	boom := fmt.Errorf("no route")
	_, err := newCoordinator(t, coordinator.Config{Locator: errLocator{cl, nil, boom}}).Read(context.Background(), req)
	require.ErrorIs(t, err, boom)
	require.EqualError(t, err, `coordinator: locating t/"k1": no route`)
	var typedNil *nilErr
	_, err = newCoordinator(t, coordinator.Config{Locator: errLocator{cl, nil, typedNil}}).Read(context.Background(), req)
	require.ErrorContains(t, err, "returned a nil *coordinator_test.nilErr as its error")
	_, err = newCoordinator(t, coordinator.Config{Locator: errLocator{cl, nil, nil}}).Read(context.Background(), req)
	require.ErrorIs(t, err, coordinator.ErrBadPlacement)
	require.ErrorContains(t, err, "LocatePlacement returned no placement")
}

// TestPlacementKeepsItsOwnCopy: changing the slice given to NewPlacement,
// or the one Replicas returns, changes no read.
func TestPlacementKeepsItsOwnCopy(t *testing.T) {
	cl := threeDCCluster(t)
	reps, repl, err := cl.Locate("t", "k1")
	require.NoError(t, err)
	given := append([]replica.Replica(nil), reps...)
	p, err := coordinator.NewPlacement(given, repl)
	require.NoError(t, err)
	clear(given)
	got := p.Replicas()
	require.Equal(t, reps, got)
	clear(got)
	require.Equal(t, reps, p.Replicas())
	require.Equal(t, repl, p.Replication())
	c := newCoordinator(t, coordinator.Config{Locator: fixedPlacement{cl, p}})
	res, err := c.Read(context.Background(), coordinator.Request{Table: "t", Key: "k1", Level: consistency.All})
	require.NoError(t, err)
	require.Len(t, res.Trace.Requests, len(reps))
}

// endpointOnce answers its first Endpoint call, for NewPlacement, and
// panics at the others.
type endpointOnce struct {
	replica.Replica
	calls *atomic.Int64
}

func (e endpointOnce) Endpoint() replica.Endpoint {
	if e.calls.Add(1) > 1 {
		panic("connection gone")
	}
	return e.Replica.Endpoint()
}

// A replica whose Endpoint panics when a DC-local read asks it fails the
// read with ErrBadPlacement naming its position in the placement, not in
// the local datacenter.
func TestPlacementReadNamesAPanickingReplicaByItsPosition(t *testing.T) {
	cl := threeDCCluster(t)
	reps, repl, err := cl.Locate("t", "k1")
	require.NoError(t, err)
	last := -1
	for i, r := range reps {
		if r.Endpoint().Datacenter == "dc2" {
			last = i
		}
	}
	wrapped := append([]replica.Replica(nil), reps...)
	wrapped[last] = endpointOnce{reps[last], new(atomic.Int64)}
	p, err := coordinator.NewPlacement(wrapped, repl)
	require.NoError(t, err)
	c := newCoordinator(t, coordinator.Config{Locator: fixedPlacement{cl, p}, LocalDatacenter: "dc2"})
	_, err = c.Read(context.Background(), coordinator.Request{Table: "t", Key: "k1", Level: consistency.LocalOne})
	require.ErrorIs(t, err, coordinator.ErrBadPlacement)
	require.ErrorContains(t, err, fmt.Sprintf("replica %d (a coordinator_test.endpointOnce): Endpoint panicked: connection gone", last))
	require.Greater(t, last, repl.Factor("dc2")-1, "the test proves nothing: the position is the local index")
}
