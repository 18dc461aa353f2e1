package ring_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
)

func nts(rf map[string]int) consistency.Replication { return consistency.NetworkTopology(rf) }

// dc1Locator returns a Locator over three nodes of dc1 with tables.
func dc1Locator(t *testing.T, tables map[string]consistency.Replication) (*ring.Locator, error) {
	t.Helper()
	return ring.NewLocator(ring.LocatorConfig{
		Nodes: randomNodes(1, 3, 4, 1, 1), Tables: tables, Connect: new(connector).connect,
	})
}

// wantDatacenterError checks that err is a *ConfigError wrapping a
// *DatacenterError for table and dc.
func wantDatacenterError(t *testing.T, err error, table, dc string) {
	t.Helper()
	var ce *ring.ConfigError
	var de *ring.DatacenterError
	if !errors.As(err, &ce) || !errors.As(err, &de) || !errors.Is(err, ring.ErrInvalidConfig) {
		t.Fatalf("err = %v, want a *ConfigError wrapping a *DatacenterError", err)
	}
	if de.Table != table || de.Datacenter != dc || !slices.Equal(de.Known, []string{"dc1"}) {
		t.Fatalf("%+v, want table %q, datacenter %q, known [dc1]", de, table, dc)
	}
}

// As Cassandra 4.0+ refuses CREATE or ALTER KEYSPACE with a
// NetworkTopologyStrategy naming a datacenter it does not know
// (CASSANDRA-12681), SetTable refuses a replication to a datacenter where
// the ring has no node, naming exactly (so "DC1" is not "dc1"), and
// changes nothing; before, every read of the table failed.
func TestSetTableRefusesADatacenterWithoutNodes(t *testing.T) {
	l, err := dc1Locator(t, map[string]consistency.Replication{"t": nts(map[string]int{"dc1": 3})})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		repl consistency.Replication
		dc   string
	}{
		{nts(map[string]int{"DC1": 3}), "DC1"},
		{nts(map[string]int{"dc1": 3, "dc2": 1}), "dc2"},
	} {
		wantDatacenterError(t, l.SetTable("t", tc.repl), "t", tc.dc)
		wantDatacenterError(t, l.SetTable("new", tc.repl), "new", tc.dc)
		if repl, _ := l.Replication("t"); repl.String() != "NetworkTopology(dc1:3)" {
			t.Errorf("a refused SetTable changed t to %v", repl)
		}
		if _, ok := l.Replication("new"); ok {
			t.Error("a refused SetTable added its table")
		}
	}
}

// A datacenter given no replicas need not exist (Cassandra drops a factor
// of 0 before it checks the names: it is how a datacenter is phased out),
// and SimpleStrategy names no datacenter.
func TestSetTableAcceptsAbsentDatacenterWithFactorZero(t *testing.T) {
	l, err := dc1Locator(t, map[string]consistency.Replication{"old": nts(map[string]int{"dc1": 1, "gone": 0})})
	if err != nil {
		t.Fatal(err)
	}
	for table, repl := range map[string]consistency.Replication{
		"t": nts(map[string]int{"dc1": 3, "gone": 0}), "s": consistency.Simple(3),
	} {
		if err := l.SetTable(table, repl); err != nil {
			t.Errorf("%s: %v", table, err)
		}
	}
}

// NewLocator checks its tables as SetTable does, in name order: of two
// tables at fault, the error names the first every time.
func TestNewLocatorRefusesADatacenterWithoutNodes(t *testing.T) {
	tables := map[string]consistency.Replication{
		"a": nts(map[string]int{"dc1": 3}), "b": nts(map[string]int{"DC1": 3}), "c": nts(map[string]int{"dc3": 1}),
	}
	for range 20 { // map order varies from run to run
		l, err := dc1Locator(t, tables)
		if l != nil {
			t.Fatal("NewLocator returned a Locator")
		}
		wantDatacenterError(t, err, "b", "DC1")
	}
}

// RemoveNode may remove the last node of a datacenter a table replicates
// to (the node may be dead: Cassandra's decommission guard protects the
// data a live node streams away, and a forced one skips it). The table
// then has no replicas there; setting that replication again is refused
// until the datacenter has a node, or its factor is 0.
func TestRemoveNodeMayEmptyADatacenter(t *testing.T) {
	nodes := randomNodes(1, 4, 4, 1, 1)
	nodes[3].Datacenter = "dc2"
	repl := nts(map[string]int{"dc1": 2, "dc2": 1})
	l, err := ring.NewLocator(ring.LocatorConfig{
		Nodes: nodes, Tables: map[string]consistency.Replication{"t": repl}, Connect: new(connector).connect,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.RemoveNode(nodes[3].ID); err != nil {
		t.Fatalf("RemoveNode of dc2's last node: %v", err)
	}
	if rs, _, err := l.Locate("t", "k"); err != nil || len(rs) != 2 {
		t.Errorf("Locate after dc2 emptied: %v, %v; want dc1's 2 replicas", endpointIDs(rs), err)
	}
	wantDatacenterError(t, l.SetTable("t", repl), "t", "dc2")
	if err := l.SetTable("t", nts(map[string]int{"dc1": 2, "dc2": 0})); err != nil {
		t.Errorf("phasing dc2 out: %v", err)
	}
}

// A DatacenterError lists the ring's datacenters sorted, as its doc says,
// whatever the order of the map they are kept in: an error message, and a
// test that compares it, is the same at every run.
func TestDatacenterErrorListsTheKnownDatacentersSorted(t *testing.T) {
	want := []string{"dc1", "dc2", "dc3", "dc4", "dc5"}
	for range 20 { // map order varies from run to run
		_, err := ring.NewLocator(ring.LocatorConfig{
			Nodes:   randomNodes(1, 10, 4, len(want), 1),
			Tables:  map[string]consistency.Replication{"t": nts(map[string]int{"dc1": 1, "dc9": 1})},
			Connect: new(connector).connect,
		})
		var de *ring.DatacenterError
		if !errors.As(err, &de) {
			t.Fatalf("err = %v, want a *DatacenterError", err)
		}
		if de.Datacenter != "dc9" || !slices.Equal(de.Known, want) {
			t.Fatalf("%+v, want datacenter dc9, known %v", de, want)
		}
	}
}
