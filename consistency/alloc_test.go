package consistency_test

import (
	"testing"

	c "github.com/readpath/readpath/consistency"
)

func TestBlockForDoesNotAllocate(t *testing.T) {
	r := c.NetworkTopology(map[string]int{"dc1": 3, "dc2": 3, "dc3": 1})
	n := 0
	allocs := testing.AllocsPerRun(100, func() {
		for _, l := range []c.Level{c.Quorum, c.LocalQuorum, c.EachQuorum, c.All} {
			n += l.BlockFor(r, "dc2")
		}
	})
	if allocs != 0 {
		t.Fatalf("BlockFor allocated %v times per run", allocs)
	}
	if n == 0 {
		t.Fatal("BlockFor returned nothing")
	}
}
