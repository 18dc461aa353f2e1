package latency_test

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/latency"
)

func TestRegistryHandsOutOneTrackerPerTable(t *testing.T) {
	r := latency.NewRegistry(latency.WithWindow(3 * time.Minute))
	users := r.Tracker("ks.users")
	assert.Same(t, users, r.Tracker("ks.users"))
	assert.NotSame(t, users, r.Tracker("ks.events"))
	assert.Equal(t, 3*time.Minute, users.Window(), "options apply to every tracker")

	users.Record(time.Millisecond)
	assert.Zero(t, r.Tracker("ks.events").Snapshot().Count, "tables do not share samples")
}

func TestRegistryConcurrentFirstUse(t *testing.T) {
	var r latency.Registry // the zero Registry is valid
	got := make([]*latency.Tracker, 16)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = r.Tracker("ks.t") })
	}
	wg.Wait()
	for _, tr := range got {
		assert.Same(t, got[0], tr)
	}
	assert.Equal(t, latency.DefaultWindow, got[0].Window())
}

func TestRegistryAllInTableOrder(t *testing.T) {
	r := latency.NewRegistry()
	for _, table := range []string{"ks.c", "ks.a", "ks.b"} {
		r.Tracker(table)
	}
	var tables []string
	for table, tr := range r.All() {
		assert.Same(t, r.Tracker(table), tr)
		tables = append(tables, table)
	}
	assert.Equal(t, []string{"ks.a", "ks.b", "ks.c"}, tables)

	n := 0
	for range r.All() {
		n++
		break
	}
	assert.Equal(t, 1, n, "All stops when asked")
}

// The options a registry was given are its own: changing the caller's slice
// afterwards changes nothing.
func TestRegistryCopiesItsOptions(t *testing.T) {
	opts := []latency.Option{latency.WithWindow(3 * time.Minute)}
	r := latency.NewRegistry(opts...)
	opts[0] = latency.WithWindow(time.Hour)
	assert.Equal(t, 3*time.Minute, r.Tracker("t").Window())
}

// A removed table leaves All, and its next use gets a new, empty tracker.
func TestRegistryRemove(t *testing.T) {
	r := latency.NewRegistry()
	old := r.Tracker("ks.daily_0101")
	old.Record(time.Millisecond)
	r.Tracker("ks.users")
	r.Remove("ks.daily_0101")
	r.Remove("ks.never")
	var tables []string
	for table := range r.All() {
		tables = append(tables, table)
	}
	assert.Equal(t, []string{"ks.users"}, tables)
	fresh := r.Tracker("ks.daily_0101")
	assert.NotSame(t, old, fresh)
	assert.Zero(t, fresh.Snapshot().Count)
}

// A table removed while All runs is skipped, not yielded as nil.
func TestRegistryRemoveDuringAll(t *testing.T) {
	r := latency.NewRegistry()
	r.Tracker("ks.a")
	r.Tracker("ks.b")
	var tables []string
	for table, tr := range r.All() {
		assert.NotNil(t, tr)
		tables = append(tables, table)
		r.Remove("ks.b")
	}
	assert.Equal(t, []string{"ks.a"}, tables)
}
