package coordinator_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/latency"
	"github.com/readpath/readpath/repair"
)

// FuzzTableOptionsJSONRefusal reads arbitrary JSON over options that are
// not the defaults: a refusal is typed (JSON's own errors, or one a caller
// can match with errors.Is) and leaves the options as they were; whatever
// is accepted, a coordinator accepts as a table's options.
func FuzzTableOptionsJSONRefusal(f *testing.F) {
	c := fuzzPagingCoordinator(f)
	for _, s := range []string{`{}`, `null`, `{"tombstone_warn_threshold":3,"gc_grace_seconds":-1}`, `{"speculative_retry":"MIN(99p,"}`,
		`{"read_repair":"SOMETIMES"}`, `{"strategy":"ALL"}`, `{"strategy":1}`, `{"gc_grace_seconds":1e400}`,
		`{"tombstone_warn_threshold":"1"}`, `{"additional_write_policy":"50ms","read_repair":"NONE"}`, `[`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		before := coordinator.TableOptions{ReadRepair: repair.None, Strategy: coordinator.DigestFirst, GCGraceSeconds: 5,
			TombstoneWarnThreshold: 7, TombstoneFailureThreshold: 8, NoClusteringColumns: true}
		o := before
		err := json.Unmarshal([]byte(s), &o)
		if err != nil {
			require.Equal(t, before, o, "a refused %q changed the options", s)
			require.True(t, typedOptionsError(err), "%q: untyped error %#v", s, err)
			return
		}
		require.NoError(t, c.SetTableOptions("fuzz", o), "%q read as %+v", s, o)
	})
}

func typedOptionsError(err error) bool {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	for _, target := range []error{coordinator.ErrInvalidGCGrace, latency.ErrInvalidSpeculativeRetry,
		repair.ErrUnknownMode, coordinator.ErrUnknownStrategy} {
		if errors.Is(err, target) {
			return true
		}
	}
	return errors.As(err, &syntax) || errors.As(err, &typ)
}
