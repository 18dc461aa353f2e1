package ring_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/ring"
	"pgregory.net/rapid"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

func TestRandomTokens(t *testing.T) {
	r := mustRing(t, randomNodes(9, 4, 64, 1, 1))
	tokens := ring.RandomTokens(rand.New(rand.NewPCG(1, 2)), 1000, r)
	seen := map[int64]bool{}
	for _, tok := range r.Tokens() {
		seen[tok] = true
	}
	for _, tok := range tokens {
		if seen[tok] || tok == ring.MinToken {
			t.Fatalf("token %d drawn twice, held already, or MinToken", tok)
		}
		seen[tok] = true
	}
	if len(tokens) != 1000 {
		t.Fatalf("%d tokens, want 1000", len(tokens))
	}
	if _, err := r.With(ring.Node{ID: "new", Tokens: tokens}); err != nil {
		t.Errorf("the drawn tokens do not join the ring: %v", err)
	}
}

// A count of 0 or less draws no tokens; a negative one panicked in make.
func TestRandomTokensOfNoneOrFewer(t *testing.T) {
	for _, n := range []int{0, -1} {
		if got := ring.RandomTokens(rand.New(rand.NewPCG(1, 2)), n, nil); len(got) != 0 {
			t.Errorf("RandomTokens(%d) = %v, want none", n, got)
		}
	}
}

// Effective ownership adds up to the replication factor (capped by the
// nodes there are), and each node's share is what ReplicasFor gives it.
func TestOwnershipAddsUpToTheReplicationFactor(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes, repl := genTopology(t)
		r, _ := ring.New(nodes)
		own, err := r.Ownership(repl)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		dcNodes := map[string]int{}
		for _, n := range nodes {
			dcNodes[n.Datacenter]++
		}
		for _, f := range repl.Datacenters() {
			want += min(f.Factor, dcNodes[f.Datacenter])
		}
		sum := 0.0
		for _, share := range own {
			sum += share
		}
		if math.Abs(sum-float64(want)) > 1e-9 {
			t.Fatalf("ownership adds up to %v, want %d", sum, want)
		}
	})
}

func TestOwnershipOfOneRange(t *testing.T) {
	r := mustRing(t, []ring.Node{{ID: "a", Tokens: []int64{0}}, {ID: "b", Tokens: []int64{math.MinInt64 / 2}}})
	own, _ := r.Ownership(consistency.Simple(1))
	// b owns (0, MinInt64/2], wrapping: three quarters of the ring.
	if own["a"] != 0.25 || own["b"] != 0.75 {
		t.Errorf("ownership %v, want a 0.25, b 0.75", own)
	}
	if _, err := r.Ownership(consistency.Simple(0)); err == nil {
		t.Error("invalid replication accepted")
	}
}

// The imbalance of random tokens, RF 3 (SimpleStrategy), over 50 rings per
// row drawn from fixed seeds: the largest and smallest effective ownership
// relative to the ideal share RF/nodes. The table is the golden file
// testdata/random_imbalance.txt, quoted in the package documentation;
// regenerate it with go test -run TestRandomTokenImbalance -update.
func TestRandomTokenImbalance(t *testing.T) {
	if testing.Short() {
		t.Skip("measures 400 rings")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%5s %6s %14s %13s %13s\n", "nodes", "tokens", "mean max/ideal", "worst max", "mean min")
	for _, tokens := range []int{16, 256} {
		for _, nodes := range []int{3, 6, 12, 24} {
			meanMax, worst, meanMin := imbalance(nodes, tokens, 50)
			fmt.Fprintf(&b, "%5d %6d %14.3f %13.3f %13.3f\n", nodes, tokens, meanMax, worst, meanMin)
		}
	}
	golden := "testdata/random_imbalance.txt"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil || string(want) != b.String() {
		t.Errorf("measured:\n%s\ngolden (%v):\n%s", b.String(), err, want)
	}
}

func imbalance(nodes, tokens, rings int) (meanMax, worst, meanMin float64) {
	for seed := range rings {
		rng := rand.New(rand.NewPCG(uint64(seed), uint64(nodes*1000+tokens)))
		var r *ring.Ring
		for i := range nodes {
			n := ring.Node{ID: fmt.Sprint(i), Tokens: ring.RandomTokens(rng, tokens, r)}
			if r == nil {
				r, _ = ring.New([]ring.Node{n})
			} else {
				r, _ = r.With(n)
			}
		}
		own, _ := r.Ownership(consistency.Simple(3))
		ideal := 3 / float64(nodes)
		hi, lo := 0.0, math.Inf(1)
		for _, share := range own {
			hi, lo = max(hi, share/ideal), min(lo, share/ideal)
		}
		meanMax += hi / float64(rings)
		meanMin += lo / float64(rings)
		worst = max(worst, hi)
	}
	return meanMax, worst, meanMin
}
