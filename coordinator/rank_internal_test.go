package coordinator

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/replica"
)

// bucketizeAll is bucketize before it skipped keys that cannot be
// selected: every key gets its exact bucket. The reference the faster one
// must agree with on everything a read sees.
func bucketizeAll(keys []float64, badness float64) {
	best := math.Inf(1)
	for _, k := range keys {
		if k > 0 && k < best {
			best = k
		}
	}
	for i, k := range keys {
		switch {
		case k <= 0:
			keys[i] = -1
		case badness <= 0:
			keys[i] = k
		case k < best*(1+badness):
			keys[i] = 0
		default:
			keys[i] = math.Floor(math.Log(k/best) / math.Log1p(badness))
		}
	}
}

// Ranking with the keys that cannot be selected left unbucketed gives the
// same order as ranking with every key bucketed: the same k first, in the
// same order, and the rest behind them in the same order too. Keys are
// drawn at exact powers of (1+badness) times the best as often as not, so
// that bucket edges are hit.
func TestBucketizeSkipsOnlyKeysThatCannotBeSelected(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 40).Draw(t, "n") // past rank's inline room too
		k := rapid.IntRange(1, n).Draw(t, "k")
		badness := rapid.SampledFrom([]float64{0, 0.05, 0.1, 0.5, 1}).Draw(t, "badness")
		best := rapid.Float64Range(1, 1e7).Draw(t, "best")
		keys := make([]float64, n)
		for i := range keys {
			switch rapid.IntRange(0, 3).Draw(t, "kind") {
			case 0:
				keys[i] = 0
			case 1:
				keys[i] = best * math.Pow(1+badness, float64(rapid.IntRange(0, 6).Draw(t, "power")))
			default:
				keys[i] = best * rapid.Float64Range(1, 20).Draw(t, "ratio")
			}
		}
		cs := make([]candidate, n)
		for i := range cs {
			cs[i] = candidate{ep: replica.Endpoint{ID: fmt.Sprint(i), Rack: fmt.Sprint(i % 3)}}
		}
		want, wantKeys := append([]candidate(nil), cs...), append([]float64(nil), keys...)
		bucketizeAll(wantKeys, badness)
		selectByKeys(want, wantKeys, k)
		spreadRacks(want, wantKeys, k)

		got, gotKeys := append([]candidate(nil), cs...), append([]float64(nil), keys...)
		bucketize(gotKeys, badness, math.Log1p(badness), k)
		selectByKeys(got, gotKeys, k)
		spreadRacks(got, gotKeys, k)

		for i := range want {
			if got[i].ep.ID != want[i].ep.ID {
				t.Fatalf("keys %v, k %d, badness %v: position %d holds %s, want %s",
					keys, k, badness, i, got[i].ep.ID, want[i].ep.ID)
			}
		}
	})
}

func TestKthLeast(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfN(rapid.Float64Range(-1, 100), 1, 40).Draw(t, "keys")
		k := rapid.IntRange(1, len(keys)).Draw(t, "k")
		below, equal := 0, 0
		kth := kthLeast(keys, k)
		for _, key := range keys {
			if key < kth {
				below++
			} else if key == kth {
				equal++
			}
		}
		if below >= k || below+equal < k {
			t.Fatalf("kthLeast(%v, %d) = %v: %d keys below it, %d equal", keys, k, kth, below, equal)
		}
	})
}

// The rack spread looks through every candidate past the k selected, which
// keep the locator's order rather than the keys': the one of equal key on
// another rack may follow one of a greater key.
func TestSpreadRacksLooksPastAGreaterKey(t *testing.T) {
	racks := []string{"r1", "r1", "r1", "r1", "r2", "r2"}
	keys := []float64{0, 0, 0, 0, 3, 0}
	cs := make([]candidate, len(racks))
	for i, rack := range racks {
		cs[i] = candidate{ep: replica.Endpoint{ID: fmt.Sprint(i), Rack: rack}}
	}
	spreadRacks(cs, keys, 4)
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.ep.ID)
	}
	if want := []string{"0", "5", "1", "2", "3", "4"}; !slices.Equal(ids, want) {
		t.Fatalf("order %v, want %v", ids, want)
	}
	if want := []float64{0, 0, 0, 0, 0, 3}; !slices.Equal(keys, want) {
		t.Fatalf("keys %v, want %v: each key moves with its candidate", keys, want)
	}
}
