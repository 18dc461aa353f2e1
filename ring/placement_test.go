package ring_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
)

// driverToken is TOKENnn of the Java driver's replication strategy tests:
// TOKEN01 = -9e18 ... TOKEN10 = 0 ... TOKEN19 = 9e18.
func driverToken(n int) int64 { return int64(n-10) * 1_000_000_000_000_000_000 }

// layout is a ring of the Java driver's tests: owners[i] is the node
// number holding tokens[i], where holds node n's datacenter and rack.
type layout struct {
	tokens []int
	owners []int
	where  map[int][2]string
}

func (l layout) nodes() []ring.Node {
	byNode := map[int]*ring.Node{}
	var order []int
	for i, n := range l.owners {
		if byNode[n] == nil {
			w := l.where[n]
			byNode[n] = &ring.Node{ID: "node" + strconv.Itoa(n), Datacenter: w[0], Rack: w[1]}
			order = append(order, n)
		}
		byNode[n].Tokens = append(byNode[n].Tokens, driverToken(l.tokens[i]))
	}
	nodes := make([]ring.Node, len(order))
	for i, n := range order {
		nodes[i] = *byNode[n]
	}
	return nodes
}

// expect parses "01: 1 2 5" lines into token number -> node IDs.
func expect(lines ...string) map[int][]string {
	out := map[int][]string{}
	for _, line := range lines {
		tok, nodes, _ := strings.Cut(line, ":")
		n, _ := strconv.Atoi(tok)
		for f := range strings.FieldsSeq(nodes) {
			out[n] = append(out[n], "node"+f)
		}
	}
	return out
}

func ids(nodes []ring.Node) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.ID
	}
	return out
}

