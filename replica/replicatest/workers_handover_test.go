package replicatest_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// A closed-loop client: it sends its next request as soon as its previous
// one is answered. With one worker and a queue of one, when A finishes at
// 10ms, B (queued) takes the worker and the queue is empty: C, sent by A's
// caller at that instant, must queue, not be refused (WithWorkers: "a
// request arriving when queueLimit requests are already queued fails at
// once with ErrOverloaded").
func TestClosedLoopClientIsNotRefusedByAnEmptyQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newReplica(t, latency(replicatest.Constant(ms(10))), replicatest.WithWorkers(1, 1))
		cmd := replica.Command{Table: table, Key: "k"}
		errC := make(chan error, 1)
		go func() {
			if _, err := r.Read(t.Context(), cmd); err != nil { // A: holds the worker 0–10ms
				errC <- err
				return
			}
			_, err := r.Read(t.Context(), cmd) // C: sent at 10ms, when the queue is empty
			errC <- err
		}()
		synctest.Wait()
		errB := make(chan error, 1)
		go func() {
			_, err := r.Read(t.Context(), cmd) // B: queued at 0, served 10–20ms
			errB <- err
		}()
		synctest.Wait()
		time.Sleep(ms(5))
		require.Equal(t, int64(2), r.Stats().InFlight)
		require.NoError(t, <-errB)
		err := <-errC
		require.NoError(t, err, "C arrived at 10ms when B had left the queue for the worker: the queue held 0 of 1")
		require.Equal(t, int64(0), r.Stats().Overloaded)
	})
}
