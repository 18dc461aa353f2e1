package consistency_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	c "github.com/readpath/readpath/consistency"
)

// genReplication draws a valid replication: simple, or one to four
// datacenters of up to seven replicas each, at least one holding data.
func genReplication(t *rapid.T) c.Replication {
	if rapid.Bool().Draw(t, "simple") {
		return c.Simple(rapid.IntRange(1, 12).Draw(t, "rf"))
	}
	n := rapid.IntRange(1, 4).Draw(t, "dcs")
	rf := map[string]int{}
	for i := range n {
		rf[fmt.Sprintf("dc%d", i+1)] = rapid.IntRange(0, 7).Draw(t, "dcrf")
	}
	rf["dc1"] = rapid.IntRange(1, 7).Draw(t, "dc1rf")
	return c.NetworkTopology(rf)
}

func TestBlockForLaws(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := genReplication(t)
		dc := rapid.SampledFrom([]string{"dc1", "dc2", "dc3", "dc4", "dc9", ""}).Draw(t, "local")
		total := r.Total()
		q := c.Quorum.BlockFor(r, dc)
		lq := c.LocalQuorum.BlockFor(r, dc)
		all := c.All.BlockFor(r, dc)
		each := c.EachQuorum.BlockFor(r, dc)

		if 2*q <= total || 2*(q-1) > total {
			t.Fatalf("quorum %d is not the smallest strict majority of %d", q, total)
		}
		if lq > q || q > all || all != total {
			t.Fatalf("want LOCAL_QUORUM %d <= QUORUM %d <= ALL %d = total %d", lq, q, all, total)
		}
		if local := r.Factor(dc); !r.IsSimple() && local > 0 && 2*lq <= local {
			t.Fatalf("LOCAL_QUORUM %d is no majority of the local %d", lq, local)
		}
		if each < q || each > all {
			t.Fatalf("want QUORUM %d <= EACH_QUORUM %d <= ALL %d", q, each, all)
		}
		sum := 0
		for _, n := range c.EachQuorumFor(r) {
			sum += n
		}
		if !r.IsSimple() && sum != each {
			t.Fatalf("EACH_QUORUM %d is not the sum %d of its per-DC requirements", each, sum)
		}
	})
}

func TestQuorumsIntersect(t *testing.T) {
	// Two quorums (or a quorum and an ALL) always share a replica: the reason a
	// QUORUM read sees a QUORUM write.
	rapid.Check(t, func(t *rapid.T) {
		r := genReplication(t)
		if q := c.Quorum.BlockFor(r, ""); 2*q <= r.Total() {
			t.Fatalf("two quorums of %d over %d replicas need not intersect", q, r.Total())
		}
	})
}
