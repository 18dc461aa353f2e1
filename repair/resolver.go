package repair

import "github.com/readpath/readpath/replica"

// Resolver merges the versions of a partition that replicas answered and,
// in the same pass, works out what each of them lacks: Merge and a Diff of
// every version in one walk over the versions. It keeps its scratch
// space (cursors, and where each version's missing pieces lie in the
// merge) from call to call, so that one Resolver serving many reads
// allocates hardly more than what it returns.
//
// A Resolver is not safe for concurrent use: give each goroutine its own,
// or keep them in a sync.Pool. The zero Resolver is ready to use.
type Resolver struct {
	m     merger
	diffs []replica.Partition // the list ResolveIn and ResolveValidIn return
	rooms []*DiffRoom         // ResolveValidInRooms's, during its call
}

// Resolve merges versions and diffs each of them against the merge:
// merged equals Merge(versions...), and diffs[i] equals Diff(merged,
// versions[i]), so it is empty (IsEmpty) exactly when versions[i] lacks
// nothing. Versions that Merge refuses get its *VersionsError, and nothing
// else.
//
// What Resolve returns is the caller's to keep: no later call on r touches
// it, and once Resolve returns r holds no reference to versions or to its
// results. Unlike Merge's, merged's cells hold the versions' own value
// bytes, as they hold their strings: a merge copies every cell, but its
// values need no copy as long as nobody modifies the versions' (copying
// them was a tenth of what a read that merged and repaired 100 rows
// allocated). Everything else in merged is new memory, and the diffs are
// copies: they share no memory with merged, with versions or with one
// another.
func (r *Resolver) Resolve(versions ...replica.Partition) (merged replica.Partition, diffs []replica.Partition, err error) {
	return r.resolve(nil, versions, mergeMode{diffing: true, shareValues: true})
}

// ResolveValid is Resolve for versions that each passed
// replica.Partition.Validate already, as a coordinator checks every answer
// it receives: it does not check their rows again, which is about a
// quarter of Resolve's work. It still refuses no versions, versions of
// different keys, and invalid partition deletions, static rows and range
// tombstones. On versions whose rows are invalid its results are
// unspecified, but it does not panic.
func (r *Resolver) ResolveValid(versions ...replica.Partition) (merged replica.Partition, diffs []replica.Partition, err error) {
	return r.resolve(nil, versions, mergeMode{diffing: true, rowsValid: true, shareValues: true})
}

// ResolveIn is Resolve building merged in b's memory where it fits, not
// in new memory: b then holds the memory merged is built in, for a later
// call to reuse once merged is no longer used (see Blocks). The list of
// diffs is r's, overwritten by its next call (which may take it as its
// versions), and the diffs in it new memory, the caller's to keep: clear
// the list once done with it, so that r does not keep them alive.
func (r *Resolver) ResolveIn(b *Blocks, versions ...replica.Partition) (merged replica.Partition, diffs []replica.Partition, err error) {
	return r.resolve(b, versions, mergeMode{diffing: true, shareValues: true})
}

// ResolveValidIn is ResolveValid building merged in b, as ResolveIn does.
func (r *Resolver) ResolveValidIn(b *Blocks, versions ...replica.Partition) (merged replica.Partition, diffs []replica.Partition, err error) {
	return r.resolve(b, versions, mergeMode{diffing: true, rowsValid: true, shareValues: true})
}

// MergeIn is ResolveIn without the diffs: Merge of versions, built in b's
// memory where it fits, its cells holding the versions' own value bytes
// as Resolve's do. It refuses what Merge refuses.
func (r *Resolver) MergeIn(b *Blocks, versions ...replica.Partition) (replica.Partition, error) {
	return r.mergeIn(b, versions, mergeMode{shareValues: true})
}

// MergeValidIn is MergeIn for versions that each passed
// replica.Partition.Validate already, as ResolveValid is for Resolve.
func (r *Resolver) MergeValidIn(b *Blocks, versions ...replica.Partition) (replica.Partition, error) {
	return r.mergeIn(b, versions, mergeMode{rowsValid: true, shareValues: true})
}

func (r *Resolver) mergeIn(b *Blocks, versions []replica.Partition, mode mergeMode) (replica.Partition, error) {
	defer r.m.release()
	r.m.blocks = b.unless(versions)
	return r.m.merge(versions, mode)
}

// ResolveValidInRooms is ResolveValidIn with diff i built in rooms[i]
// where that is not nil (see DiffRoom); rooms may be shorter than versions.
func (r *Resolver) ResolveValidInRooms(b *Blocks, rooms []*DiffRoom, versions ...replica.Partition) (merged replica.Partition, diffs []replica.Partition, err error) {
	r.rooms = rooms
	defer func() { r.rooms = nil }()
	return r.resolve(b, versions, mergeMode{diffing: true, rowsValid: true, shareValues: true})
}

func (r *Resolver) resolve(b *Blocks, versions []replica.Partition, mode mergeMode) (replica.Partition, []replica.Partition, error) {
	defer r.m.release()
	r.m.blocks = b.unless(versions)
	merged, err := r.m.merge(versions, mode)
	if err != nil {
		return replica.Partition{}, nil, err
	}
	var diffs []replica.Partition
	if b != nil {
		// Not cleared: every diff is written below, each once its version
		// is read, so that versions may be the list the last call returned
		// (clearing it took their partition deletions and range tombstones
		// away before they were diffed).
		if cap(r.diffs) < len(versions) {
			r.diffs = make([]replica.Partition, len(versions))
		}
		r.diffs = r.diffs[:len(versions)]
		diffs = r.diffs
	} else {
		diffs = make([]replica.Partition, len(versions))
	}
	for i := range versions {
		var room *DiffRoom
		if i < len(r.rooms) {
			room = r.rooms[i]
		}
		diffs[i] = r.m.lacks[i].diff(&merged, &versions[i], room)
	}
	return merged, diffs, nil
}
