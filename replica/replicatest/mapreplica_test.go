package replicatest_test

import (
	"context"
	"sync"
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// mapReplica is the adapter the replica package's doc asks an embedder to
// write: partitions in a map under a lock, written by repair.Merge and
// answered by Command.Respond. A mutant (conformance_mutants_test.go)
// changes one step of it.
type mapReplica struct {
	mutant mutant

	mu   sync.Mutex
	data map[[2]string]replica.Partition
	held []replica.Row // a mutant's scratch memory
	// A mutant's hold on the last read's command (conformance_kept_mutants_test.go).
	keptColumns []string
	keptSlices  []replica.Slice
	digests     map[digestKey]replica.Response // a mutant's cache, emptied by every write
}

// digestKey is what a mutant's digest cache tells answers apart by.
type digestKey struct {
	key     string
	version byte
	now, gc int64
}

func newMapReplica(m mutant) *mapReplica {
	return &mapReplica{mutant: m, data: map[[2]string]replica.Partition{}}
}

func (r *mapReplica) Endpoint() replica.Endpoint { return ep }

func (r *mapReplica) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	if err := r.ended(ctx); err != nil {
		return replica.Response{}, err
	}
	if r.mutant.acksWhenCancelled {
		select {
		case <-ctx.Done(): // a cancelled RPC's nothing, taken for an answer
			return replica.Response{}, nil
		default:
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	stored, ok := r.data[[2]string{cmd.Table, cmd.Key}]
	if !ok {
		stored = replica.Partition{Key: cmd.Key}
	}
	if r.mutant.read != nil {
		return r.mutant.read(r, cmd, stored)
	}
	return cmd.Respond(stored)
}

func (r *mapReplica) Apply(ctx context.Context, m replica.Mutation) error {
	if err := r.ended(ctx); err != nil {
		return err
	}
	if r.mutant.acksWhenCancelled {
		select {
		case <-ctx.Done(): // a cancelled RPC's nothing, taken for an acknowledgement
			return nil
		default:
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.digests = nil
	k := [2]string{m.Table, m.Partition.Key}
	held, ok := r.data[k]
	if !ok {
		held = replica.Partition{Key: m.Partition.Key}
	}
	if r.mutant.apply != nil {
		return r.mutant.apply(r, k, held, m.Partition)
	}
	merged, err := repair.Merge(held, m.Partition)
	if err != nil {
		return err
	}
	r.data[k] = merged
	return nil
}

// ended returns ctx's error if it has ended, or its cause for a mutant
// that returns causes.
func (r *mapReplica) ended(ctx context.Context) error {
	err := ctx.Err() // once: the in-flight check's context ends when looked at
	if err != nil && r.mutant.returnsCause {
		return context.Cause(ctx)
	}
	return err
}

// The control: the adapter unchanged conforms, so a mutant's failure is
// its mutation's.
func TestMapReplicaConforms(t *testing.T) {
	replicatest.TestReplica(t, func(t *testing.T) replica.Replica { return newMapReplica(mutant{}) })
}
