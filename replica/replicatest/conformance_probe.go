package replicatest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/readpath/readpath/replica"
)

// checkProbe probes a replica.Prober that answers reads, as the check's
// replica does, with probes concurrent with reads: each must answer nil, or
// an error matching errors.ErrUnsupported (a wrapper of a replica that is
// no Prober). A probe that fails a node that serves keeps the replica
// convicted for good, as a failure detector readmits a Prober only when a
// probe answers.
func checkProbe(t *testing.T, r replica.Replica) {
	p, ok := r.(replica.Prober)
	if !ok {
		return
	}
	if _, ok := readData(t, r, replica.Command{Table: conformanceTable, Key: "k"}); !ok {
		return // the check's reads fail: not the probe's fault
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			_, err := call(t, "Probe", func(ctx context.Context) (struct{}, error) { return struct{}{}, p.Probe(ctx) })
			if err != nil && !errors.Is(err, errAbandoned) && !errors.Is(err, errors.ErrUnsupported) {
				t.Errorf("Probe of a replica that answers reads = %v, want nil (or an error matching errors.ErrUnsupported from a wrapper of a replica that is no Prober): a failure detector would never readmit it", err)
			}
		})
		wg.Go(func() { readData(t, r, replica.Command{Table: conformanceTable, Key: "k"}) })
	}
	wg.Wait()
}
