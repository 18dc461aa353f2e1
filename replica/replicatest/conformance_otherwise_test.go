package replicatest_test

import (
	"context"
	"testing"

	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// compacting stores what Cassandra's memtable keeps: the merge with what a
// deletion covers dropped at write time (no purge by time).
func compacting(r *mapReplica, k [2]string, held, p replica.Partition) error {
	merged, err := repair.Merge(held, p)
	if err != nil {
		return err
	}
	resp, err := replica.Command{Table: k[0], Key: k[1]}.Respond(merged)
	if err != nil {
		return err
	}
	r.data[k] = resp.Partition.Clone()
	return nil
}

// rpcReplica serves each call on a goroutine of its own and waits for it or
// for ctx, as an RPC client does.
type rpcReplica struct{ inner *mapReplica }

func (r rpcReplica) Endpoint() replica.Endpoint { return ep }

func (r rpcReplica) Read(ctx context.Context, cmd replica.Command) (replica.Response, error) {
	type res struct {
		resp replica.Response
		err  error
	}
	done := make(chan res, 1)
	go func() {
		resp, err := r.inner.Read(context.Background(), cmd)
		resp.Partition = resp.Partition.Clone() // off the wire
		done <- res{resp, err}
	}()
	select {
	case <-ctx.Done():
		return replica.Response{}, ctx.Err()
	case x := <-done:
		if err := ctx.Err(); err != nil { // an extra check
			return replica.Response{}, err
		}
		return x.resp, x.err
	}
}

func (r rpcReplica) Apply(ctx context.Context, m replica.Mutation) error {
	if err := ctx.Err(); err != nil { // as an RPC client fails a call whose deadline passed
		return err
	}
	done := make(chan error, 1)
	m.Partition = m.Partition.Clone()
	go func() { done <- r.inner.Apply(context.Background(), m) }()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-done:
		return err
	}
}

// Adapters built unlike the fake, correctly, conform: one that drops at write
// time what a deletion covers, and one that serves each call on a goroutine
// of its own, copying what crosses, as an RPC client does.
func TestCorrectAdaptersBuiltOtherwiseConform(t *testing.T) {
	t.Run("compacting", func(t *testing.T) {
		replicatest.TestReplica(t, func(t *testing.T) replica.Replica { return newMapReplica(mutant{apply: compacting}) })
	})
	t.Run("rpc", func(t *testing.T) {
		replicatest.TestReplica(t, func(t *testing.T) replica.Replica { return rpcReplica{newMapReplica(mutant{})} })
	})
}
