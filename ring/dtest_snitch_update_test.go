package ring_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
)

// TestSnitchConfigurationUpdate._test_rf_on_snitch_update of
// apache/cassandra-dtest replication_test.py (CASSANDRA-10238): racks
// collapsed into one, or one rack split into three, by restarting some
// nodes with a new rack, must keep every key on sum(rf) replicas
// (check_endpoint_count, nodetool getendpoints of the text key "dummy").
// Here a restart under a new rack is Locator.ReplaceNode under the same ID
// and tokens; after each one, beyond the dtest, every key's replicas are
// checked against a Ring built afresh, since a change of a datacenter's
// rack count must place every range again.
func TestDtestRFOnSnitchUpdate(t *testing.T) {
	rack := func(i int) string { return fmt.Sprint("rack", i) }
	for _, tc := range []struct {
		name          string
		nodes         []int
		rf            map[string]int
		before, after func(i int) string
		shutdown      []int
		final         []string
	}{
		{"rf_collapse_gossiping_property_file_snitch", []int{3}, map[string]int{"dc1": 3},
			rack, func(int) string { return "rack1" }, []int{0, 2}, []string{"rack1", "rack1", "rack1"}},
		{"rf_expand_gossiping_property_file_snitch", []int{3}, map[string]int{"dc1": 3},
			func(int) string { return "rack1" }, rack, []int{0, 2}, []string{"rack0", "rack1", "rack2"}},
		{"rf_collapse_gossiping_property_file_snitch_multi_dc", []int{3, 3}, map[string]int{"dc1": 3, "dc2": 3},
			func(i int) string { return rack(i % 3) }, func(int) string { return "rack1" }, []int{0, 2, 3, 5},
			[]string{"rack1", "rack1", "rack1", "rack1", "rack1", "rack1"}},
		{"rf_expand_gossiping_property_file_snitch_multi_dc", []int{3, 3}, map[string]int{"dc1": 3, "dc2": 3},
			func(int) string { return "rack1" }, func(i int) string { return rack(i % 3) }, []int{0, 2, 3, 5},
			[]string{"rack0", "rack1", "rack2", "rack0", "rack1", "rack2"}},
		{"rf_collapse_property_file_snitch", []int{3}, map[string]int{"dc1": 3},
			rack, func(int) string { return "rack0" }, []int{1, 2}, []string{"rack0", "rack0", "rack0"}},
		{"rf_expand_property_file_snitch", []int{3}, map[string]int{"dc1": 3},
			func(int) string { return "rack0" }, rack, []int{1, 2}, []string{"rack0", "rack1", "rack2"}},
	} {
		for _, vnodes := range []int{1, 16} {
			t.Run(fmt.Sprintf("%s/vnodes=%d", tc.name, vnodes), func(t *testing.T) {
				nodes := snitchUpdateNodes(tc.nodes, vnodes)
				for i := range nodes {
					nodes[i].Rack = tc.before(i)
				}
				repl := consistency.NetworkTopology(tc.rf)
				loc := dtestLocator(t, nodes, repl)
				checkEndpointCount(t, loc, repl)
				for _, i := range tc.shutdown {
					n := nodes[i]
					n.Rack = tc.after(i)
					if err := loc.ReplaceNode(n.ID, n); err != nil {
						t.Fatal(err)
					}
					checkEndpointCount(t, loc, repl)
				}
				var racks []string
				for _, n := range loc.Ring().Nodes() {
					racks = append(racks, n.Rack)
				}
				if !slices.Equal(racks, tc.final) {
					t.Errorf("racks %v, want %v", racks, tc.final)
				}
			})
		}
	}
}

// snitchUpdateNodes is ccm's cluster of counts nodes a datacenter, with
// vnodes tokens a node: ccm's balanced tokens for one, seeded random ones
// (as num_tokens gives) for more.
func snitchUpdateNodes(counts []int, vnodes int) []ring.Node {
	nodes := ccmNodes(counts...)
	if vnodes == 1 {
		return nodes
	}
	rng := rand.New(rand.NewPCG(10238, 1))
	var r *ring.Ring
	for i := range nodes {
		nodes[i].Tokens = ring.RandomTokens(rng, vnodes, r)
		r, _ = ring.New(nodes[:i+1])
	}
	return nodes
}

// checkEndpointCount is the dtest's check_endpoint_count, for "dummy" and
// the int keys 1 to 20: sum(rf) replicas, the ones a fresh Ring places.
func checkEndpointCount(t *testing.T, loc *ring.Locator, repl consistency.Replication) {
	t.Helper()
	fresh := mustRing(t, loc.Ring().Nodes())
	keys := []string{"dummy"}
	for k := range dtestMurmur3Hashes {
		keys = append(keys, string(intKey(k)))
	}
	for _, key := range keys {
		reps, _, err := loc.Locate("test", key)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := fresh.ReplicasFor(ring.Murmur3Token([]byte(key)), repl)
		if len(reps) != repl.Total() || !slices.Equal(endpointIDs(reps), ids(want)) {
			t.Errorf("key %q: %v, want %d replicas: %v", key, endpointIDs(reps), repl.Total(), ids(want))
		}
	}
}
