package replicatest_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

func TestProbe(t *testing.T) {
	for name, tc := range map[string]struct {
		fault replicatest.Fault
		want  func(error) bool
		took  time.Duration
	}{
		"healthy":                      {replicatest.Fault{}, func(err error) bool { return err == nil }, 0},
		"slow but up":                  {replicatest.ErrorAfter(time.Second, nil), func(err error) bool { return err == nil }, 0},
		"down":                         {replicatest.Down(), isProbeFailure(replicatest.ErrDown), 0},
		"down is a connection failure": {replicatest.Down(), replica.IsConnectionFailure, 0},
		"unreachable":                  {replicatest.Unreachable(), isProbeFailure(context.DeadlineExceeded), 50 * time.Millisecond},
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := replicatest.NewReplica(replica.Endpoint{ID: "a"})
				if err := r.SetFault(tc.fault); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
				defer cancel()
				start := time.Now()
				err := r.Probe(ctx)
				if !tc.want(err) || time.Since(start) != tc.took {
					t.Errorf("Probe = %v after %v; want %v", err, time.Since(start), tc.took)
				}
				if s := r.Stats(); s.Errors != 0 || s.Cancellations != 0 {
					t.Errorf("a probe was counted as a request: %+v", s)
				}
			})
		})
	}
}

func isProbeFailure(cause error) func(error) bool {
	return func(err error) bool {
		var re *replicatest.RequestError
		return errors.As(err, &re) && re.Op == "probe" && re.Replica == "a" && errors.Is(err, cause)
	}
}

func TestProbeWithEndedContext(t *testing.T) {
	r := replicatest.NewReplica(replica.Endpoint{ID: "a"})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := r.Probe(ctx); !isProbeFailure(context.Canceled)(err) {
		t.Errorf("Probe = %v, want the context's error", err)
	}
}