func seq(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

// Ported from apache/cassandra-java-driver
// core/src/test/java/com/datastax/oss/driver/internal/core/metadata/token/SimpleReplicationStrategyTest.java:
// the replicas of a token in exact order.
func TestSimpleStrategyDriverVectors(t *testing.T) {
	for name, tc := range map[string]struct {
		l    layout
		rf   int
		want map[int][]string
	}{
		"should_compute_for_simple_layout": {
			layout{[]int{1, 6, 14, 19}, []int{1, 2, 1, 2}, nil}, 2,
			expect("1: 1 2", "6: 2 1", "14: 1 2", "19: 2 1"),
		},
		"should_compute_when_nodes_own_consecutive_tokens": {
			layout{[]int{1, 6, 14, 19}, []int{1, 1, 2, 2}, nil}, 2,
			expect("1: 1 2", "6: 1 2", "14: 2 1", "19: 2 1"),
		},
		"should_compute_when_ring_unbalanced": {
			layout{[]int{1, 6, 14, 19}, []int{1, 1, 2, 1}, nil}, 2,
			expect("1: 1 2", "6: 1 2", "14: 2 1", "19: 1 2"),
		},
		"should_compute_when_replication_factor_is_larger_than_cluster_size": {
			layout{[]int{1, 6, 14, 19}, []int{1, 2, 1, 2}, nil}, 6,
			expect("1: 1 2", "6: 2 1", "14: 1 2", "19: 2 1"),
		},
		"should_compute_for_complex_layout": {
			layout{seq(1, 18), []int{1, 1, 5, 3, 1, 5, 2, 6, 3, 4, 5, 4, 4, 2, 6, 3, 2, 6}, nil}, 3,
			expect("1: 1 5 3", "2: 1 5 3", "3: 5 3 1", "4: 3 1 5", "5: 1 5 2", "6: 5 2 6",
				"7: 2 6 3", "8: 6 3 4", "9: 3 4 5", "10: 4 5 2", "11: 5 4 2", "12: 4 2 6",
				"13: 4 2 6", "14: 2 6 3", "15: 6 3 2", "16: 3 2 6", "17: 2 6 1", "18: 6 1 5"),
		},
	} {
		t.Run(name, func(t *testing.T) {
			r := mustRing(t, tc.l.nodes())
			for tok, want := range tc.want {
				got, err := r.ReplicasFor(driverToken(tok), consistency.Simple(tc.rf))
				if err != nil || !slices.Equal(ids(got), want) {
					t.Errorf("TOKEN%02d: %v, %v; want %v", tok, ids(got), err, want)
				}
			}
		})
	}
}

func mustRing(t testing.TB, nodes []ring.Node) *ring.Ring {
	t.Helper()
	r, err := ring.New(nodes)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The two-datacenter layouts of the Java driver's NTS tests.
var (
	twoDCsTwoRacksAlternating = map[int][2]string{
		1: {"DC1", "RACK11"}, 2: {"DC2", "RACK21"}, 3: {"DC1", "RACK12"}, 4: {"DC2", "RACK22"},
		5: {"DC1", "RACK11"}, 6: {"DC2", "RACK21"}, 7: {"DC1", "RACK12"}, 8: {"DC2", "RACK22"},
	}
	twoDCsTwoRacksGrouped = map[int][2]string{
		1: {"DC1", "RACK11"}, 2: {"DC2", "RACK21"}, 3: {"DC1", "RACK11"}, 4: {"DC2", "RACK21"},
		5: {"DC1", "RACK12"}, 6: {"DC2", "RACK22"}, 7: {"DC1", "RACK12"}, 8: {"DC2", "RACK22"},
	}
	sixteen       = append(seq(1, 8), seq(12, 19)...)
	consecutive   = []int{1, 1, 3, 3, 5, 5, 7, 7, 2, 2, 4, 4, 6, 6, 8, 8}
	complexLayout = layout{seq(1, 18), []int{1, 1, 5, 3, 1, 5, 2, 6, 3, 4, 5, 4, 4, 2, 6, 3, 2, 6},
		map[int][2]string{1: {"DC1", "RACK11"}, 2: {"DC2", "RACK21"}, 3: {"DC1", "RACK11"},
			4: {"DC2", "RACK21"}, 5: {"DC1", "RACK12"}, 6: {"DC2", "RACK22"}}}
)

// Ported from apache/cassandra-java-driver
// core/src/test/java/com/datastax/oss/driver/internal/core/metadata/token/NetworkTopologyReplicationStrategyTest.java.
// The driver places replicas as Cassandra did before 3.0: nodes on a used
// rack are appended once every rack was seen. Cassandra 4.1 takes them
// where the walk meets them, so, as Cassandra's own NetworkTopologyStrategyTest
// does when it compares the two (endpointsDiffer), the primary replica and the
// set must match, not the order past the primary.
func TestNetworkTopologyDriverVectors(t *testing.T) {
	dc11 := map[int][2]string{1: {"DC1", "RACK11"}, 2: {"DC2", "RACK21"}, 3: {"DC1", "RACK11"}, 4: {"DC2", "RACK21"}}
	for name, tc := range map[string]struct {
		l    layout
		rf   map[string]int
		want map[int][]string
	}{
		"should_compute_for_simple_layout": {
			layout{[]int{1, 4, 14, 19}, []int{1, 2, 1, 2}, dc11}, map[string]int{"DC1": 1, "DC2": 1},
			expect("1: 1 2", "4: 2 1", "14: 1 2", "19: 2 1"),
		},
		"should_compute_for_simple_layout_with_multiple_nodes_per_rack": {
			layout{[]int{1, 3, 5, 7, 13, 15, 17, 19}, []int{1, 2, 3, 4, 1, 2, 3, 4}, dc11},
			map[string]int{"DC1": 1, "DC2": 1},
			expect("1: 1 2", "3: 2 3", "5: 3 4", "7: 4 1", "13: 1 2", "15: 2 3", "17: 3 4", "19: 4 1"),
		},
		"should_compute_for_simple_layout_with_3_dcs": {
			layout{[]int{1, 5, 9, 11, 15, 19}, []int{1, 2, 3, 1, 2, 3},
				map[int][2]string{1: {"DC1", "RACK11"}, 2: {"DC2", "RACK21"}, 3: {"DC3", "RACK31"}}},
			map[string]int{"DC1": 1, "DC2": 1, "DC3": 1},
			expect("1: 1 2 3", "5: 2 3 1", "9: 3 1 2", "11: 1 2 3", "15: 2 3 1", "19: 3 1 2"),
		},
		"should_compute_for_unbalanced_ring": {
			layout{[]int{1, 3, 5, 7, 9, 11, 13, 15, 17, 19}, []int{1, 1, 2, 3, 4, 1, 1, 2, 3, 4}, dc11},
			map[string]int{"DC1": 2, "DC2": 2},
			expect("1: 1 2 3 4", "3: 1 2 3 4", "5: 2 3 4 1", "7: 3 4 1 2", "9: 4 1 2 3",
				"11: 1 2 3 4", "13: 1 2 3 4", "15: 2 3 4 1", "17: 3 4 1 2", "19: 4 1 2 3"),
		},
		"should_compute_with_multiple_racks_per_dc": {
			layout{sixteen, []int{1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8}, twoDCsTwoRacksAlternating},
			map[string]int{"DC1": 2, "DC2": 2},
			expect("1: 1 2 3 4", "2: 2 3 4 5", "3: 3 4 5 6", "4: 4 5 6 7", "5: 5 6 7 8",
				"6: 6 7 8 1", "7: 7 8 1 2", "8: 8 1 2 3", "12: 1 2 3 4", "13: 2 3 4 5",
				"14: 3 4 5 6", "15: 4 5 6 7", "16: 5 6 7 8", "17: 6 7 8 1", "18: 7 8 1 2", "19: 8 1 2 3"),
		},
		"should_pick_dc_replicas_in_different_racks_first": {
			layout{sixteen, []int{1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8}, twoDCsTwoRacksGrouped},
			map[string]int{"DC1": 3, "DC2": 3},
			expect("1: 1 2 5 3 6 4", "2: 2 3 5 6 4 7", "3: 3 4 5 6 7 8", "4: 4 5 6 8 1 7",
				"5: 5 6 1 7 2 8", "7: 7 8 1 2 3 4", "8: 8 1 2 4 5 3", "12: 1 2 5 3 6 4",
				"13: 2 3 5 6 4 7", "14: 3 4 5 6 7 8", "15: 4 5 6 8 1 7", "16: 5 6 1 7 2 8",
				"17: 6 7 1 2 8 3", "18: 7 8 1 2 3 4", "19: 8 1 2 4 5 3"),
		},
		"should_pick_dc_replicas_in_different_racks_first_when_nodes_own_consecutive_tokens": {
			layout{sixteen, consecutive, twoDCsTwoRacksGrouped}, map[string]int{"DC1": 3, "DC2": 3},
			expect("1: 1 5 3 2 6 4", "2: 1 5 3 2 6 4", "3: 3 5 7 2 6 4", "4: 3 5 7 2 6 4",
				"5: 5 2 6 4 1 7", "6: 5 2 6 4 1 7", "7: 7 2 6 4 1 3", "8: 7 2 6 4 1 3",
				"12: 2 6 4 1 5 3", "13: 2 6 4 1 5 3", "14: 4 6 8 1 5 3", "15: 4 6 8 1 5 3",
				"16: 6 1 5 3 2 8", "17: 6 1 5 3 2 8", "18: 8 1 5 3 2 4", "19: 8 1 5 3 2 4"),
		},
		"should_pick_dc_replicas_in_different_racks_first_when_all_nodes_contain_all_data": {
			layout{sixteen, consecutive, twoDCsTwoRacksGrouped}, map[string]int{"DC1": 4, "DC2": 4},
			expect("1: 1 5 3 7 2 6 4 8", "3: 3 5 7 2 6 4 8 1", "5: 5 2 6 4 8 1 7 3",
				"7: 7 2 6 4 8 1 3 5", "12: 2 6 4 8 1 5 3 7", "14: 4 6 8 1 5 3 7 2",
				"16: 6 1 5 3 7 2 8 4", "18: 8 1 5 3 7 2 4 6"),
		},
		"should_compute_complex_layout": {
			complexLayout, map[string]int{"DC1": 2, "DC2": 2},
			expect("1: 1 5 2 6", "2: 1 5 2 6", "3: 5 3 2 6", "4: 3 5 2 6", "5: 1 5 2 6",
				"6: 5 2 6 3", "7: 2 6 3 5", "8: 6 3 4 5", "9: 3 4 5 6", "10: 4 5 6 3",
				"11: 5 4 6 3", "12: 4 6 3 5", "13: 4 6 3 5", "14: 2 6 3 5", "15: 6 3 2 5",
				"16: 3 2 6 5", "17: 2 6 1 5", "18: 6 1 5 2"),
		},
		"should_compute_complex_layout_with_rf_too_high": {
			complexLayout, map[string]int{"DC1": 4, "DC2": 4},
			expect("1: 1 5 3 2 6 4", "3: 5 3 1 2 6 4", "4: 3 5 1 2 6 4", "5: 1 5 2 6 3 4",
				"6: 5 2 6 3 4 1", "7: 2 6 3 4 5 1", "8: 6 3 4 5 2 1", "9: 3 4 5 6 2 1",
				"10: 4 5 6 2 3 1", "11: 5 4 6 2 3 1", "12: 4 6 2 3 5 1", "14: 2 6 3 5 1 4",
				"15: 6 3 2 5 1 4", "16: 3 2 6 5 1 4", "17: 2 6 1 5 3 4", "18: 6 1 5 3 2 4"),
		},
	} {
		t.Run(name, func(t *testing.T) {
			r := mustRing(t, tc.l.nodes())
			for tok, want := range tc.want {
				got, err := r.ReplicasFor(driverToken(tok), consistency.NetworkTopology(tc.rf))
				if err != nil || !samePrimaryAndSet(ids(got), want) {
					t.Errorf("TOKEN%02d: %v, %v; want %v (same primary, same set)", tok, ids(got), err, want)
				}
			}
		})
	}
}

func samePrimaryAndSet(got, want []string) bool {
	if len(got) != len(want) || len(got) == 0 || got[0] != want[0] {
		return false
	}
	a, b := slices.Clone(got), slices.Clone(want)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// Cassandra 4.1 takes a node on a used rack where the walk meets it, so the
// replicas come in ring order. Derived by hand from
// NetworkTopologyStrategy.DatacenterEndpoints on the driver's
// should_pick_dc_replicas_in_different_racks_first layout (RF 3 over two
// racks per DC: one repeat allowed). From TOKEN01 the walk meets node1
// (DC1/RACK11), node2 (DC2/RACK21), node3 (RACK11 again: the repeat),
// node4 (RACK21 again: DC2's repeat), node5 (RACK12), node6 (RACK22).
func TestNetworkTopologyTakesRepeatsInRingOrder(t *testing.T) {
	r := mustRing(t, layout{sixteen, []int{1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8}, twoDCsTwoRacksGrouped}.nodes())
	for tok, want := range expect("1: 1 2 3 4 5 6", "3: 3 4 5 6 7 8", "5: 5 6 7 8 1 2") {
		got, _ := r.ReplicasFor(driverToken(tok), consistency.NetworkTopology(map[string]int{"DC1": 3, "DC2": 3}))
		if !slices.Equal(ids(got), want) {
			t.Errorf("TOKEN%02d: %v, want %v", tok, ids(got), want)
		}
	}
}

func TestReplicasForWrapsAround(t *testing.T) {
	r := mustRing(t, []ring.Node{
		{ID: "a", Tokens: []int64{-100}}, {ID: "b", Tokens: []int64{0}}, {ID: "c", Tokens: []int64{100}},
	})
	for _, tc := range []struct {
		token int64
		want  []string
	}{
		{ring.MinToken, []string{"a", "b"}},
		{-100, []string{"a", "b"}},
		{-99, []string{"b", "c"}},
		{100, []string{"c", "a"}},
		{101, []string{"a", "b"}},
		{ring.MaxToken, []string{"a", "b"}},
	} {
		got, err := r.ReplicasFor(tc.token, consistency.Simple(2))
		if err != nil || !slices.Equal(ids(got), tc.want) {
			t.Errorf("token %d: %v, %v; want %v", tc.token, ids(got), err, tc.want)
		}
		if owner := r.Owner(tc.token); owner.ID != tc.want[0] {
			t.Errorf("Owner(%d) = %s, want %s", tc.token, owner.ID, tc.want[0])
		}
	}
}

// A datacenter named by the replication but absent from the ring, or with
// factor 0, contributes nothing, as in Cassandra's testPropertiesWithEmptyDC.
func TestNetworkTopologyAbsentDatacenter(t *testing.T) {
	r := mustRing(t, []ring.Node{
		{ID: "a", Datacenter: "dc1", Rack: "r1", Tokens: []int64{1}},
		{ID: "b", Datacenter: "dc2", Rack: "r1", Tokens: []int64{2}},
	})
	got, err := r.ReplicasFor(0, consistency.NetworkTopology(map[string]int{"dc1": 1, "dc2": 0, "dc3": 3}))
	if err != nil || !slices.Equal(ids(got), []string{"a"}) {
		t.Errorf("got %v, %v; want [a]", ids(got), err)
	}
}

func TestReplicasForRejectsInvalidReplication(t *testing.T) {
	r := mustRing(t, []ring.Node{{ID: "a", Tokens: []int64{1}}})
	for _, repl := range []consistency.Replication{{}, consistency.Simple(0), consistency.NetworkTopology(map[string]int{"dc": -1})} {
		if _, err := r.ReplicasFor(0, repl); !errorsIs(err, consistency.ErrInvalidReplication) {
			t.Errorf("%v: err = %v, want ErrInvalidReplication", repl, err)
		}
	}
}

func TestNewRejectsBadTopology(t *testing.T) {
	for name, tc := range map[string]struct {
		nodes []ring.Node
		check func(error) bool
	}{
		"no nodes":  {nil, func(err error) bool { return errorsIs(err, ring.ErrInvalidTopology) }},
		"empty ID":  {[]ring.Node{{Tokens: []int64{1}}}, isNodeError("", "empty ID")},
		"no tokens": {[]ring.Node{{ID: "a", Tokens: []int64{1}}, {ID: "b"}}, isNodeError("b", "no tokens")},
		"duplicate ID": {[]ring.Node{{ID: "a", Tokens: []int64{1}}, {ID: "a", Tokens: []int64{2}}}, func(err error) bool {
			var e *ring.DuplicateNodeError
			return errorsAs(err, &e) && e.ID == "a"
		}},
		"token held twice":   {[]ring.Node{{ID: "a", Tokens: []int64{1, 5}}, {ID: "b", Tokens: []int64{5}}}, isDuplicateToken(5, "a", "b")},
		"token listed twice": {[]ring.Node{{ID: "a", Tokens: []int64{7, 7}}}, isDuplicateToken(7, "a", "a")},
	} {
		r, err := ring.New(tc.nodes)
		if r != nil || !tc.check(err) || !errorsIs(err, ring.ErrInvalidTopology) {
			t.Errorf("%s: New = %v, %v", name, r, err)
		}
	}
}

func isNodeError(id, reason string) func(error) bool {
	return func(err error) bool {
		var e *ring.NodeError
		return errorsAs(err, &e) && e.ID == id && e.Reason == reason
	}
}

func isDuplicateToken(tok int64, a, b string) func(error) bool {
	return func(err error) bool {
		var e *ring.DuplicateTokenError
		return errorsAs(err, &e) && e.Token == tok && e.Nodes == [2]string{a, b}
	}
}

func TestNewCopiesItsInput(t *testing.T) {
	nodes := []ring.Node{{ID: "a", Tokens: []int64{1}}, {ID: "b", Tokens: []int64{2}}}
	r := mustRing(t, nodes)
	nodes[0].Tokens[0] = 3
	nodes[1].ID = "z"
	if got := fmt.Sprint(ids(r.Nodes()), r.Tokens()); got != "[a b] [1 2]" {
		t.Errorf("ring changed with its input: %s", got)
	}
}
