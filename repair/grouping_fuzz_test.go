package repair_test

import (
	"math/rand/v2"
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
)

// FuzzMergeGrouping checks, on three versions of which those that Validate
// refuses are dropped, what FuzzMergeDiff does not: that Merge's grouping
// does not matter, and that merging a merge with itself or a version with
// itself changes nothing. The rapid laws of laws_test.go draw versions
// otherwise; here the fuzzer steers them.
func FuzzMergeGrouping(f *testing.F) {
	f.Add([]byte{})
	rng := rand.New(rand.NewPCG(5, 7))
	for range 8 {
		seed := make([]byte, 160)
		for i := range seed {
			seed[i] = byte(rng.IntN(15)) // no corruption
		}
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &fuzzReader{data: data}
		var vs []replica.Partition
		for range 3 {
			v := r.partition()
			v.Key = "k" // the reader's other key is FuzzMergeDiff's concern
			if v.Validate() == nil {
				vs = append(vs, v)
			}
		}
		if len(vs) == 0 {
			return
		}
		a, b, c := vs[0], vs[len(vs)/2], vs[len(vs)-1]
		m := mustMerge(t, a, b, c)
		requireSame(t, m, mustMerge(t, mustMerge(t, a, b), c), "(a+b)+c")
		requireSame(t, m, mustMerge(t, a, mustMerge(t, b, c)), "a+(b+c)")
		requireSame(t, m, mustMerge(t, mustMerge(t, a, c), b), "(a+c)+b")
		requireSame(t, m, mustMerge(t, m), "Merge(m)")
		requireSame(t, m, mustMerge(t, m, m), "Merge(m, m)")
		requireSame(t, mustMerge(t, a), mustMerge(t, a, a), "Merge(a, a)")
		for _, v := range vs {
			requireSame(t, m, mustMerge(t, m, v), "Merge(m, v)")
			if d, _ := repair.Diff(m, v); !mustMerge(t, d, v).Equal(m) {
				t.Fatalf("Merge(Diff(m, v), v) != m for v %v", v)
			}
		}
	})
}
