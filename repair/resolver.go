package repair

import "github.com/readpath/readpath/replica"

// Resolver merges the versions of a partition that replicas answered and,
// in the same pass, works out what each of them lacks: Merge and a Diff of
// every version for little more than the merge alone. It keeps its scratch
// space (cursors, and where each version's missing pieces lie in the
// merge) from call to call, so that one Resolver serving many reads
// allocates hardly more than what it returns.
//
// A Resolver is not safe for concurrent use: give each goroutine its own,
// or keep them in a sync.Pool. The zero Resolver is ready to use.
type Resolver struct{ m merger }

// Resolve merges versions and diffs each of them against the merge:
// merged equals Merge(versions...), and diffs[i] equals Diff(merged,
// versions[i]), so it is empty (IsEmpty) exactly when versions[i] lacks
// nothing. Versions that Merge refuses get its *VersionsError, and nothing
// else.
//
// Everything Resolve returns is new memory, the caller's to keep: merged,
// the diffs slice and each diff share no memory with one another, with
// versions or with r, and no later call on r touches them. Once Resolve
// returns, r holds no reference to versions or to its results.
func (r *Resolver) Resolve(versions ...replica.Partition) (merged replica.Partition, diffs []replica.Partition, err error) {
	return r.resolve(versions, false)
}

// ResolveValid is Resolve for versions that each passed
// replica.Partition.Validate already, as a coordinator checks every answer
// it receives: it does not check their rows again, which is about a
// quarter of Resolve's work. It still refuses no versions, versions of
// different keys, and invalid partition deletions, static rows and range
// tombstones. On versions whose rows are invalid its results are
// unspecified, but it does not panic.
func (r *Resolver) ResolveValid(versions ...replica.Partition) (merged replica.Partition, diffs []replica.Partition, err error) {
	return r.resolve(versions, true)
}

func (r *Resolver) resolve(versions []replica.Partition, rowsValid bool) (replica.Partition, []replica.Partition, error) {
	defer r.m.release()
	merged, err := r.m.merge(versions, true, rowsValid)
	if err != nil {
		return replica.Partition{}, nil, err
	}
	diffs := make([]replica.Partition, len(versions))
	for i := range versions {
		diffs[i] = r.m.lacks[i].diff(&merged, &versions[i])
	}
	return merged, diffs, nil
}
