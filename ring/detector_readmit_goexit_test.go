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
