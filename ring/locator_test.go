package ring_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// connect is a LocatorConfig.Connect that makes in-memory replicas and
// counts its calls.
type connector struct{ calls atomic.Int32 }

func (c *connector) connect(n ring.Node) (replica.Replica, error) {
	c.calls.Add(1)
	return replicatest.NewReplica(n.Endpoint()), nil
}

// randomNodes returns n nodes with vnodes random tokens each, spread over
// dcs datacenters of racks racks.
func randomNodes(seed uint64, n, vnodes, dcs, racks int) []ring.Node {
	rng := rand.New(rand.NewPCG(seed, 1))
	nodes := make([]ring.Node, n)
	for i := range nodes {
		nodes[i] = ring.Node{
			ID:         fmt.Sprintf("n%02d", i),
			Datacenter: fmt.Sprintf("dc%d", i%dcs+1),
			Rack:       fmt.Sprintf("r%d", i/dcs%racks+1),
		}
		for range vnodes {
			nodes[i].Tokens = append(nodes[i].Tokens, int64(rng.Uint64()))
		}
	}
	return nodes
}

var tables = map[string]consistency.Replication{
	"users":  consistency.NetworkTopology(map[string]int{"dc1": 3, "dc2": 2}),
	"events": consistency.Simple(3),
}

func newLocator(t testing.TB, nodes []ring.Node) (*ring.Locator, *connector) {
	t.Helper()
	c := new(connector)
	l, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes, Tables: tables, Connect: c.connect})
	if err != nil {
		t.Fatal(err)
	}
	return l, c
}

func endpointIDs(rs []replica.Replica) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Endpoint().ID
	}
	return out
}

func TestLocateAgreesWithReplicasFor(t *testing.T) {
	l, _ := newLocator(t, randomNodes(1, 12, 16, 2, 3))
	r := l.Ring()
	for i := range 2000 {
		key := fmt.Sprintf("key-%d", i)
		for table, repl := range tables {
			got, gotRepl, err := l.Locate(table, key)
			want, _ := r.ReplicasFor(ring.Murmur3Token([]byte(key)), repl)
			if err != nil || gotRepl.String() != repl.String() || !slices.Equal(endpointIDs(got), ids(want)) {
				t.Fatalf("Locate(%s, %s) = %v, %v, %v; want %v", table, key, endpointIDs(got), gotRepl, err, ids(want))
			}
		}
	}
}

func TestLocateUnknownTable(t *testing.T) {
	l, _ := newLocator(t, randomNodes(1, 3, 4, 2, 1))
	_, _, err := l.Locate("nope", "k")
	var te *ring.TableError
	if !errors.As(err, &te) || te.Table != "nope" || !errors.Is(err, ring.ErrUnknownTable) {
		t.Errorf("err = %v, want a *TableError for nope", err)
	}
}

func TestNewLocatorRejectsBadConfig(t *testing.T) {
	nodes := randomNodes(1, 3, 4, 1, 1)
	failing := errors.New("refused")
	wrong := func(n ring.Node) (replica.Replica, error) {
		return replicatest.NewReplica(replica.Endpoint{ID: "other"}), nil
	}
	for name, tc := range map[string]struct {
		cfg  ring.LocatorConfig
		want error
	}{
		"no Connect":        {ring.LocatorConfig{Nodes: nodes}, ring.ErrInvalidConfig},
		"empty table":       {ring.LocatorConfig{Nodes: nodes, Tables: map[string]consistency.Replication{"": consistency.Simple(1)}, Connect: new(connector).connect}, ring.ErrInvalidConfig},
		"bad replication":   {ring.LocatorConfig{Nodes: nodes, Tables: map[string]consistency.Replication{"t": consistency.Simple(0)}, Connect: new(connector).connect}, consistency.ErrInvalidReplication},
		"no nodes":          {ring.LocatorConfig{Connect: new(connector).connect}, ring.ErrInvalidTopology},
		"Connect fails":     {ring.LocatorConfig{Nodes: nodes, Connect: func(ring.Node) (replica.Replica, error) { return nil, failing }}, failing},
		"wrong endpoint":    {ring.LocatorConfig{Nodes: nodes, Connect: wrong}, ring.ErrInvalidTopology},
		"nil replica":       {ring.LocatorConfig{Nodes: nodes, Connect: func(ring.Node) (replica.Replica, error) { return nil, nil }}, ring.ErrInvalidTopology},
		"typed nil replica": {ring.LocatorConfig{Nodes: nodes[:1], Connect: func(ring.Node) (replica.Replica, error) { return (*n00Conn)(nil), nil }}, ring.ErrInvalidTopology},
	} {
		l, err := ring.NewLocator(tc.cfg)
		if l != nil || !errors.Is(err, tc.want) {
			t.Errorf("%s: NewLocator = %v, %v; want %v", name, l, err, tc.want)
		}
	}
}

