package retry

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
)

// link is one error on a request's path, as the docs name it: "rt", "un",
// "wt" (with its counts), "wf", "closed", "notsent", "overloaded", "plain",
// or a wrapper, "wrap" or "abort".
type link struct {
	kind               string
	received, blockFor int
}

// modelRequest is a request's path, outermost first.
type modelRequest []link

func (r modelRequest) has(kind string) bool {
	return slices.ContainsFunc(r, func(l link) bool { return l.kind == kind })
}

// drawError draws an error tree and the requests it holds by the docs'
// rules: each branch of an errors.Join is a request of its own, taking the
// links above the join; a chain, and an fmt.Errorf with two %w, is one
// request (no join is drawn under those two %w, where it is unsaid).
func drawError(t *rapid.T, depth int, joins bool) ([]modelRequest, error) {
	kinds := []string{"rt", "un", "wt", "wf", "closed", "notsent", "overloaded", "plain"}
	if depth > 0 {
		kinds = append(kinds, "wrap", "abort", "multi")
		if joins {
			kinds = append(kinds, "join", "join", "join")
		}
	}
	leaf := func(err error, l link) ([]modelRequest, error) { return []modelRequest{{l}}, err }
	switch kind := rapid.SampledFrom(kinds).Draw(t, "kind"); kind {
	case "rt":
		return leaf(&consistency.ReadTimeoutError{Level: consistency.Quorum, BlockFor: 2, Received: 1}, link{kind: kind})
	case "un":
		return leaf(&consistency.UnavailableError{Level: consistency.Quorum, Required: 2, Alive: 1}, link{kind: kind})
	case "wt":
		b := rapid.IntRange(1, 4).Draw(t, "blockFor")
		r := rapid.IntRange(0, b).Draw(t, "received")
		return leaf(&consistency.WriteTimeoutError{Level: consistency.Quorum, BlockFor: b, Received: r},
			link{kind, r, b})
	case "wf":
		return leaf(&consistency.WriteFailureError{Level: consistency.Quorum, BlockFor: 2}, link{kind: kind})
	case "closed":
		return leaf(ErrConnectionClosed, link{kind: kind})
	case "notsent":
		return leaf(ErrNotSent, link{kind: kind})
	case "overloaded":
		return leaf(ErrOverloaded, link{kind: kind})
	case "plain":
		return leaf(errors.New("plain"), link{kind: kind})
	case "wrap", "abort":
		reqs, inner := drawError(t, depth-1, joins)
		err := error(&RequestAbortedError{Err: inner})
		if kind == "wrap" {
			err = fmt.Errorf("label: %w", inner)
		}
		for i := range reqs {
			reqs[i] = append(modelRequest{{kind: kind}}, reqs[i]...)
		}
		return reqs, err
	case "multi":
		ra, a := drawError(t, depth-1, false)
		rb, b := drawError(t, depth-1, false)
		return []modelRequest{slices.Concat(ra[0], rb[0])}, fmt.Errorf("%w: %w", a, b)
	}
	var errs []error
	var reqs []modelRequest
	for range rapid.IntRange(1, 3).Draw(t, "branches") {
		r, err := drawError(t, depth-1, true)
		errs, reqs = append(errs, err), append(reqs, r...)
	}
	return reqs, errors.Join(errs...)
}

// classify agrees with the docs over random trees of joins, chains and
// double wraps: the cause by its precedence over the whole tree; the gate
// closed if any request may have been sent (a write timeout, a read or
// write failure, a lost connection, an abort but one not sent, an error
// response); a request not sent only if none was; and an ignored failure's
// level the weakest any request's first write timeout reached, ANY if one
// holds none.
func TestClassifyJudgesEachJoinedRequestAsTheDocsSay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		reqs, err := drawError(t, 4, true)
		anyHas := func(kind string) bool {
			return slices.ContainsFunc(reqs, func(r modelRequest) bool { return r.has(kind) })
		}
		cause := CauseErrorResponse
		switch {
		case anyHas("rt"):
			cause = CauseReadTimeout
		case anyHas("wt"):
			cause = CauseWriteTimeout
		case anyHas("un"):
			cause = CauseUnavailable
		case anyHas("abort"), anyHas("notsent"), anyHas("closed"):
			cause = CauseRequestAborted
		}
		sent := slices.ContainsFunc(reqs, func(r modelRequest) bool {
			return r.has("wt") || r.has("wf") || r.has("closed") || (r.has("abort") && !r.has("notsent")) ||
				!(r.has("rt") || r.has("un") || r.has("notsent"))
		})
		level, bare, fewest := consistency.Quorum, false, -1
		for _, r := range reqs {
			i := slices.IndexFunc(r, func(l link) bool { return l.kind == "wt" })
			switch {
			case i < 0:
				bare = true
			case r[i].received < r[i].blockFor && (fewest < 0 || r[i].received < fewest):
				fewest = r[i].received
			}
		}
		switch {
		case bare:
			level = consistency.Any
		case fewest >= 0:
			level, _ = countLevel(fewest)
		}
		f := classify(err)
		if f.cause != cause {
			t.Fatalf("cause %v, want %v: %v", f.cause, cause, err)
		}
		if got, want := f.gated(), cause == CauseErrorResponse || sent; got != want {
			t.Fatalf("gated %v, want %v: %v %v", got, want, err, reqs)
		}
		if got, want := f.notSent(), cause == CauseRequestAborted && anyHas("notsent") && !sent; got != want {
			t.Fatalf("not sent %v, want %v: %v %v", got, want, err, reqs)
		}
		if got := reached(f, consistency.Quorum); got != level {
			t.Fatalf("reached %v, want %v: %v %v", got, level, err, reqs)
		}
	})
}
