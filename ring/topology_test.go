package ring_test

import (
	"errors"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
	"pgregory.net/rapid"
)

// With, Without and Replacing derive the new ring from the old one instead
// of building it afresh; whatever the change, the ring (or the error) must
// be the one New builds from the same nodes. Tokens are drawn from a small
// space so that collisions, within a node and across nodes, are frequent.
func TestTopologyChangesAgreeWithNew(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := genSmallNodes(t, rapid.IntRange(1, 8).Draw(t, "nodes"), "n")
		r, err := ring.New(nodes)
		if err != nil {
			t.Skip("the drawn ring is invalid:", err)
		}
		for step := range 6 {
			var got *ring.Ring
			var want []ring.Node // the nodes New gets; nil: the change fails
			ids := nodeIDs(r)
			switch op := rapid.IntRange(0, 2).Draw(t, "op"); op {
			case 0:
				n := genSmallNodes(t, 1, "j"+strconv.Itoa(step))[0]
				n.ID = rapid.SampledFrom(append(ids, n.ID, "")).Draw(t, "joining ID")
				got, err = r.With(n)
				want = append(r.Nodes(), n)
			case 1:
				id := rapid.SampledFrom(append(ids, "unknown")).Draw(t, "leaving")
				got, err = r.Without(id)
				if i := slices.Index(ids, id); i >= 0 {
					want = slices.Delete(r.Nodes(), i, i+1)
				}
			case 2:
				old := rapid.SampledFrom(append(ids, "unknown")).Draw(t, "replaced")
				n := genSmallNodes(t, 1, "r"+strconv.Itoa(step))[0]
				n.ID = rapid.SampledFrom(append(ids, n.ID, "")).Draw(t, "replacing ID")
				if rapid.Bool().Draw(t, "keeps the tokens") {
					n.Tokens = nil
				}
				got, err = r.Replacing(old, n)
				if i := slices.Index(ids, old); i >= 0 {
					want = r.Nodes()
					if len(n.Tokens) == 0 {
						n.Tokens = want[i].Tokens
					}
					want[i] = n
				}
			}
			wantRing, wantErr := ring.New(want)
			if want == nil {
				wantErr = ring.ErrUnknownNode
			}
			if !sameError(err, wantErr) {
				t.Fatalf("step %d: err = %v, want %v", step, err, wantErr)
			}
			if err != nil {
				continue
			}
			sameRing(t, got, wantRing)
			r = got
		}
	})
}

// genSmallNodes draws n nodes of 1 to 4 tokens from [0, 40), over two
// datacenters and three racks, named prefix0, prefix1…
func genSmallNodes(t *rapid.T, n int, prefix string) []ring.Node {
	nodes := make([]ring.Node, n)
	for i := range nodes {
		nodes[i] = ring.Node{
			ID:         prefix + strconv.Itoa(i),
			Datacenter: rapid.SampledFrom([]string{"dc1", "dc2"}).Draw(t, "dc"),
			Rack:       rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "rack"),
			Tokens:     rapid.SliceOfN(rapid.Int64Range(0, 39), 0, 4).Draw(t, "tokens"),
		}
	}
	return nodes
}

func nodeIDs(r *ring.Ring) []string {
	var ids []string
	for _, n := range r.Nodes() {
		ids = append(ids, n.ID)
	}
	return ids
}

// sameError compares errors by type and message: the typed errors of New
// carry everything in their message.
func sameError(got, want error) bool {
	if got == nil || want == nil {
		return got == want
	}
	if errors.Is(want, ring.ErrUnknownNode) {
		return errors.Is(got, ring.ErrUnknownNode)
	}
	return reflect.TypeOf(got) == reflect.TypeOf(want) && got.Error() == want.Error()
}

// sameRing compares two rings through their whole exported surface.
func sameRing(t *rapid.T, got, want *ring.Ring) {
	t.Helper()
	if !reflect.DeepEqual(got.Nodes(), want.Nodes()) {
		t.Fatalf("nodes %v, want %v", got.Nodes(), want.Nodes())
	}
	if !slices.Equal(got.Tokens(), want.Tokens()) {
		t.Fatalf("tokens %v, want %v", got.Tokens(), want.Tokens())
	}
	for _, tok := range want.Tokens() {
		if g, w := got.Owner(tok).ID, want.Owner(tok).ID; g != w {
			t.Fatalf("token %d: owner %s, want %s", tok, g, w)
		}
	}
	for _, n := range want.Nodes() {
		if g, ok := got.Node(n.ID); !ok || !reflect.DeepEqual(g, n) {
			t.Fatalf("node %s: %v, %v; want %v", n.ID, g, ok, n)
		}
	}
	for _, repl := range []consistency.Replication{consistency.Simple(2), consistency.NetworkTopology(map[string]int{"dc1": 2, "dc2": 3})} {
		for tok := int64(-1); tok < 41; tok++ {
			g, _ := got.ReplicasFor(tok, repl)
			w, _ := want.ReplicasFor(tok, repl)
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("%v at %d: %v, want %v", repl, tok, ids(g), ids(w))
			}
		}
	}
}
