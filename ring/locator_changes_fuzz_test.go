package ring_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
	"github.com/readpath/readpath/ring"
)

// FuzzLocatorChanges applies a fuzzed sequence of topology and table
// changes to a Locator (AddNode, RemoveNode, ReplaceNode with and without
// tokens, SetTable, RemoveTable), valid or not, and checks after each that
// a change fails exactly when the same change on a plain model fails (the
// Ring's With, Without and Replacing; SetTable's documented refusals) and
// then changes nothing, and that Locate agrees with a Ring built afresh from
// the model's nodes: the same replicas in the same order and the table's
// replication, or a *TableError matching ErrUnknownTable for a table the
// model does not hold; and that every replica Locate returns is the
// connection Replica(id) holds.
func FuzzLocatorChanges(f *testing.F) {
	f.Add([]byte{0, 1, 10, 1, 0, 2, 20, 0, 1, 2, 30, 3, 1, 0, 2, 40, 4, 2, 3, 9, 5, 7})
	f.Add([]byte{0, 0, 5, 0, 0, 0, 6, 1, 0, 0, 5, 2, 0, 3, 3, 0, 1, 0, 0})
	f.Add([]byte{1, 1, 1, 4, 1, 2, 2, 4, 2, 1, 3, 9, 1, 2, 2, 0, 3, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &opInput{data: data}
		dcs := []string{"dc1", "dc2"}
		racks := []string{"r1", "r2"}
		nextID := 0
		newNode := func() ring.Node {
			nextID++
			n := ring.Node{ID: fmt.Sprintf("n%d", nextID%7), Datacenter: dcs[in.byte()%2], Rack: racks[in.byte()%2]}
			for range int(in.byte() % 3) {
				n.Tokens = append(n.Tokens, int64(int8(in.byte()))*1e16)
			}
			return n
		}
		replFor := func(b byte) consistency.Replication {
			switch b % 5 {
			case 0:
				return consistency.Simple(int(b/5%4) + 1)
			case 1:
				return consistency.NetworkTopology(map[string]int{"dc1": int(b / 5 % 4)})
			case 2:
				return consistency.NetworkTopology(map[string]int{"dc1": int(b / 5 % 3), "dc2": int(b / 15 % 3)})
			case 3:
				return consistency.NetworkTopology(map[string]int{"dc3": int(b / 5 % 2), "dc1": 1})
			}
			return consistency.Simple(0)
		}
		var model []ring.Node
		for range 1 + int(in.byte()%3) {
			model = append(model, newNode())
		}
		tables := map[string]consistency.Replication{}
		if in.byte()%2 == 0 {
			tables["t"] = consistency.Simple(2)
		}
		conns := map[string]replica.Replica{}
		connect := func(n ring.Node) (replica.Replica, error) {
			r := replicatest.NewReplica(n.Endpoint())
			conns[n.ID] = r
			return r, nil
		}
		l, err := ring.NewLocator(ring.LocatorConfig{Nodes: model, Tables: tables, Connect: connect})
		if _, rerr := ring.New(model); (err != nil) != (rerr != nil) {
			t.Fatalf("NewLocator(%+v) = %v, New = %v", model, err, rerr)
		}
		if err != nil {
			return
		}
		validTable := func(repl consistency.Replication, nodes []ring.Node) bool {
			if repl.Validate() != nil {
				return false
			}
			for _, d := range repl.Datacenters() {
				if d.Factor > 0 && !slices.ContainsFunc(nodes, func(n ring.Node) bool { return n.Datacenter == d.Datacenter }) {
					return false
				}
			}
			return true
		}
		for step := 0; len(in.data) > 0 && step < 12; step++ {
			var (
				err, want error
				next      = model
				what      string
			)
			switch op := in.byte() % 6; op {
			case 0, 1:
				n := newNode()
				what = fmt.Sprintf("AddNode(%+v)", n)
				next = append(slices.Clone(model), n)
				_, want = ring.New(next)
				err = l.AddNode(n)
			case 2:
				id := fmt.Sprintf("n%d", in.byte()%7)
				what = "RemoveNode(" + id + ")"
				next = slices.DeleteFunc(slices.Clone(model), func(n ring.Node) bool { return n.ID == id })
				switch {
				case len(next) == len(model):
					want = ring.ErrUnknownNode
				case len(next) == 0:
					want = ring.ErrInvalidTopology
				}
				err = l.RemoveNode(id)
			case 3:
				old := fmt.Sprintf("n%d", in.byte()%7)
				n := newNode()
				what = fmt.Sprintf("ReplaceNode(%s, %+v)", old, n)
				i := slices.IndexFunc(model, func(m ring.Node) bool { return m.ID == old })
				if i < 0 {
					want = ring.ErrUnknownNode
					err = l.ReplaceNode(old, n)
					break
				}
				m := n
				if len(m.Tokens) == 0 {
					m.Tokens = model[i].Tokens
				}
				next = slices.Clone(model)
				next[i] = m
				_, want = ring.New(next)
				err = l.ReplaceNode(old, n)
			case 4:
				repl := replFor(in.byte())
				what = fmt.Sprintf("SetTable(t, %v)", repl)
				err = l.SetTable("t", repl)
				if !validTable(repl, model) {
					want = errors.New("invalid")
				} else if err == nil {
					tables["t"] = repl
				}
			case 5:
				what = "RemoveTable(t)"
				l.RemoveTable("t")
				delete(tables, "t")
			}
			if (err != nil) != (want != nil) {
				t.Fatalf("step %d: %s = %v, model says %v; nodes %+v", step, what, err, want, model)
			}
			if err == nil {
				model = next
			}
			r, rerr := ring.New(model)
			if rerr != nil {
				t.Fatalf("model ring: %v", rerr)
			}
			if got := idsOf(l.Ring().Nodes()); !qSameSet(got, idsOf(model)) {
				t.Fatalf("after %s: Ring() nodes %v, model %v", what, got, idsOf(model))
			}
			for _, key := range []string{"", "a", "k1", "k22", "zz"} {
				reps, repl, err := l.Locate("t", key)
				trepl, ok := tables["t"]
				if !ok {
					if !errors.Is(err, ring.ErrUnknownTable) {
						t.Fatalf("after %s: Locate of a missing table: %v", what, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("after %s: Locate(t, %q): %v", what, key, err)
				}
				if repl.String() != trepl.String() {
					t.Fatalf("after %s: replication %v, want %v", what, repl, trepl)
				}
				wantNodes, err := r.ReplicasFor(ring.Murmur3Token([]byte(key)), trepl)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, rp := range reps {
					got = append(got, rp.Endpoint().ID)
					if c, ok := l.Replica(rp.Endpoint().ID); !ok || c != rp {
						t.Fatalf("after %s: Locate returned a replica of %s that Replica() does not hold", what, rp.Endpoint().ID)
					}
					n, _ := r.Node(rp.Endpoint().ID)
					if rp.Endpoint() != n.Endpoint() {
						t.Fatalf("after %s: replica endpoint %+v, node %+v", what, rp.Endpoint(), n)
					}
				}
				if w := idsOf(wantNodes); !slices.Equal(got, w) {
					t.Fatalf("after %s: Locate(t, %q) = %v, fresh ring says %v; nodes %+v, %v", what, key, got, w, model, trepl)
				}
			}
		}
	})
}

type opInput struct{ data []byte }

func (in *opInput) byte() byte {
	if len(in.data) == 0 {
		return 0
	}
	b := in.data[0]
	in.data = in.data[1:]
	return b
}

func idsOf(ns []ring.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.ID
	}
	return out
}

func qSameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
