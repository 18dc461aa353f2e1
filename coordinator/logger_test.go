package coordinator_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica/replicatest"
)

// records keeps what a Logger was given.
type records struct {
	mu  sync.Mutex
	got []slog.Record
}

func (h *records) Enabled(context.Context, slog.Level) bool { return true }
func (h *records) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *records) WithGroup(string) slog.Handler            { return h }
func (h *records) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.got = append(h.got, r)
	return nil
}

// Config.Logger is told of a replica's panic, at Warn and naming the
// replica, and of nothing else a read does: a replica's failure or time
// out and a repair are counted, not logged.
func TestLoggerGetsPanicsOnly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &records{}
		e := newEnv(t, coordinator.Config{Logger: slog.New(h), ReadTimeout: ms(50),
			DefaultTable: policy(t, "NEVER"), Snitch: coordinator.SnitchConfig{Disabled: true}})
		require.NoError(t, e.cluster.SeedOn(tbl, row(key, "v0", 5), C))
		_, _, err := e.read(consistency.All)
		require.NoError(t, err, "C is repaired")
		require.NoError(t, e.replica(B).SetFault(replicatest.ErrorAfter(0, nil)))
		_, _, err = e.read(consistency.All)
		require.Error(t, err, "B fails")
		require.NoError(t, e.replica(B).SetFault(replicatest.Fault{}))
		e.behave(t, C, constant(ms(100)))
		_, _, err = e.read(consistency.All)
		require.Error(t, err, "C times out")
		settle()
		assert.Empty(t, h.got, "failures, timeouts and repairs are not logged")

		require.NoError(t, e.replica(A).SetFault(replicatest.Panics()))
		_, _, err = e.read(consistency.One)
		require.Error(t, err)
		require.Len(t, h.got, 1)
		r := h.got[0]
		assert.Equal(t, slog.LevelWarn, r.Level)
		var id string
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "replica" {
				id = a.Value.String()
			}
			return true
		})
		assert.Equal(t, A, id)
	})
}
