package coordinator

import (
	"fmt"
	"runtime"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

// Whether a replica's answer may continue is judged on the query's edge
// slice, not on a copy of every slice after its last row: for an IN of
// 1,000 values, at most 64 bytes a judgement (it copied the 500 slices
// after the 500th value, 24 KB). Measured over many judgements on one
// core, so that what other goroutines of the package allocate meanwhile
// (a test's late repairs, under -race) cannot pass for the judgement's.
func TestShortReadsJudgeAContinuationWithoutCopyingTheQuery(t *testing.T) {
	sl := make([]replica.Slice, 1000)
	for i := range sl {
		c := fmt.Sprintf("c%04d", i)
		sl[i] = replica.Slice{Start: replica.StartAt(c), End: replica.EndAt(c)}
	}
	const runs = 10000
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, reversed := range []bool{false, true} {
		s := &shortReads{q: replica.Query{Slices: sl, Limit: 10, Reversed: reversed}}
		if !s.follows("c0499") {
			t.Fatalf("reversed %v: rows follow c0499", reversed)
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			s.follows("c0499")
		}
		runtime.ReadMemStats(&after)
		if got := (after.TotalAlloc - before.TotalAlloc) / runs; got > 64 {
			t.Errorf("reversed %v: %d bytes a judgement; want at most 64", reversed, got)
		}
	}
}

// The edge slice says what the whole query says, for any row, inside the
// slices or not.
func TestShortReadsFollowsAsAfterSays(t *testing.T) {
	keys := []string{"", "a", "b", "c", "d", "e", "f", "g"}
	key := rapid.SampledFrom(keys)
	rapid.Check(t, func(t *rapid.T) {
		var q replica.Query
		if !rapid.Bool().Draw(t, "every row") {
			raw := make([]replica.Slice, rapid.IntRange(0, 4).Draw(t, "slices"))
			for i := range raw {
				a, b := key.Draw(t, "start"), key.Draw(t, "end")
				raw[i] = replica.Slice{Start: replica.StartAt(a), End: replica.EndAt(b)}
			}
			var err error
			if q.Slices, err = replica.NormalizeSlices(raw); err != nil {
				t.Fatal(err)
			}
		}
		q.Reversed = rapid.Bool().Draw(t, "reversed")
		last := key.Draw(t, "last")
		s := &shortReads{q: q}
		if got, want := s.follows(last), len(q.After(last).Slices) > 0; got != want {
			t.Fatalf("follows(%q) = %v over %v; After says %v", last, got, q, want)
		}
	})
}
