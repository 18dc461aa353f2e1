package retry

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
)

// drawRequest draws one request's error, of any cause, perhaps labelled.
func drawRequest(t *rapid.T) error {
	l := rapid.SampledFrom([]consistency.Level{consistency.Quorum, consistency.EachQuorum,
		consistency.Serial}).Draw(t, "level")
	b := rapid.IntRange(1, 4).Draw(t, "blockFor")
	r := rapid.IntRange(0, b).Draw(t, "received")
	var err error
	switch rapid.IntRange(0, 8).Draw(t, "kind") {
	case 0:
		err = &consistency.ReadTimeoutError{Level: l, BlockFor: b, Received: r,
			DataPresent: rapid.Bool().Draw(t, "data")}
	case 1:
		err = &consistency.UnavailableError{Level: l, Required: b, Alive: r}
	case 2:
		err = &consistency.WriteTimeoutError{Level: l, BlockFor: b, Received: r,
			WriteType: consistency.WriteType(rapid.IntRange(0, 7).Draw(t, "writeType"))}
	case 3:
		err = &consistency.WriteFailureError{Level: l, BlockFor: b, Received: r}
	case 4:
		err = ErrConnectionClosed
	case 5:
		err = ErrNotSent
	case 6:
		err = ErrOverloaded
	case 7:
		err = &RequestAbortedError{Err: errors.New("aborted")}
	default:
		err = errors.New("plain")
	}
	if rapid.Bool().Draw(t, "wrap") {
		err = fmt.Errorf("label: %w", err)
	}
	return err
}

// A join of requests of any causes gets, from each built-in policy, the
// strictest of the verdicts its requests get alone (Rethrow, then a retry,
// then Ignore), whatever the order of the join: asked of its first read
// timeout or unavailable error alone, its verdict depended on that order.
func TestJoinedVerdictIsTheStrictestInAnyOrder(t *testing.T) {
	ladder, err := NewLadderPolicy(consistency.Quorum, consistency.One)
	if err != nil {
		t.Fatal(err)
	}
	policies := []Policy{DefaultPolicy{}, DowngradingPolicy{}, IdempotentOnlyPolicy{}, ladder}
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.SampledFrom(policies).Draw(t, "policy")
		s := Statement{Level: consistency.Quorum, Idempotent: Idempotent}
		n := rapid.IntRange(0, 1).Draw(t, "retries")
		reqs := rapid.SliceOfN(rapid.Custom(drawRequest), 2, 4).Draw(t, "requests")
		if rapid.Bool().Draw(t, "nested") { // a request that is itself a join
			reqs[0] = errors.Join(reqs[0], drawRequest(t))
		}
		var alone []Verdict
		for _, r := range reqs {
			v, perr := classify(r).ask(p, s, s.Level, r, n)
			if perr != nil {
				t.Fatal(perr)
			}
			alone = append(alone, v)
		}
		top := 0
		for _, v := range alone {
			top = max(top, rank(v.Decision))
		}
		var first Verdict
		for i := range 6 {
			perm := slices.Clone(reqs)
			rapid.Permutation(perm).Draw(t, fmt.Sprint("perm", i))
			joined := errors.Join(perm...)
			v, perr := classify(joined).ask(p, s, s.Level, joined, n)
			if perr != nil {
				t.Fatal(perr)
			}
			if i == 0 {
				first = v
				if !slices.Contains(alone, v) || rank(v.Decision) != top {
					t.Fatalf("%v for %v, whose requests alone get %v", v, joined, alone)
				}
			}
			if v != first {
				t.Fatalf("%v for %v, %v in another order", v, joined, first)
			}
		}
	})
}
