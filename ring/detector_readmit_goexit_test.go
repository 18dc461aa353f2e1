package ring_test

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/ring"
)

// noProbe is a replica that is no replica.Prober: its node is readmitted
// at ReadmitAfter.
type noProbe struct{ id string }

func (p noProbe) Endpoint() replica.Endpoint { return replica.Endpoint{ID: p.id} }
func (noProbe) Read(context.Context, replica.Command) (replica.Response, error) {
	return replica.Response{}, nil
}
func (noProbe) Apply(context.Context, replica.Mutation) error { return nil }

// readmission's doc: a node whose connection is no Prober is readmitted
// "at deadline, ReadmitAfter after its conviction"; a Replicas that panics
// changes nothing of that (readmitBy ignores its error). detector_goexit.go
// says a Replicas that calls Goexit is handled "as one that panics". A
// Goexit while readmitBy waited for the deadline resumed the readmission
// in probe(), which first waited the backoff's delay for probe 1 (about
// 2 s): the node was readmitted that much past ReadmitAfter (and never, if
// Replicas kept calling Goexit, where a panicking one readmits on time).
func TestReplicasGoexitDoesNotDelayReadmitAfter(t *testing.T) {
	for _, mode := range []string{"panic", "goexit", "goexit-always"} {
		t.Run(mode, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var convicted time.Time
				var once atomic.Bool
				d, err := ring.NewDetector(ring.DetectorConfig{
					Replicas: func(id string) (replica.Replica, bool) {
						// The call readmitBy makes 4 s into its 5 s wait.
						late := !convicted.IsZero() && time.Since(convicted) >= 3500*time.Millisecond
						if late && (once.CompareAndSwap(false, true) || mode == "goexit-always") {
							if mode == "panic" {
								panic("Replicas")
							}
							runtime.Goexit()
						}
						return noProbe{id}, true
					},
				})
				require.NoError(t, err)
				defer d.Close()
				ep := replica.Endpoint{ID: "n1"}
				convicted = time.Now()
				d.ReportOutcome(replica.Outcome{Replica: noProbe{"n1"}, Endpoint: ep, Err: replica.ErrConnectionFailed})
				require.False(t, d.IsAlive(ep))
				time.Sleep(5*time.Second + 100*time.Millisecond) // ReadmitAfter's default is 5 s
				synctest.Wait()
				assert.True(t, once.Load(), "Replicas was not called 4 s in")
				assert.True(t, d.IsAlive(ep), "n1 is still convicted %v after its conviction (ReadmitAfter 5s)", time.Since(convicted))
			})
		})
	}
}

// upFrom is a connection whose probes fail until at, and answer after.
type upFrom struct {
	noProbe
	at time.Time
}

func (p upFrom) Probe(context.Context) error {
	if time.Now().Before(p.at) {
		return replica.ErrConnectionFailed
	}
	return nil
}

// readmittedAt convicts conn's node at once and returns how long after
// that it was readmitted, with Replicas answering conn but for the one
// call that fail picks, which panics (mode "panic") or calls Goexit.
func readmittedAt(t *testing.T, conn upFrom, mode string, fail func(since time.Duration) bool) time.Duration {
	start := time.Now()
	var once atomic.Bool
	readmitted := make(chan time.Time, 1)
	d, err := ring.NewDetector(ring.DetectorConfig{
		Probe: ring.Backoff{Jitter: -1}, // probes after 1 s, then 2 s, 4 s...
		Replicas: func(id string) (replica.Replica, bool) {
			if fail(time.Since(start)) && once.CompareAndSwap(false, true) {
				if mode == "panic" {
					panic("Replicas")
				}
				runtime.Goexit()
			}
			return conn, true
		},
		OnChange: func(c ring.Change) {
			if c.Alive {
				readmitted <- c.At
			}
		},
	})
	require.NoError(t, err)
	defer d.Close()
	d.ReportOutcome(replica.Outcome{Replica: conn, Endpoint: conn.Endpoint(), Err: replica.ErrConnectionFailed})
	time.Sleep(10 * time.Second)
	synctest.Wait()
	require.True(t, once.Load(), "Replicas failed once")
	require.Len(t, readmitted, 1)
	return (<-readmitted).Sub(start)
}

// A Replicas that calls Goexit is handled as one that panics, which
// changes nothing of a readmission where it is not asked for the
// connection to probe (found by review):
//   - in the backoff's wait before a probe (asked every CheckInterval for
//     a replacement): the replacement counted a probe never made and
//     waited the next, doubled, delay from scratch, readmitting a node up
//     from +2.5 s at +6 s, not +3 s;
//   - asked for the connection the readmission starts from: the failed
//     connection decides, so a node up from +0.5 s is readmitted at its
//     first probe, +1 s, not +2 s.
func TestReplicasGoexitDoesNotDelayAProbe(t *testing.T) {
	for _, mode := range []string{"panic", "goexit"} {
		t.Run(mode+"/backoff", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				conn := upFrom{noProbe{"n1"}, time.Now().Add(2500 * time.Millisecond)}
				at := readmittedAt(t, conn, mode, func(since time.Duration) bool { return since >= 1500*time.Millisecond })
				assert.Equal(t, 3*time.Second, at, "probes at +1 s and +3 s")
			})
		})
		t.Run(mode+"/start", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				conn := upFrom{noProbe{"n1"}, time.Now().Add(500 * time.Millisecond)}
				at := readmittedAt(t, conn, mode, func(time.Duration) bool { return true })
				assert.Equal(t, time.Second, at, "the first probe")
			})
		})
	}
}
