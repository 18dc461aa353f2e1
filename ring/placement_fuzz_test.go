package ring_test

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
)

// FuzzRingPlacement builds rings from fuzzed node lists, as an operator's
// configuration or a gossip feed gives them, valid or not, and checks that
// New refuses exactly the invalid ones, with an error matching
// ErrInvalidTopology; that Owner is the holder of the first token at or
// after a token, wrapping; that ReplicasFor is SimpleStrategy's first
// distinct nodes clockwise, or Cassandra 4.1's NetworkTopologyStrategy
// (cassandraNTS), or the Validate error of an invalid replication; and that
// Ownership adds up to the replicas each range gets.
func FuzzRingPlacement(f *testing.F) {
	f.Add([]byte{3, 0, 0, 1, 1, 1, 1, 2, 2, 2, 1, 3, 0, 5, 6, 7, 8})
	f.Add([]byte{6, 0, 0, 2, 1, 2, 1, 3, 2, 3, 1, 0x80, 3, 4, 2, 9, 0x7f, 4, 5, 1, 20, 5, 7, 3, 30, 31, 32, 3, 0xff, 1, 2, 3, 4})
	f.Add([]byte{2, 0, 0, 1, 5, 0, 0, 1, 5})                   // a token held twice
	f.Add([]byte{3, 0, 0, 1, 10, 1, 0, 1, 20, 2, 0, 1, 30, 7}) // dc1:3 on one rack: two rack repeats
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &placementInput{data}
		nodes := in.nodes()
		repl := in.replication()
		r, err := ring.New(nodes)
		if why := whyInvalid(nodes); err != nil || why != "" {
			if err == nil || why == "" {
				t.Fatalf("New(%+v) = %v, but it is invalid for %q", nodes, err, why)
			}
			if !errors.Is(err, ring.ErrInvalidTopology) {
				t.Fatalf("New(%+v): %v does not match ErrInvalidTopology", nodes, err)
			}
			return
		}
		toks := []int64{ring.MinToken, ring.MaxToken, 0}
		for _, tk := range r.Tokens() {
			toks = append(toks, tk, tk-1, tk+1) // wrapping past MinToken and MaxToken
		}
		for len(in.data) >= 8 {
			toks = append(toks, int64(binary.LittleEndian.Uint64(in.data)))
			in.data = in.data[8:]
		}
		invalid := repl.Validate()
		for _, tk := range toks {
			tokens, owners := sortedVnodes(nodes)
			i, _ := slices.BinarySearch(tokens, tk)
			if got, want := r.Owner(tk).ID, owners[i%len(owners)].ID; got != want {
				t.Fatalf("Owner(%d) = %s, want %s; nodes %+v", tk, got, want, nodes)
			}
			got, err := r.ReplicasFor(tk, repl)
			if invalid != nil {
				if !errors.Is(err, consistency.ErrInvalidReplication) {
					t.Fatalf("ReplicasFor under invalid %v: %v", repl, err)
				}
				continue
			}
			if want := placementReference(nodes, tk, repl); err != nil || !slices.Equal(ids(got), want) {
				t.Fatalf("ReplicasFor(%d, %v) = %v, %v, want %v; nodes %+v", tk, repl, ids(got), err, want, nodes)
			}
		}
		own, err := r.Ownership(repl)
		if invalid != nil {
			if !errors.Is(err, consistency.ErrInvalidReplication) {
				t.Fatalf("Ownership under invalid %v: %v", repl, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, v := range own {
			sum += v
		}
		if want := len(placementReference(nodes, 0, repl)); math.Abs(sum-float64(want)) > 1e-6 {
			t.Fatalf("Ownership under %v adds up to %v, want %d: %v; nodes %+v", repl, sum, want, own, nodes)
		}
	})
}

// placementInput decodes fuzz bytes; past their end it reads zeros.
type placementInput struct{ data []byte }

func (in *placementInput) next() byte {
	if len(in.data) == 0 {
		return 0
	}
	c := in.data[0]
	in.data = in.data[1:]
	return c
}

// token draws from a small space with both extremes in it, so that tokens
// collide and walks wrap.
func (in *placementInput) token() int64 {
	switch c := in.next(); c {
	case 0x80:
		return ring.MinToken
	case 0x7f:
		return ring.MaxToken
	default:
		return int64(int8(c)) << 40
	}
}

// nodes draws up to six nodes over three datacenters of three racks, some
// invalid: an empty or repeated ID, no tokens, a token held twice.
func (in *placementInput) nodes() []ring.Node {
	nodes := make([]ring.Node, in.next()%7)
	for i := range nodes {
		if id := in.next() % 9; id < 8 {
			nodes[i].ID = string(rune('a' + id))
		}
		loc := in.next()
		nodes[i].Datacenter = []string{"dc1", "dc2", "dc3"}[loc%3]
		nodes[i].Rack = []string{"r1", "r2", "r3"}[loc/3%3]
		for range in.next() % 4 {
			nodes[i].Tokens = append(nodes[i].Tokens, in.token())
		}
	}
	return nodes
}

// replication draws a Simple or a NetworkTopology replication, possibly
// naming a datacenter with no node (dc4), possibly with no replica at all.
func (in *placementInput) replication() consistency.Replication {
	c := in.next()
	if c%2 == 0 {
		return consistency.Simple(int(c/2%5) + 1)
	}
	return consistency.NetworkTopology(map[string]int{"dc1": int(c / 2 % 4), "dc2": int(c / 8 % 3), "dc4": int(c / 32 % 2)})
}

// whyInvalid is what New's doc refuses in nodes, or "".
func whyInvalid(nodes []ring.Node) string {
	if len(nodes) == 0 {
		return "no nodes"
	}
	ids, tokens := map[string]bool{}, map[int64]bool{}
	for _, n := range nodes {
		switch {
		case n.ID == "":
			return "empty ID"
		case len(n.Tokens) == 0:
			return "no tokens"
		case ids[n.ID]:
			return "duplicate ID"
		}
		ids[n.ID] = true
		for _, t := range n.Tokens {
			if tokens[t] {
				return "duplicate token"
			}
			tokens[t] = true
		}
	}
	return ""
}

// placementReference is the replicas of tk under a valid repl:
// SimpleStrategy's first distinct nodes clockwise, or cassandraNTS.
func placementReference(nodes []ring.Node, tk int64, repl consistency.Replication) []string {
	if !repl.IsSimple() {
		rf := map[string]int{}
		for _, f := range repl.Datacenters() {
			rf[f.Datacenter] = f.Factor
		}
		return cassandraNTS(nodes, tk, rf)
	}
	tokens, owners := sortedVnodes(nodes)
	start, _ := slices.BinarySearch(tokens, tk)
	var out []string
	for i := range owners {
		if id := owners[(start+i)%len(owners)].ID; len(out) < repl.Total() && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}
