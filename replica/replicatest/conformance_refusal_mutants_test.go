package replicatest_test

import (
	"github.com/readpath/readpath/replica"
)

// Mutants that decide whether to refuse a read under the tombstone failure
// threshold other than as Respond does, while answering Respond's count
// otherwise: the checks catch them only with data of each kind the
// threshold counts, and a query of several slices. (Found by a review: the
// suite passed them.)

// refusesPerSlice counts tombstones afresh for each slice of a query, as
// an engine that scans each slice with its own iterator and counter does.
func refusesPerSlice(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	if len(cmd.Query.Slices) > 1 && cmd.TombstoneFailureThreshold > 0 {
		for _, s := range cmd.Query.Slices {
			one := cmd
			one.Query.Slices, one.Query.Limit = []replica.Slice{s}, 0
			if _, err := one.Respond(stored); err != nil {
				return replica.Response{}, err
			}
		}
		cmd.TombstoneFailureThreshold = 0
	}
	return cmd.Respond(stored)
}

// refusesByCellTombstones counts dead cells alone toward the threshold:
// row deletions, range tombstones and a partition deletion do not count.
func refusesByCellTombstones(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
	if cmd.TombstoneFailureThreshold > 0 {
		cells := stored.Clone()
		cells.Deletion, cells.RangeTombstones = replica.Deletion{}, nil
		for i := range cells.Rows {
			cells.Rows[i].Deletion = replica.Deletion{}
		}
		if _, err := cmd.Respond(cells); err != nil {
			return replica.Response{}, err
		}
		cmd.TombstoneFailureThreshold = 0
	}
	return cmd.Respond(stored)
}

// refusesAt decides whether to refuse as Respond would for the command
// changed by at: a count taken before the purge, or at the wrong time.
func refusesAt(at func(*replica.Command)) func(*mapReplica, replica.Command, replica.Partition) (replica.Response, error) {
	return func(_ *mapReplica, cmd replica.Command, stored replica.Partition) (replica.Response, error) {
		if cmd.TombstoneFailureThreshold > 0 {
			c := cmd
			at(&c)
			if _, err := c.Respond(stored); err != nil {
				return replica.Response{}, err
			}
			cmd.TombstoneFailureThreshold = 0
		}
		return cmd.Respond(stored)
	}
}
