package ring_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
)

// TestTopology.test_size_estimates_multidc of apache/cassandra-dtest
// topology_test.py (CASSANDRA-9639): system.size_estimates lists each
// node's primary ranges, the ranges whose first replica it is, split at
// the minimum token as Cassandra unwraps a range. ks1 is SimpleStrategy 3,
// ks2 NetworkTopologyStrategy {'dc1': 2}: there the ranges ending at dc2's
// tokens have dc1's next node as primary, and node2_1 has none.
func TestDtestSizeEstimatesPrimaryRanges(t *testing.T) {
	r := mustRing(t, []ring.Node{
		{ID: "node1_1", Datacenter: "dc1", Rack: "r1", Tokens: []int64{-6639341390736545756, -2688160409776496397}},
		{ID: "node1_2", Datacenter: "dc1", Rack: "r1", Tokens: []int64{-2506475074448728501, 8473270337963525440}},
		{ID: "node2_1", Datacenter: "dc2", Rack: "r1", Tokens: []int64{-3736333188524231709, 8673615181726552074}},
	})
	type span [2]string
	for _, tc := range []struct {
		ks   string
		repl consistency.Replication
		want map[string][]span
	}{
		{"ks1", consistency.Simple(3), map[string][]span{
			"node1_1": {{"-3736333188524231709", "-2688160409776496397"}, {"-9223372036854775808", "-6639341390736545756"},
				{"8673615181726552074", "-9223372036854775808"}},
			"node1_2": {{"-2506475074448728501", "8473270337963525440"}, {"-2688160409776496397", "-2506475074448728501"}},
			"node2_1": {{"-6639341390736545756", "-3736333188524231709"}, {"8473270337963525440", "8673615181726552074"}},
		}},
		{"ks2", consistency.NetworkTopology(map[string]int{"dc1": 2}), map[string][]span{
			"node1_1": {{"-3736333188524231709", "-2688160409776496397"}, {"-6639341390736545756", "-3736333188524231709"},
				{"-9223372036854775808", "-6639341390736545756"}, {"8473270337963525440", "8673615181726552074"},
				{"8673615181726552074", "-9223372036854775808"}},
			"node1_2": {{"-2506475074448728501", "8473270337963525440"}, {"-2688160409776496397", "-2506475074448728501"}},
		}},
	} {
		got := map[string][]span{}
		toks := r.Tokens()
		for i, end := range toks {
			start := toks[(i+len(toks)-1)%len(toks)]
			reps, err := r.ReplicasFor(end, tc.repl)
			if err != nil {
				t.Fatal(err)
			}
			p := reps[0].ID
			if start >= end { // wraps: (start, MIN] and (MIN, end], as Range.unwrap
				got[p] = append(got[p], span{fmt.Sprint(start), fmt.Sprint(ring.MinToken)})
				start = ring.MinToken
			}
			got[p] = append(got[p], span{fmt.Sprint(start), fmt.Sprint(end)})
		}
		for _, id := range []string{"node1_1", "node1_2", "node2_1"} {
			if !sameSpans(got[id], tc.want[id]) {
				t.Errorf("%s, %s: primary ranges %v, want %v", tc.ks, id, got[id], tc.want[id])
			}
		}
	}
}

func sameSpans[S ~[2]string](a, b []S) bool {
	order := func(x, y S) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) }
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, order)
	slices.SortFunc(b, order)
	return slices.Equal(a, b)
}

// BaseReplaceAddressTest._verify_tokens_migrated_successfully of
// apache/cassandra-dtest replace_address_test.py: the replacement node
// takes over every one of the replaced node's num_tokens tokens (1 without
// vnodes), and no other token changes hands; beyond the dtest, every
// range keeps its replicas in order with the new node in the old one's
// place.
func TestDtestReplaceAddressMovesEveryToken(t *testing.T) {
	for _, numTokens := range []int{1, 16, 256} {
		rng := rand.New(rand.NewPCG(8523, uint64(numTokens)))
		var nodes []ring.Node
		var r *ring.Ring
		for i := range 3 {
			nodes = append(nodes, ring.Node{ID: fmt.Sprint("127.0.0.", i+1), Datacenter: "dc1", Rack: "r1",
				Tokens: ring.RandomTokens(rng, numTokens, r)})
			r = mustRing(t, nodes)
		}
		replaced, err := r.Replacing("127.0.0.3", ring.Node{ID: "127.0.0.4", Datacenter: "dc1", Rack: "r1"})
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := replaced.Node("127.0.0.4"); len(n.Tokens) != numTokens {
			t.Errorf("num_tokens %d: the replacement holds %d tokens", numTokens, len(n.Tokens))
		}
		moved := 0
		for _, tok := range r.Tokens() {
			was, now := r.Owner(tok).ID, replaced.Owner(tok).ID
			if was != now {
				moved++
				if was != "127.0.0.3" || now != "127.0.0.4" {
					t.Errorf("num_tokens %d: token %d moved from %s to %s", numTokens, tok, was, now)
				}
			}
			before, _ := r.ReplicasFor(tok, consistency.Simple(2))
			after, _ := replaced.ReplicasFor(tok, consistency.Simple(2))
			want := ids(before)
			if i := slices.Index(want, "127.0.0.3"); i >= 0 {
				want[i] = "127.0.0.4"
			}
			if !slices.Equal(ids(after), want) {
				t.Errorf("num_tokens %d: token %d on %v, want %v", numTokens, tok, ids(after), want)
			}
		}
		if moved != numTokens {
			t.Errorf("%d tokens changed ownership, want num_tokens %d", moved, numTokens)
		}
	}
}
