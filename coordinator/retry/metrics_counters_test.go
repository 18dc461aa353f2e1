package retry_test

import (
	"reflect"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/coordinator/retry"
)

// Counters yields every counter of a snapshot once, each under a distinct
// snake_case name and with its value, in its documented order, so that an
// exporter that ranges over it misses none; it stops when asked to.
func TestMetricsCountersCoverEveryCounter(t *testing.T) {
	// Each counter a distinct value, by its place among the fields.
	var m retry.Metrics
	v := reflect.ValueOf(&m).Elem()
	next, want := uint64(1), []uint64{}
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() == reflect.Array {
			for j := range f.Len() {
				f.Index(j).SetUint(next)
				want = append(want, next)
				next++
			}
			continue
		}
		f.SetUint(next)
		want = append(want, next)
		next++
	}

	var names []string
	var got []uint64
	for name, n := range m.Counters() {
		names = append(names, name)
		got = append(got, n)
	}
	assert.Equal(t, want, got, "every counter once, in the fields' order")
	assert.Equal(t, []string{"executions", "retries_read_timeout", "retries_write_timeout",
		"retries_unavailable", "retries_request_aborted", "retries_error_response", "retry_successes",
		"ignores", "exhausted", "speculative_attempts", "budget_refusals", "downgrades"}, names)
	snake := regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)
	for _, name := range names {
		assert.Regexp(t, snake, name)
	}

	for stop := range len(want) {
		n := 0
		for range m.Counters() {
			if n == stop {
				break
			}
			n++
		}
		require.Equal(t, stop, n)
	}
}
