package coordinator_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/internal/nametest"
)

// A trace's enums parse back from the names they print, in any ASCII
// letter case, as ParseStrategy does; anything else, an undefined value's
// "Phase(9)" included, is an error wrapping the type's sentinel.
func TestTraceEnumsRoundTrip(t *testing.T) {
	t.Run("RequestKind", func(t *testing.T) {
		checkNames(t, coordinator.ParseRequestKind, coordinator.ErrUnknownRequestKind,
			[]coordinator.RequestKind{coordinator.KindData, coordinator.KindDigest, coordinator.KindRepair},
			coordinator.RequestKind(3), "ſata", "mutation")
	})
	t.Run("Phase", func(t *testing.T) {
		checkNames(t, coordinator.ParsePhase, coordinator.ErrUnknownPhase,
			[]coordinator.Phase{coordinator.PhaseInitial, coordinator.PhaseSpeculative,
				coordinator.PhaseReconcile, coordinator.PhaseRepair, coordinator.PhaseShortRead},
			coordinator.Phase(9), "ſhort read", "short_read", "shortread")
	})
	t.Run("Outcome", func(t *testing.T) {
		checkNames(t, coordinator.ParseOutcome, coordinator.ErrUnknownOutcome,
			[]coordinator.Outcome{coordinator.Pending, coordinator.Answered, coordinator.Failed},
			coordinator.Outcome(3), "anſwered", "ok")
	})
	t.Run("SuppressCause", func(t *testing.T) {
		checkNames(t, coordinator.ParseSuppressCause, coordinator.ErrUnknownSuppressCause,
			[]coordinator.SuppressCause{coordinator.NotSuppressed, coordinator.SuppressedBudget,
				coordinator.SuppressedOverload, coordinator.NoCandidate},
			coordinator.SuppressCause(4), "no_candidate", "none", " ")
	})
}

// checkNames checks that every value round-trips through its name, in
// lower, upper and mixed case, and that undefined's name, the bad names and
// variants of the names with white space are refused with sentinel.
func checkNames[T interface {
	comparable
	fmt.Stringer
}](t *testing.T, parse func(string) (T, error), sentinel error, values []T, undefined T, bad ...string) {
	t.Helper()
	for _, v := range values {
		name := v.String()
		for _, s := range []string{name, strings.ToUpper(name), mixedCase(name)} {
			got, err := parse(s)
			require.NoError(t, err, "%q", s)
			assert.Equal(t, v, got, "%q", s)
		}
		if name != "" {
			bad = append(bad, " "+name, name+" ", name+"\x00", name[1:])
		}
	}
	for _, s := range append(bad, undefined.String()) {
		_, err := parse(s)
		require.ErrorIs(t, err, sentinel, "%q", s)
		assert.Contains(t, err.Error(), strconv.Quote(s), "the error quotes the input")
	}
}

// mixedCase upper-cases every other letter of s.
func mixedCase(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); i += 2 {
		b[i] = strings.ToUpper(string(b[i]))[0]
	}
	return string(b)
}

// The trace enums' parsers accept exactly one of their names with its ASCII
// letters in any case (no Unicode folding, such as ſ for s or the Kelvin
// sign for k, and no trimming), and refuse anything else with an error
// wrapping their sentinel.
func FuzzParseTraceEnums(f *testing.F) {
	for _, s := range []string{"data", "SHORT READ", "ſhort read", "", "No Candidate", "pending "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		nametest.Check(t, s, coordinator.ParseRequestKind, coordinator.ErrUnknownRequestKind,
			coordinator.KindData, coordinator.KindDigest, coordinator.KindRepair)
		nametest.Check(t, s, coordinator.ParsePhase, coordinator.ErrUnknownPhase, coordinator.PhaseInitial,
			coordinator.PhaseSpeculative, coordinator.PhaseReconcile, coordinator.PhaseRepair, coordinator.PhaseShortRead)
		nametest.Check(t, s, coordinator.ParseOutcome, coordinator.ErrUnknownOutcome,
			coordinator.Pending, coordinator.Answered, coordinator.Failed)
		nametest.Check(t, s, coordinator.ParseSuppressCause, coordinator.ErrUnknownSuppressCause,
			coordinator.NotSuppressed, coordinator.SuppressedBudget, coordinator.SuppressedOverload, coordinator.NoCandidate)
	})
}