// n00Conn is a connection type whose Endpoint reads no field: a nil
// *n00Conn still names node n00 of randomNodes(1, ...), so only its being
// a nil pointer tells NewLocator that it is no connection (its reads
// would crash the coordinator).
type n00Conn struct{ replica.Replica }

func (*n00Conn) Endpoint() replica.Endpoint {
	return replica.Endpoint{ID: "n00", Datacenter: "dc1", Rack: "r1"}
}

func TestLocatorTopologyChanges(t *testing.T) {
	nodes := randomNodes(2, 6, 8, 2, 2)
	l, c := newLocator(t, nodes)
	extra := randomNodes(3, 7, 8, 2, 2)[6]
	steps := []struct {
		name  string
		apply func() error
		want  []ring.Node
		calls int32 // Connect calls after the step
	}{
		{"add", func() error { return l.AddNode(extra) }, append(slices.Clone(nodes), extra), 7},
		{"remove", func() error { return l.RemoveNode("n01") }, slices.Concat(nodes[:1], nodes[2:], []ring.Node{extra}), 7},
		{"replace", func() error {
			return l.ReplaceNode("n02", ring.Node{ID: "n02b", Datacenter: nodes[2].Datacenter, Rack: nodes[2].Rack})
		}, slices.Concat(nodes[:1], []ring.Node{{ID: "n02b", Datacenter: nodes[2].Datacenter, Rack: nodes[2].Rack, Tokens: nodes[2].Tokens}}, nodes[3:], []ring.Node{extra}), 8},
	}
	for _, st := range steps {
		if err := st.apply(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		want := mustRing(t, st.want)
		for i := range 500 {
			key := fmt.Sprint(i)
			got, _, _ := l.Locate("users", key)
			w, _ := want.ReplicasFor(ring.Murmur3Token([]byte(key)), tables["users"])
			if !slices.Equal(endpointIDs(got), ids(w)) {
				t.Fatalf("%s: key %s on %v, want %v", st.name, key, endpointIDs(got), ids(w))
			}
		}
		if n := c.calls.Load(); n != st.calls {
			t.Errorf("%s: Connect called %d times, want %d (only new nodes connect)", st.name, n, st.calls)
		}
	}
}

func TestLocatorFailedChangeChangesNothing(t *testing.T) {
	l, _ := newLocator(t, randomNodes(2, 4, 4, 2, 1))
	before := l.Ring()
	for name, err := range map[string]error{
		"duplicate":      l.AddNode(before.Nodes()[0]),
		"unknown remove": l.RemoveNode("ghost"),
		"unknown old":    l.ReplaceNode("ghost", ring.Node{ID: "x"}),
		"bad table":      l.SetTable("t", consistency.Simple(-1)),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if l.Ring() != before {
		t.Error("a failed change replaced the ring")
	}
}

// NewLocator copies LocatorConfig.Tables: the caller's later edits of its
// map change none of the Locator's tables, also at the next topology change,
// which places them again.
func TestNewLocatorCopiesTheTables(t *testing.T) {
	mine := map[string]consistency.Replication{"logs": consistency.Simple(1)}
	l, err := ring.NewLocator(ring.LocatorConfig{
		Nodes: randomNodes(2, 4, 4, 2, 1), Tables: mine, Connect: new(connector).connect,
	})
	if err != nil {
		t.Fatal(err)
	}
	delete(mine, "logs")
	mine["audit"] = consistency.Simple(2)
	if err := l.RemoveNode("n03"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := l.Locate("logs", "k"); err != nil {
		t.Errorf("logs, deleted from the caller's map: %v", err)
	}
	if _, ok := l.Replication("audit"); ok {
		t.Error("audit, added to the caller's map, is a table")
	}
}

func TestLocatorTables(t *testing.T) {
	l, _ := newLocator(t, randomNodes(2, 4, 4, 2, 1))
	if err := l.SetTable("logs", consistency.Simple(1)); err != nil {
		t.Fatal(err)
	}
	if rs, repl, err := l.Locate("logs", "k"); err != nil || len(rs) != 1 || repl.Total() != 1 {
		t.Errorf("logs: %v %v %v", rs, repl, err)
	}
	l.RemoveTable("logs")
	if _, _, err := l.Locate("logs", "k"); !errors.Is(err, ring.ErrUnknownTable) {
		t.Errorf("removed table: %v", err)
	}
	if _, ok := l.Replication("users"); !ok {
		t.Error("users lost")
	}
	if rep, ok := l.Replica("n00"); !ok || rep.Endpoint().ID != "n00" {
		t.Errorf("Replica(n00) = %v, %v", rep, ok)
	}
}

// Two replications whose names print alike (a datacenter name may hold the
// ", " and ":" Replication.String separates them with) are placed apart.
func TestLocatorTellsApartReplicationsThatPrintAlike(t *testing.T) {
	nodes := randomNodes(6, 9, 8, 1, 1)
	for i := range nodes {
		nodes[i].Datacenter = []string{"a", "b", "a:1, b"}[i%3]
	}
	odd := consistency.NetworkTopology(map[string]int{"a:1, b": 2})
	plain := consistency.NetworkTopology(map[string]int{"a": 1, "b": 2})
	if odd.String() != plain.String() {
		t.Fatalf("the test needs two replications that print alike: %v, %v", odd, plain)
	}
	l, err := ring.NewLocator(ring.LocatorConfig{
		Nodes: nodes, Tables: map[string]consistency.Replication{"odd": odd, "plain": plain}, Connect: new(connector).connect,
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		key := fmt.Sprintf("key-%d", i)
		for table, repl := range map[string]consistency.Replication{"odd": odd, "plain": plain} {
			got, _, _ := l.Locate(table, key)
			want, _ := l.Ring().ReplicasFor(ring.Murmur3Token([]byte(key)), repl)
			if !slices.Equal(endpointIDs(got), ids(want)) {
				t.Fatalf("%s, %s: %v, want %v", table, key, endpointIDs(got), ids(want))
			}
		}
	}
}

// Reads run while the topology changes: each sees a whole version, with
// RF distinct replicas, never a half-built one. Run with -race.
func TestLocatorConcurrentReadsAndChanges(t *testing.T) {
	nodes := randomNodes(4, 8, 16, 2, 3)
	l, _ := newLocator(t, nodes[:6])
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				rs, _, err := l.Locate("events", fmt.Sprint(g, i))
				if err != nil || len(rs) != 3 || !distinct(endpointIDs(rs)) {
					t.Errorf("Locate: %v, %v", endpointIDs(rs), err)
					return
				}
			}
		})
	}
	for i := range 20 {
		n := nodes[6+i%2]
		if err := l.AddNode(n); err != nil {
			t.Fatal(err)
		}
		if err := l.RemoveNode(n.ID); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
}

func distinct(ids []string) bool {
	s := slices.Clone(ids)
	slices.Sort(s)
	return len(slices.Compact(s)) == len(ids)
}

func TestLocateAllocatesNothing(t *testing.T) {
	l, _ := newLocator(t, randomNodes(5, 12, 256, 2, 3))
	keys := make([]string, 64)
	for i := range keys {
		keys[i] = fmt.Sprintf("user:%016d", i)
	}
	i := 0
	if n := testing.AllocsPerRun(1000, func() {
		_, _, _ = l.Locate("users", keys[i%len(keys)])
		i++
	}); n != 0 {
		t.Errorf("Locate allocates %v times per call, want 0", n)
	}
	key := []byte("0123456789abcdef")
	if n := testing.AllocsPerRun(1000, func() { _ = ring.Murmur3Token(key) }); n != 0 {
		t.Errorf("Murmur3Token allocates %v times per call, want 0", n)
	}
}

// Tables share placements only when their replication is the same: a
// factor of 1 in datacenter "x1" is not a factor of 11 in "x", though the
// two spell alike without quoting the datacenter's name.
func TestTablesOfReplicationsThatSpellAlikeKeepTheirOwnPlacements(t *testing.T) {
	nodes := []ring.Node{
		{ID: "a", Datacenter: "x1", Rack: "r1", Tokens: []int64{1}},
		{ID: "b", Datacenter: "x", Rack: "r1", Tokens: []int64{2}},
	}
	l, err := ring.NewLocator(ring.LocatorConfig{Nodes: nodes, Connect: new(connector).connect,
		Tables: map[string]consistency.Replication{
			"one":    consistency.NetworkTopology(map[string]int{"x1": 1}),
			"eleven": consistency.NetworkTopology(map[string]int{"x": 11}),
		}})
	if err != nil {
		t.Fatal(err)
	}
	for table, want := range map[string]string{"one": "a", "eleven": "b"} {
		got, _, err := l.Locate(table, "k")
		if err != nil {
			t.Fatal(err)
		}
		if ids := endpointIDs(got); !slices.Equal(ids, []string{want}) {
			t.Errorf("%s: replicas %v, want [%s]", table, ids, want)
		}
	}
}

// Locate's list must not be modified, but a caller may append to it (to
// add a replica to its own copy, say): each list is capped at its length,
// so the append copies it, and the next token range's list, which follows
// it in the same array, keeps its replicas.
func TestAppendingToALocatedListLeavesTheOtherRangesAlone(t *testing.T) {
	l, _ := newLocator(t, randomNodes(1, 12, 16, 2, 3))
	r := l.Ring()
	extra := replicatest.NewReplica(replica.Endpoint{ID: "extra", Datacenter: "dc1"})
	for i := range 500 {
		got, _, _ := l.Locate("events", fmt.Sprintf("key-%d", i))
		_ = append(got, extra)
	}
	for i := range 500 {
		key := fmt.Sprintf("key-%d", i)
		got, _, _ := l.Locate("events", key)
		want, _ := r.ReplicasFor(ring.Murmur3Token([]byte(key)), tables["events"])
		if !slices.Equal(endpointIDs(got), ids(want)) {
			t.Fatalf("Locate(events, %s) = %v after appends to the lists, want %v", key, endpointIDs(got), ids(want))
		}
	}
}
