package monoclock_test

import (
	"math"
	"math/big"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/internal/monoclock"
)

// Nanos of a time without a monotonic reading is its nanoseconds since
// 1970, saturated to int64: checked against a big.Int reference, with
// seconds drawn near both edges, in the middle, and everywhere, with
// any location (a review's property, after the edge check became one of
// whole seconds).
func TestNanosMatchABigIntReference(t *testing.T) {
	o := monoclock.New()
	minS := int64(math.MinInt64 / int64(time.Second))
	maxS := int64(math.MaxInt64 / int64(time.Second))
	locs := []*time.Location{time.UTC, time.Local, time.FixedZone("odd", -(13*3600 + 17*60 + 3)), time.FixedZone("east", 14*3600)}
	if ny, err := time.LoadLocation("America/New_York"); err == nil {
		locs = append(locs, ny)
	}
	rapid.Check(t, func(t *rapid.T) {
		var sec int64
		switch rapid.IntRange(0, 4).Draw(t, "where") {
		case 0:
			sec = minS + rapid.Int64Range(-3, 3).Draw(t, "dmin")
		case 1:
			sec = maxS + rapid.Int64Range(-3, 3).Draw(t, "dmax")
		case 2:
			sec = rapid.Int64Range(-5, 5).Draw(t, "small")
		case 3:
			sec = rapid.Int64Range(minS-1000, maxS+1000).Draw(t, "near")
		default:
			sec = rapid.Int64Range(-1<<62, 1<<62).Draw(t, "far")
		}
		nsec := rapid.OneOf(
			rapid.Int64Range(0, 999_999_999),
			rapid.SampledFrom([]int64{0, 1, 145224191, 145224192, 145224193, 854775806, 854775807, 854775808, 999_999_999}),
		).Draw(t, "nsec")
		loc := rapid.SampledFrom(locs).Draw(t, "loc")
		tm := time.Unix(sec, nsec).In(loc)
		if tm.Unix() != sec || int64(tm.Nanosecond()) != nsec {
			t.Skip("not representable")
		}
		ref := new(big.Int).Mul(big.NewInt(sec), big.NewInt(int64(time.Second)))
		ref.Add(ref, big.NewInt(nsec))
		want := int64(0)
		switch {
		case ref.Cmp(big.NewInt(math.MinInt64)) < 0:
			want = math.MinInt64
		case ref.Cmp(big.NewInt(math.MaxInt64)) > 0:
			want = math.MaxInt64
		default:
			want = ref.Int64()
		}
		if got := o.Nanos(tm); got != want {
			t.Fatalf("Nanos(%v = %d s %d ns) = %d, want %d", tm, sec, nsec, got, want)
		}
		// A time with a monotonic reading stripped by Round(0) is the same.
		if got := o.Nanos(tm.Round(0)); got != want {
			t.Fatalf("Nanos(Round(0)) = %d, want %d", got, want)
		}
	})
}

// Order: Nanos never reverses two times without monotonic readings.
func TestNanosKeepTheOrderOfTimes(t *testing.T) {
	o := monoclock.New()
	rapid.Check(t, func(t *rapid.T) {
		base := time.Unix(0, rapid.Int64().Draw(t, "base"))
		d := time.Duration(rapid.Int64Range(0, int64(3*time.Second)).Draw(t, "d"))
		a, b := base, base.Add(d)
		if o.Nanos(a) > o.Nanos(b) {
			t.Fatalf("Nanos(%v)=%d > Nanos(%v)=%d", a, o.Nanos(a), b, o.Nanos(b))
		}
	})
}
