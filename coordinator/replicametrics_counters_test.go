package coordinator_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/coordinator"
)

// A replica's Counters yields each of its counters by name, every int64
// field but the gauges, so that a counter added later and left out fails
// this test; a consumer may stop early.
func TestReplicaCountersNameEveryCounter(t *testing.T) {
	var r coordinator.ReplicaMetrics
	gauges := map[string]bool{"Outstanding": true, "Abandoned": true}
	v, want := reflect.ValueOf(&r).Elem(), map[string]int64{}
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Type != reflect.TypeFor[int64]() || gauges[f.Name] {
			continue
		}
		v.Field(i).SetInt(int64(10 + i))
		want[f.Name] = int64(10 + i)
	}
	r.Outstanding, r.Abandoned, r.Latency = 1, 2, time.Second

	got := map[string]int64{}
	var names []string
	for name, n := range r.Counters() {
		got[name] = n
		names = append(names, name)
	}
	assert.Equal(t, []string{"requests", "misses", "repairs", "timeouts", "failures"}, names)
	assert.Equal(t, map[string]int64{"requests": want["Requests"], "misses": want["Misses"], "repairs": want["Repairs"],
		"timeouts": want["Timeouts"], "failures": want["Failures"]}, got)
	assert.Len(t, want, len(got), "int64 fields not yielded")
	for range r.Counters() {
		break
	}
}
